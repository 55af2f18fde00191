import { z } from "@hono/zod-openapi";
import { minorOfMajor } from "./money";
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

/** The largest amount a money field takes, in major units. */
export const MONEY_MAX = 99_999_999_999;

/**
 * A number with at most 2 decimals → the whole count of its hundredths (minor units of money, basis
 * points of a percentage), within `min`..`max` (given as the number): the count, or the words of the
 * 400. The one reading of such numbers, by `minorOfMajor`: binary float noise is not a decimal
 * (`0.1 + 0.2` is 0.30), more decimals are refused, never rounded. The bounds are checked on the
 * count, so that noise at a bound stays in range.
 */
export function hundredthsOf(n: number, bounds: { min: number; max: number }): number | { message: string } {
  const nearest = Math.round(n * 100);
  if (!(nearest >= Math.round(bounds.min * 100))) return { message: `Must be at least ${bounds.min}.` };
  if (!(nearest <= Math.round(bounds.max * 100))) return { message: `Must be at most ${bounds.max}.` };
  return minorOfMajor(n, 2) ?? { message: "At most 2 decimals." };
}

/**
 * A request field of a number with at most 2 decimals, in `min`..`max`, parsed by `hundredthsOf`: its
 * output is the whole count of hundredths (minor units, basis points), its document the number's.
 */
export function hundredths(opts: { min: number; max: number; description: string; example?: number }) {
  const { min, max, description, example } = opts;
  return z
    .number()
    .transform((n, ctx) => {
      const count = hundredthsOf(n, { min, max });
      if (typeof count === "number") return count;
      ctx.addIssue({ code: "custom", message: count.message });
      return z.NEVER;
    })
    .openapi({ type: "number", minimum: min, maximum: max, description, ...(example !== undefined && { example }) });
}

/**
 * `schema.nullable()` with `null` in its document too: a parsed field (`hundredths`, a time of day)
 * sets its document's `type` itself, which hides the `null` that `.nullable()` adds, and the document
 * then refused what the server takes.
 */
export function orNull<T extends z.ZodType>(schema: T, type: "number" | "string") {
  return schema.nullable().openapi({ type: [type, "null"] });
}

/** A price in major units, never negative, at most 2 decimals; parsed to minor units. */
export const money = hundredths({
  min: 0,
  max: MONEY_MAX,
  description: "In major units, at most 2 decimals (binary float noise such as 0.30000000000000004 reads as 0.30).",
  example: 100.5,
});

export const customFields = z
  .record(z.string().max(100), z.unknown())
  .nullable()
  .refine((o) => o === null || JSON.stringify(o).length <= 10_000, "At most 10 KB.")
  .openapi({ description: "Free-form fields, names of at most 100 characters; at most 10 KB as JSON." });

/** A PATCH body must change something. */
export const nonEmpty = <T extends z.ZodType<object>>(schema: T) =>
  schema.refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] });
