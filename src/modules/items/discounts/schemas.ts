import { z } from "@hono/zod-openapi";
import { hundredths, isoDateTime, orNull } from "../../../core/fields";
import { DISCOUNT_KINDS } from "../tables";

/** A percentage is at most 100.00, in hundredths (basis points). */
export const PERCENT_MAX = 10_000;

/**
 * A percentage (0 to 100) or an amount in major units, by the kind beside it; either has at most 2
 * decimals (float noise is no decimal), and is read as hundredths: basis points, or minor units.
 */
const reduction = (description: string) => hundredths({ min: 0, max: 99_999_999, description, example: 15 });

const discountFields = {
  kind: z
    .enum(DISCOUNT_KINDS)
    .openapi({ description: "`percentage` of the price (value 0–100), or a `fixed` amount off in major units." }),
  value: reduction("By `kind`: a percentage (0 to 100) or an amount in major units; at most 2 decimals."),
  trial_kind: z.enum(DISCOUNT_KINDS).nullable(),
  trial_value: orNull(
    reduction(
      "The first-purchase reduction, instead of the regular one: by `trial_kind`, as `value` is by " +
        "`kind`; at most 2 decimals.",
    ),
    "number",
  ),
  is_usage_price: z.boolean(),
  starts_at: isoDateTime.nullable(),
  ends_at: isoDateTime.nullable(),
};

type DiscountShape = {
  kind?: string;
  value?: number;
  trial_kind?: string | null;
  trial_value?: number | null;
  starts_at?: string | null;
  ends_at?: string | null;
};

/** Checks on the parsed body: `value` and `trial_value` are hundredths here. */
const discountChecks = <T extends z.ZodType<DiscountShape>>(schema: T) =>
  schema
    .refine((d) => d.kind !== "percentage" || d.value === undefined || d.value <= PERCENT_MAX, {
      message: "A percentage is at most 100.",
      path: ["value"],
    })
    .refine((d) => d.trial_kind !== "percentage" || d.trial_value == null || d.trial_value <= PERCENT_MAX, {
      message: "A percentage is at most 100.",
      path: ["trial_value"],
    })
    .refine(
      (d) =>
        (d.trial_kind == null) === (d.trial_value == null) ||
        (d.trial_kind === undefined && d.trial_value === undefined),
      { message: "Give trial_kind and trial_value together.", path: ["trial_value"] },
    )
    .refine((d) => !d.starts_at || !d.ends_at || Date.parse(d.starts_at) < Date.parse(d.ends_at), {
      message: "Must be after starts_at.",
      path: ["ends_at"],
    });

export const DiscountSchema = z
  .object({
    id: z.number().int(),
    item: z.number().int(),
    ...discountFields,
    value: z.number().openapi({ description: "By `kind`: a percentage, or an amount in major units." }),
    trial_value: z.number().nullable().openapi({ description: "The first-purchase reduction, by `trial_kind`." }),
  })
  .openapi("Discount");

export type Discount = z.infer<typeof DiscountSchema>;

export const CreateDiscountSchema = discountChecks(
  z
    .object(discountFields)
    .partial({ trial_kind: true, trial_value: true, is_usage_price: true, starts_at: true, ends_at: true })
    .strict(),
).openapi("CreateDiscount");

export const UpdateDiscountSchema = discountChecks(
  z
    .object(discountFields)
    .partial()
    .strict()
    .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] }),
).openapi("UpdateDiscount");

/** Parsed bodies: `value` and `trial_value` in hundredths (basis points, or minor units). */
export type CreateDiscount = z.output<typeof CreateDiscountSchema>;
export type UpdateDiscount = z.output<typeof UpdateDiscountSchema>;
