import { z } from "@hono/zod-openapi";
import { DISCOUNT_KINDS } from "../tables";

const dateTime = z.string().datetime({ offset: true }).openapi({ format: "date-time" });

const discountFields = {
  kind: z
    .enum(DISCOUNT_KINDS)
    .openapi({ description: "`percentage` of the price (value 0–100), or a `fixed` amount off in major units." }),
  value: z.number().min(0).max(99_999_999),
  trial_kind: z.enum(DISCOUNT_KINDS).nullable(),
  trial_value: z
    .number()
    .min(0)
    .max(99_999_999)
    .nullable()
    .openapi({ description: "The first-purchase reduction, instead of the regular one." }),
  is_usage_price: z.boolean(),
  starts_at: dateTime.nullable(),
  ends_at: dateTime.nullable(),
};

type DiscountShape = {
  kind?: string;
  value?: number;
  trial_kind?: string | null;
  trial_value?: number | null;
  starts_at?: string | null;
  ends_at?: string | null;
};

const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

const discountChecks = <T extends z.ZodType<DiscountShape>>(schema: T) =>
  schema
    .refine((d) => d.value === undefined || twoDecimals(d.value), { message: "At most 2 decimals.", path: ["value"] })
    .refine((d) => d.kind !== "percentage" || d.value === undefined || d.value <= 100, {
      message: "A percentage is at most 100.",
      path: ["value"],
    })
    .refine(
      (d) =>
        d.trial_value == null ||
        (twoDecimals(d.trial_value) && (d.trial_kind !== "percentage" || d.trial_value <= 100)),
      { message: "At most 2 decimals; a percentage at most 100.", path: ["trial_value"] },
    )
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
  .object({ id: z.number().int(), item: z.number().int(), ...discountFields })
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

export type CreateDiscount = z.infer<typeof CreateDiscountSchema>;
export type UpdateDiscount = z.infer<typeof UpdateDiscountSchema>;
