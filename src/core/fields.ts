import { z } from "@hono/zod-openapi";
import { isIsoDate } from "./time";

/** Request field schemas that every module validates the same way. */

export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const NAME_MAX = 200;
export const nameText = z.string().trim().min(1, "Required; must not be empty.").max(NAME_MAX);
export const ordering = z.number().int().min(0).max(1_000_000);

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date, YYYY-MM-DD.")
  .refine(isIsoDate, "Must be a real date.")
  .openapi({ format: "date", example: "2026-12-01" });
export const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, "Must be a time, HH:MM:SS.")
  .transform((t) => (t.length === 5 ? `${t}:00` : t))
  .openapi({ example: "18:30:00" });

/** Weekday names, each at most once. */
export const weekdays = z
  .array(z.enum(WEEKDAYS))
  .max(7)
  .refine((d) => new Set(d).size === d.length, "Days must not repeat.")
  .openapi({ uniqueItems: true });

/** A price in major units: never negative, at most 2 decimals. */
export const money = z
  .number()
  .min(0)
  .max(99_999_999_999)
  .refine(
    (n) => Number.isInteger(Math.round(n * 100)) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6,
    "At most 2 decimals.",
  )
  .openapi({ description: "In major units, at most 2 decimals.", example: 100.5 });

export const customFields = z
  .record(z.string().max(100), z.unknown())
  .nullable()
  .refine((o) => o === null || JSON.stringify(o).length <= 10_000, "At most 10 KB.")
  .openapi({ description: "Free-form fields, names of at most 100 characters; at most 10 KB as JSON." });

/** A PATCH body must change something. */
export const nonEmpty = <T extends z.ZodType<object>>(schema: T) =>
  schema.refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] });
