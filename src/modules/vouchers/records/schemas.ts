import { z } from "@hono/zod-openapi";
import { customFields, DATE_TIME_WORDS, nameText, ordering } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { minorOfMajor } from "../../../core/money";
import { isIsoDateTime } from "../../../core/time";
import { VOUCHER_STATES } from "../rules";
import { VOUCHER_DISCOUNT_ON, VOUCHER_KINDS, VOUCHER_STATUSES } from "../tables";

/** The largest amount a voucher names (value, minimum order, cap), in major units. */
export const VOUCHER_MONEY_MAX = 100_000_000;
/** Item and category ids a voucher's scope may list. */
export const SCOPE_MAX = 100;
const LIMIT_MAX = 1_000_000_000;

export const voucherCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, "3 to 32 characters: letters A–Z, digits, - and _.")
  .transform((s) => s.toUpperCase())
  .openapi({
    type: "string",
    minLength: 3,
    maxLength: 32,
    pattern: "^[A-Za-z0-9_-]{3,32}$",
    description: "What customers type; stored (and matched) in upper case.",
    example: "RAMADAN25",
  });

/** Money in major units → minor units, `min` (minor) or more; more decimals than the currency's are a 400. */
const minorAmount = (min: number, description: string, example: number) =>
  z
    .number()
    .min(min / 100)
    .max(VOUCHER_MONEY_MAX)
    .transform((n, ctx) => {
      const minor = minorOfMajor(n);
      if (minor === null || minor < min) {
        ctx.addIssue({ code: "custom", message: `At most 2 decimals, at least ${min / 100}.` });
        return z.NEVER;
      }
      return minor;
    })
    .openapi({ description: `${description} Major units, at most 2 decimals.`, example });

/** An ISO 8601 date-time with offset, kept in UTC so that it compares as text. */
const instant = z
  .string()
  .max(40)
  .transform((s, ctx) => {
    if (!isIsoDateTime(s)) {
      ctx.addIssue({ code: "custom", message: DATE_TIME_WORDS });
      return z.NEVER;
    }
    return new Date(s).toISOString();
  })
  .openapi({ format: "date-time", example: "2026-03-01T00:00:00Z" });

const limit = z.number().int().min(1).max(LIMIT_MAX);
const ids = (what: string) =>
  z
    .array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
    .max(SCOPE_MAX)
    .refine((a) => new Set(a).size === a.length, "Ids must not repeat.")
    .openapi({ description: `${what} of the store; empty means every item.`, uniqueItems: true });

const fields = {
  code: voucherCode,
  title_en: nameText,
  title_ar: nameText,
  kind: z.enum(VOUCHER_KINDS),
  value: z
    .number()
    .gt(0)
    .max(VOUCHER_MONEY_MAX)
    .openapi({
      description:
        "For `percentage`: the percent off, 0 < value ≤ 100, at most 2 decimals (12.5). For `fixed`: money off in " +
        "major units, more than 0, at most 2 decimals.",
      example: 15,
    }),
  discount_on: z.enum(VOUCHER_DISCOUNT_ON).openapi({
    description:
      "`total`: off the cart's lines, all of them (a scope only says which items the cart must contain); " +
      "`items`: off the lines in scope only; `delivery`: off the delivery fee.",
  }),
  min_order_amount: minorAmount(0, "The cart's lines must add up to at least this.", 100),
  max_discount_amount: minorAmount(1, "The most a percentage voucher takes off; null is no cap.", 50).nullable(),
  starts_at: instant.nullable().openapi({ description: "Valid from (inclusive); null is from now on." }),
  ends_at: instant.nullable().openapi({ description: "Valid until (exclusive); null never ends." }),
  usage_limit: limit.nullable().openapi({ description: "Uses in all (released uses not counted); null is no limit." }),
  per_customer_limit: limit.nullable().openapi({ description: "Uses per customer; null is no limit." }),
  item_ids: ids("Items (or variants)"),
  category_ids: ids("Item categories"),
  is_featured: z.boolean().openapi({ description: "Listed to customers at checkout (featured vouchers)." }),
  status: z.enum(VOUCHER_STATUSES),
  custom_fields: customFields,
  ordering,
};

