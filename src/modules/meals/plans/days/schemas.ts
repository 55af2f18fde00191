import { z } from "@hono/zod-openapi";
import { humanText, nameText, nonEmpty, ordering } from "../../../../core/fields";
import { int } from "../../schemas";
import { PlanCategorySchema, PlanMasterSchema, PlanOptionSchema } from "../schemas";

/** What the writes of the menu cycle return: the record as stored, in the shape Plan Details shows it. */
export const PlanDayWrittenSchema = PlanMasterSchema.omit({ plan_categories: true, restaurant_name: true }).openapi(
  "PlanDay",
);
export const PlanCategoryWrittenSchema = PlanCategorySchema.omit({ options: true }).openapi("PlanCategoryRecord");
export const PlanOptionWrittenSchema = PlanOptionSchema.omit({ product: true })
  .extend({ product: int() })
  .openapi("PlanOptionRecord");

const dayFields = {
  day: humanText(50).min(1).openapi({ description: "The day's label, such as `Day 1` or `sunday`." }),
  repetition_counter: int()
    .min(1)
    .max(366)
    .openapi({ description: "Its place in the cycle, 1 to the plan's `repetition`; one day per place." }),
  master_id: int().positive().nullable(),
  ordering,
};
export const CreatePlanDaySchema = z
  .object(dayFields)
  .partial()
  .required({ day: true, repetition_counter: true })
  .strict()
  .openapi("CreatePlanDay");
export const UpdatePlanDaySchema = nonEmpty(z.object(dayFields).partial().strict()).openapi("UpdatePlanDay");

const planCategoryFields = {
  name_en: nameText,
  name_ar: nameText,
  is_multi_select: z.boolean(),
  max_selected_options: int().min(1).max(50),
  category_master_id: int().positive().nullable(),
  ordering,
};
export const CreatePlanCategorySchema = z
  .object(planCategoryFields)
  .partial()
  .required({ name_en: true, name_ar: true })
  .strict()
  .openapi("CreatePlanCategory");
export const UpdatePlanCategorySchema = nonEmpty(z.object(planCategoryFields).partial().strict()).openapi(
  "UpdatePlanCategory",
);

const optionFields = {
  product_id: int().positive().openapi({ description: "A product of the plan's restaurant." }),
  is_recommended: z.boolean(),
  is_active: z.boolean(),
  ordering,
};
export const CreatePlanOptionSchema = z
  .object(optionFields)
  .partial()
  .required({ product_id: true })
  .strict()
  .openapi("CreatePlanOption");
export const UpdatePlanOptionSchema = nonEmpty(z.object(optionFields).partial().strict()).openapi("UpdatePlanOption");
