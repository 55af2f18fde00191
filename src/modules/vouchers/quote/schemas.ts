import { z } from "@hono/zod-openapi";
import { minorOfMajor } from "../../../core/money";
import { VOUCHER_DISCOUNT_ON } from "../tables";

/** Bounds of Get Voucher Discount's cart, in major units: their sums stay exact in minor units. */
const PRICE_MAX = 10_000_000;
const QTY_MAX = 10_000;
const LINES_MAX = 100;
const CART_MAX = 100_000_000;
const FEE_MAX = 1_000_000;

/** Money in major units ≥ 0 → minor units; more decimals than the currency's are a 400. */
const amount = (max: number, description: string, example: number) =>
  z
    .number()
    .min(0)
    .max(max)
    .transform((n, ctx) => {
      const minor = minorOfMajor(n);
      if (minor === null) {
        ctx.addIssue({ code: "custom", message: "At most 2 decimals." });
        return z.NEVER;
      }
      return minor;
    })
    .openapi({ description: `${description} Major units, at most 2 decimals.`, example });

export const GetVoucherDiscountSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .openapi({ description: "As the customer typed it; matched in upper case.", example: "RAMADAN25" }),
    customer_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().openapi({
      description: "Whose limit (`per_customer_limit`) to check; without it, only the voucher's own limits.",
    }),
    cart_amount: amount(CART_MAX, "The cart's lines, in all (when the items are not sent).", 250).optional(),
    items: z
      .array(
        z
          .object({
            item_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
            qty: z.number().int().min(1).max(QTY_MAX),
            price: amount(PRICE_MAX, "The unit price the customer pays.", 25),
          })
          .strict(),
      )
      .min(1)
      .max(LINES_MAX)
      .optional()
      .openapi({ description: "The cart's lines: needed to price a voucher for some items or categories only." }),
    delivery_fee: amount(FEE_MAX, "The delivery fee, for a `delivery` voucher.", 15).optional(),
  })
  .strict()
  .refine((b) => (b.cart_amount === undefined) !== (b.items === undefined), {
    message: "Give exactly one of `cart_amount` and `items`.",
    path: ["cart_amount"],
  })
  .openapi("GetVoucherDiscount");

export type GetVoucherDiscount = z.output<typeof GetVoucherDiscountSchema>;

export const VoucherResultSchema = z
  .object({
    id: z.number().int().nullable().openapi({ description: "The voucher; null when no voucher has the code." }),
    code: z.string(),
    title: z.string().nullable().openapi({ description: "The English title (`title_ar` has the Arabic)." }),
    title_en: z.string().nullable(),
    title_ar: z.string().nullable(),
    discount_on: z.enum(VOUCHER_DISCOUNT_ON).nullable(),
    is_success: z.boolean().openapi({ description: "False when the voucher does not apply: `error_reason` says why." }),
    item_direct_discount_overridden: z.boolean().openapi({
      description: "Always false: a voucher applies on top of the items' own discounts.",
    }),
    error_reason: z.string().nullable(),
    cashback_amount: z.number().openapi({ description: "Always 0: vouchers give no cashback." }),
    amount: z.number().openapi({ description: "The whole discount (lines and delivery fee), in major units." }),
    delivery_fee_amount: z.number().openapi({ description: "The part of `amount` taken off the delivery fee." }),
    total_amount: z.number().openapi({ description: "What is left to pay: lines + delivery fee − `amount`." }),
    items: z.array(z.object({ item_id: z.number().int(), discount_amount: z.number() })).openapi({
      description:
        "Each line's share of the discount, in the order of the lines; they sum to `amount` − `delivery_fee_amount`.",
    }),
  })
  .openapi("VoucherResult");

export type VoucherResult = z.infer<typeof VoucherResultSchema>;
