import { z } from "@hono/zod-openapi";
import { humanText, isoDate } from "../../core/fields";

/** Schema pieces every meals resource shares: the audit fields, and the fields its writes validate alike. */

export const int = () => z.number().int();
export const date = z.string().openapi({ format: "date", example: "2026-12-01" });
export const text = z.string().nullable();
export const json = z.record(z.string(), z.unknown()).nullable();

/** The spec's audit fields (Conventions). */
export const audit = {
  app_id: int().nullable(),
  created_at: z.string().openapi({ format: "date-time" }),
  modified_at: z.string().openapi({ format: "date-time" }),
  deleted_at: z.string().nullable(),
  is_deleted: z.boolean(),
  ordering: int(),
};

/** An optional date of a public read's query string. */
export const queryDate = (description: string) =>
  isoDate.optional().openapi({ param: { in: "query" }, type: "string", format: "date", description });

// ---- the merchant writes' fields ----

export const hexColor = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, "Must be a colour, #RRGGBB.")
  .nullable();
export const image = z.string().max(2000);
export const optionalText = humanText(5000, "lines").nullable();
export const labels = z
  .array(humanText(100).min(1))
  .max(50)
  .refine((xs) => new Set(xs).size === xs.length, "Must not repeat.")
  .openapi({ uniqueItems: true });
export const latitude = z.number().min(-90).max(90);
export const longitude = z.number().min(-180).max(180);
export const daysAhead = int().min(0).max(365);