const percentOk = (b: { kind?: string; value?: number }) =>
  b.kind !== "percentage" || b.value === undefined || b.value <= 100;
const percentIssue = { message: "A percentage is at most 100.", path: ["value"] };
const windowOk = (b: { starts_at?: string | null; ends_at?: string | null }) =>
  !b.starts_at || !b.ends_at || b.ends_at > b.starts_at;
const windowIssue = { message: "Must be after `starts_at`.", path: ["ends_at"] };

export const CreateVoucherSchema = z
  .object({
    ...fields,
    discount_on: fields.discount_on.default("total"),
    min_order_amount: fields.min_order_amount.optional(),
    max_discount_amount: fields.max_discount_amount.optional(),
    starts_at: fields.starts_at.optional(),
    ends_at: fields.ends_at.optional(),
    usage_limit: fields.usage_limit.optional(),
    per_customer_limit: fields.per_customer_limit.optional(),
    item_ids: fields.item_ids.default([]),
    category_ids: fields.category_ids.default([]),
    is_featured: fields.is_featured.default(false),
    status: fields.status.default("active"),
    custom_fields: fields.custom_fields.optional(),
    ordering: fields.ordering.optional(),
  })
  .strict()
  .refine(percentOk, percentIssue)
  .refine(windowOk, windowIssue)
  .openapi("CreateVoucher");

export const UpdateVoucherSchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Give at least one field to change.", path: ["body"] })
  .refine((b) => b.kind === undefined || b.value !== undefined, {
    message: "Give `value` with `kind`: the stored value means something else under another kind.",
    path: ["value"],
  })
  .refine(percentOk, percentIssue)
  .refine(windowOk, windowIssue)
  .openapi("UpdateVoucher");

export type CreateVoucher = z.output<typeof CreateVoucherSchema>;
export type UpdateVoucher = z.output<typeof UpdateVoucherSchema>;

const money = (description: string) => z.number().openapi({ description: `${description} Major units.` });

export const VoucherSchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "RAMADAN25" }),
    title_en: z.string(),
    title_ar: z.string(),
    kind: z.enum(VOUCHER_KINDS),
    value: z.number().openapi({ description: "Percent off (`percentage`) or money off in major units (`fixed`)." }),
    discount_on: z.enum(VOUCHER_DISCOUNT_ON),
    min_order_amount: money("The least the cart's lines must add up to."),
    max_discount_amount: money("The cap of the discount; null is none.").nullable(),
    starts_at: z.string().nullable().openapi({ format: "date-time" }),
    ends_at: z.string().nullable().openapi({ format: "date-time" }),
    usage_limit: z.number().int().nullable(),
    per_customer_limit: z.number().int().nullable(),
    usage_count: z.number().int().openapi({ description: "Uses not released (read-only)." }),
    item_ids: z.array(z.number().int()),
    category_ids: z.array(z.number().int()),
    is_featured: z.boolean(),
    status: z.enum(VOUCHER_STATUSES).openapi({ description: "The merchant's switch." }),
    state: z.enum(VOUCHER_STATES).openapi({
      description:
        "Computed now: `disabled` (status), `expired` (past `ends_at`), `exhausted` (`usage_count` reached " +
        "`usage_limit`), `scheduled` (before `starts_at`), else `active`.",
    }),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    app_id: z.number().int(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    deleted_at: z.string().nullable().openapi({ format: "date-time" }),
    is_deleted: z.boolean(),
    ordering: z.number().int(),
  })
  .openapi("Voucher");

export type Voucher = z.infer<typeof VoucherSchema>;

export const VoucherListSchema = envelopeSchema(VoucherSchema, "VoucherList");
