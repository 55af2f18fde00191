import { z } from "@hono/zod-openapi";
import { humanText, isDeletedOnRequest, nameText, nonEmpty, ordering } from "../../../core/fields";
import { envelopeSchema, TERM_MAX } from "../../../core/listing";
import { NutritionsSchema } from "../menus/schemas";
import { audit, date, daysAhead, hexColor, image, int, json, optionalText, queryDate, text } from "../schemas";
import { SUBSCRIPTION_TYPES } from "../tables";

// ---- responses (2.3) ----

export const PlanTagSchema = z
  .object({
    id: int(),
    ordering: int(),
    type_en: z.string(),
    type_ar: z.string(),
    tag_en: z.string(),
    tag_ar: z.string(),
    description_en: z.string(),
    description_ar: z.string(),
    image: z.string(),
    color: text,
    modified_at: z.string().openapi({ format: "date-time" }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("PlanTag");

export const PlanVersionSchema = z
  .object({
    id: int(),
    custom_fields: json,
    min_start_date: date,
    max_start_date: date,
    off_days: z.array(z.string()),
    ordering: int(),
    num_of_days: int(),
    total_num_of_items: int(),
    delivery_price: z.number(),
    original_price: z.number(),
    discount_percentage: z.number(),
    duration: text,
    pause_credits: int().nullable(),
    num_of_pause_attempts: int().nullable(),
    min_of_pause_days: int().nullable(),
  })
  .openapi("PlanVersion");

const PlanProductSchema = z
  .object({
    ...audit,
    id: int(),
    name_ar: z.string(),
    name_en: z.string(),
    original_price: z.number(),
    discount_percentage: z.number(),
    original_image: z.string(),
    image: z.string(),
    nutritions: NutritionsSchema.nullable(),
    restaurant_id: int(),
    is_sub: z.boolean(),
    description_ar: text,
    description_en: text,
    category_id: int().nullable(),
    is_active: z.boolean(),
    is_special: z.boolean(),
    in_stock: z.boolean(),
    allergies: z.array(z.string()),
    tags: z.array(z.string()),
    allergens_dislikes: z.array(z.string()),
    variant: z.array(z.string()),
  })
  .openapi("PlanProduct");

export const PlanOptionSchema = z
  .object({
    ...audit,
    id: int(),
    is_recommended: z.boolean(),
    is_active: z.boolean(),
    plan_category: int(),
    product: PlanProductSchema,
  })
  .openapi("PlanOption");

export const PlanCategorySchema = z
  .object({
    ...audit,
    id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    is_multi_select: z.boolean(),
    max_selected_options: int(),
    category_master_id: int().nullable(),
    plan_date: int().openapi({ description: "Id of the master (plan day) the category belongs to." }),
    options: z.array(PlanOptionSchema),
  })
  .openapi("PlanCategory");

export const PlanMasterSchema = z
  .object({
    ...audit,
    id: int(),
    restaurant_name: z.string(),
    day: z.string(),
    repetition_counter: int().openapi({ description: "Its place in the cycle, 1 to the plan's `repetition`." }),
    master_id: int().nullable(),
    plan: int(),
    restaurant: int(),
    plan_categories: z.array(PlanCategorySchema),
  })
  .openapi("PlanMaster");

const PlanSizeSchema = z
  .object({
    id: int().openapi({ description: "A size belongs to one plan: its id is the plan's." }),
    title: z.string(),
    protein_amount: z.number(),
    carb_amount: z.number().nullable(),
    unit: z.string(),
  })
  .openapi("PlanSize");

const planSummary = {
  id: int(),
  name_en: z.string(),
  name_ar: z.string(),
  subtitle_en: text,
  subtitle_ar: text,
  description_en: text,
  description_ar: text,
  plan_tags: z.array(PlanTagSchema),
  image: z.string(),
  image_ar: text,
  daily_num_of_items: int(),
  avg_daily_meal_calories: z.number(),
  start_after: int(),
  special_product_selection_limit: int().nullable(),
  featured_title_en: text,
  featured_title_ar: text,
  is_featured: z.boolean(),
  is_marketplace_featured: z.boolean(),
  is_marketplace_active: z.boolean(),
  supported_service: text,
  gender: text,
  subscription_type: z.string(),
  menu_id: int(),
  repetition: int(),
  skip_option_selection: z.boolean(),
  size: PlanSizeSchema,
  versions: z.array(PlanVersionSchema),
  restaurant: z.object({ id: int(), name_en: z.string(), name_ar: z.string(), logo: z.string() }),
};

/** List Plans: a plan without its dates and masters (Plan Details has them). */
export const PlanSummarySchema = z.object(planSummary).openapi("PlanSummary");
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

export const PlanSchema = z
  .object({
    ...planSummary,
    start_date: date.openapi({
      description: "The first delivery date: the one asked for, or the earliest the version allows.",
    }),
    plan_version_id: int().openapi({ description: "The version `dates` follow." }),
    dates: z.array(date).openapi({
      description:
        "The delivery dates: `num_of_days` dates from `start_date`, skipping the version's off " +
        "days and the restaurant's closed dates.",
    }),
    masters: z.array(PlanMasterSchema),
  })
  .openapi("MealPlan");
export type Plan = z.infer<typeof PlanSchema>;

export const PlanTagListSchema = envelopeSchema(PlanTagSchema, "PlanTagList");
export const PlanListSchema = envelopeSchema(PlanSummarySchema, "PlanList");

// ---- public request inputs ----

export const PlanQuerySchema = z.object({
  plan_version_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .optional()
    .openapi({
      param: { in: "query" },
      type: "integer",
      description: "A version of this plan; by default its first (lowest `ordering`, then id).",
      // A version of the path's example plan (1): the demo data's plan 1 has versions 1 and 2.
      example: 1,
    }),
  start_date: queryDate("The first delivery date; by default the earliest the version allows."),
});

export const ListPlansSchema = z
  .object({
    restaurant_id: int().positive(),
    tag_ids: z.array(int().positive()).max(20).openapi({ description: "Plans carrying any of these tags." }),
    subscription_type: z.enum(SUBSCRIPTION_TYPES),
    gender: z.string().max(20),
    supported_service: z.string().max(50),
    is_featured: z.boolean(),
    is_marketplace_featured: z.boolean(),
    min_calories: z.number().min(0).max(100_000).openapi({ description: "`avg_daily_meal_calories` at least this." }),
    max_calories: z.number().min(0).max(100_000),
    search: z
      .string()
      .trim()
      .min(1)
      .max(TERM_MAX)
      .openapi({ description: "In the names and subtitles, both languages." }),
  })
  .partial()
  .strict()
  .refine((b) => b.min_calories === undefined || b.max_calories === undefined || b.min_calories <= b.max_calories, {
    message: "Must not be above max_calories.",
    path: ["min_calories"],
  })
  .openapi("ListPlansFilters");

// ---- merchant writes ----

const planFields = {
  menu_id: int().positive().openapi({ description: "A menu of the plan's restaurant." }),
  name_en: nameText,
  name_ar: nameText,
  subtitle_en: optionalText,
  subtitle_ar: optionalText,
  description_en: optionalText,
  description_ar: optionalText,
  image,
  image_ar: image.nullable(),
  tag_ids: z
    .array(int().positive())
    .max(20)
    .refine((xs) => new Set(xs).size === xs.length, "Ids must not repeat.")
    .openapi({ uniqueItems: true }),
  daily_num_of_items: int().min(1).max(20),
  avg_daily_meal_calories: z.number().min(0).max(100_000),
  start_after: daysAhead,
  special_product_selection_limit: int().min(0).max(100).nullable(),
  featured_title_en: humanText(200).nullable(),
  featured_title_ar: humanText(200).nullable(),
  is_featured: z.boolean(),
  is_marketplace_featured: z.boolean(),
  is_marketplace_active: z.boolean(),
  is_active: z.boolean(),
  supported_service: humanText(50).nullable(),
  gender: humanText(20).nullable(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  repetition: int()
    .min(1)
    .max(366)
    .openapi({
      description:
        "Days in the menu cycle: the n-th delivery date (from 0) is served by the day whose " +
        "repetition_counter is n % repetition + 1.",
    }),
  skip_option_selection: z.boolean(),
  size: z
    .object({
      title: nameText,
      protein_amount: z.number().min(0).max(10_000),
      carb_amount: z.number().min(0).max(10_000).nullable().optional(),
      unit: humanText(10).min(1).optional(),
    })
    .strict(),
  ordering,
};
export const CreatePlanSchema = z
  .object({ ...planFields, restaurant_id: int().positive() })
  .partial()
  .required({
    restaurant_id: true,
    menu_id: true,
    name_en: true,
    name_ar: true,
    daily_num_of_items: true,
    subscription_type: true,
    repetition: true,
    size: true,
  })
  .strict()
  .openapi("CreatePlan");
export const UpdatePlanSchema = nonEmpty(z.object(planFields).partial().strict()).openapi("UpdatePlan");

const planTagFields = {
  type_en: nameText,
  type_ar: nameText,
  tag_en: nameText,
  tag_ar: nameText,
  description_en: humanText(5000, "lines"),
  description_ar: humanText(5000, "lines"),
  image,
  color: hexColor,
  ordering,
};
export const CreatePlanTagSchema = z
  .object(planTagFields)
  .partial({ description_en: true, description_ar: true, image: true, color: true, ordering: true })
  .strict()
  .openapi("CreatePlanTag");
export const UpdatePlanTagSchema = nonEmpty(z.object(planTagFields).partial().strict()).openapi("UpdatePlanTag");
