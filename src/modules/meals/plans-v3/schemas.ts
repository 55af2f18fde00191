import { z } from "@hono/zod-openapi";
import { isoDate, WEEKDAYS } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { idParam } from "../../../core/openapi";
import { PlanMasterSchema, PlanSummarySchema } from "../plans/schemas";
import { date, int } from "../schemas";

/** Plans v3 (MM4): super plans and a plan's menu for one date. */

const PlanRestaurantSchema = z
  .object({
    id: int(),
    name_en: z.string(),
    name_ar: z.string(),
    logo: z.string(),
    supports_pickup: z.boolean(),
    supports_delivery: z.boolean(),
    closed_dates: z.array(date),
    off_days: z.array(z.enum(WEEKDAYS)),
    time_zone: z.string().openapi({ description: "The IANA zone the restaurant's days are counted in." }),
  })
  .openapi("SuperPlanRestaurant");

export const SuperPlanSchema = PlanSummarySchema.omit({ restaurant: true })
  .extend({
    restaurants: z.array(PlanRestaurantSchema).openapi({
      description: "The restaurants that cook the plan, with what a checkout needs of them (one today).",
    }),
  })
  .openapi("SuperPlan");
export type SuperPlan = z.infer<typeof SuperPlanSchema>;
export const SuperPlanListSchema = envelopeSchema(SuperPlanSchema, "SuperPlanList");

export const PlanDateSchema = z
  .object({
    plan_id: int(),
    plan_version_id: int().openapi({ description: "The version whose delivery dates were counted." }),
    start_date: date.openapi({ description: "The first delivery date the cycle is counted from." }),
    date,
    weekday: z.enum(WEEKDAYS),
    day_number: int().openapi({ description: "Which delivery this is, from 1 (the `start_date`)." }),
    repetition_counter: int().openapi({
      description: "The day of the menu cycle that serves it: (`day_number` - 1) % `repetition` + 1.",
    }),
    master: PlanMasterSchema.nullable().openapi({
      description: "That day of the cycle with its categories, options and products; null while the plan has none.",
    }),
  })
  .openapi("PlanDate");
export type PlanDate = z.infer<typeof PlanDateSchema>;

export const PlanDateParams = idParam("plan_id").extend({
  date: isoDate.openapi({ param: { name: "date", in: "path" }, description: "The delivery date, YYYY-MM-DD." }),
});
