import { z } from "@hono/zod-openapi";
import { minorOfMajor } from "./money";
import { isIsoDate, isIsoDateTime, YEAR_MAX, YEAR_MIN } from "./time";

/** Request field schemas that every module validates the same way. */

export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * Human text: what a person wrote for people to read (a name, a title, an address, a description).
 * Control characters are refused: NUL and the other C0 and C1 controls break the logs, the PDFs and
 * the receivers' parsers, and a single line (`"line"`) takes no tab nor line break either; `"lines"`
 * (a description, a note) keeps tab, line feed and carriage return. A value of only invisible
 * characters (spaces, direction marks, zero-width characters, a byte order mark) is refused as
 * though empty: it would show as a blank name. Such marks between visible letters stay, since
 * Arabic text carries RLM and LRM marks where it meets Latin words and digits.
 */
export type TextKind = "line" | "lines";

/** The control characters (Cc: C0, DEL and C1); less tab, line feed and carriage return for `"lines"`. */
const CONTROLS: Record<TextKind, RegExp> = { line: /\p{Cc}/u, lines: /[^\P{Cc}\t\n\r]/u };
/** Whitespace and what renders as nothing: format characters (Cf) and the default-ignorable ones. */
const INVISIBLE = /[\s\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** What is wrong with `s` as human text of `kind`, in plain words; null when nothing. */
export function humanTextProblem(s: string, kind: TextKind): string | null {
  if (CONTROLS[kind].test(s))
    return kind === "line"
      ? "Must be one line of text, without control characters (NUL, tab, line breaks)."
      : "Must not contain control characters such as NUL (tab and line breaks are fine).";
  if (s !== "" && s.replace(INVISIBLE, "") === "")
    return "Must contain a visible character, not only spaces, direction marks or zero-width characters.";
  return null;
}

/**
 * A request field of human text of `kind`, trimmed, of at most `max` characters; empty is allowed
 * (add `.min(1, ...)` where it is not).
 */
export function humanText(max: number, kind: TextKind = "line") {
  return z
    .string()
    .trim()
    .max(max)
    .superRefine((s, ctx) => {
      const problem = humanTextProblem(s, kind);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}

export const NAME_MAX = 200;
export const nameText = humanText(NAME_MAX).min(1, "Required; must not be empty.");
export const ordering = z.number().int().min(0).max(1_000_000);

const YEARS = `in the years ${YEAR_MIN} to ${YEAR_MAX}`;
/** How a refused date reads, wherever one is parsed. */
export const DATE_WORDS = `Must be a real calendar date, YYYY-MM-DD, ${YEARS}.`;
/** How a refused date-time reads, wherever one is parsed. */
export const DATE_TIME_WORDS = `Must be an ISO 8601 date-time with offset, of a real day and time, ${YEARS}.`;

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date, YYYY-MM-DD.")
  .refine(isIsoDate, DATE_WORDS)
  .openapi({ format: "date", example: "2026-12-01" });

/**
 * An ISO 8601 date-time with offset naming a real day and time (no February 30, no hour 25), in the
 * years YEAR_MIN..YEAR_MAX; the string as given (a field that compares instants as text converts).
 */
export const isoDateTime = z.string().refine(isIsoDateTime, DATE_TIME_WORDS).openapi({ format: "date-time" });

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

/** `is_deleted` of a record whose list takes `include_deleted` (incremental sync): only such a list shows true. */
export const isDeletedOnRequest = z
  .boolean()
  .openapi({ description: "True only on a list asked with `include_deleted=true`." });
