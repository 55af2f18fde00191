import { z } from "@hono/zod-openapi";
import { customFields, humanText, isoDate, money, nonEmpty, ordering, weekdays } from "../../../../core/fields";
import { audit, int } from "../../schemas";
import { PlanVersionSchema } from "../schemas";

/** What the version writes return: the version as Plan Details shows it, with the plan and the audit fields. */
export const PlanVersionRecordSchema = PlanVersionSchema.extend({ plan: int(), ...audit }).openapi("PlanVersionRecord");

const versionFields = {
  min_start_date: isoDate,
  max_start_date: isoDate,
  off_days: weekdays.refine((d) => d.length < 7, "At least one day must be a delivery day."),
  num_of_days: int().min(1).max(366),
  total_num_of_items: int().min(1).max(10_000),
  delivery_price: money,
  original_price: money,
  discount_percentage: z.number().min(0).max(100),
  duration: humanText(50).nullable(),
  pause_credits: int().min(0).max(366).nullable(),
  num_of_pause_attempts: int().min(0).max(366).nullable(),
  min_of_pause_days: int().min(0).max(366).nullable(),
  custom_fields: customFields,
  ordering,
};
const startRange = (b: { min_start_date?: string; max_start_date?: string }) =>
  !b.min_start_date || !b.max_start_date || b.min_start_date <= b.max_start_date;
export const CreatePlanVersionSchema = z
  .object(versionFields)
  .partial()
  .required({
    min_start_date: true,
    max_start_date: true,
    num_of_days: true,
    total_num_of_items: true,
    original_price: true,
  })
  .strict()
  .refine(startRange, { message: "Must not be after max_start_date.", path: ["min_start_date"] })
  .openapi("CreatePlanVersion");
export const UpdatePlanVersionSchema = nonEmpty(z.object(versionFields).partial().strict())
  .refine(startRange, { message: "Must not be after max_start_date.", path: ["min_start_date"] })
  .openapi("UpdatePlanVersion");
