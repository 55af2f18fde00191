import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { VOUCHER_DISCOUNT_ON, VOUCHER_KINDS } from "../tables";

/** A voucher as the customer app lists it at checkout: what it gives, not how it is managed. */
export const FeaturedVoucherSchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "RAMADAN25" }),
    title_en: z.string(),
    title_ar: z.string(),
    kind: z.enum(VOUCHER_KINDS),
    value: z.number().openapi({ description: "Percent off (`percentage`) or money off in major units (`fixed`)." }),
    discount_on: z.enum(VOUCHER_DISCOUNT_ON),
    min_order_amount: z.number().openapi({ description: "The least the cart's lines must add up to, major units." }),
    max_discount_amount: z.number().nullable().openapi({ description: "The cap of the discount; null is none." }),
    ends_at: z.string().nullable().openapi({ format: "date-time", description: "Valid until; null never ends." }),
  })
  .openapi("FeaturedVoucher");

export type FeaturedVoucher = z.infer<typeof FeaturedVoucherSchema>;

export const FeaturedVoucherListSchema = envelopeSchema(FeaturedVoucherSchema, "FeaturedVoucherList");
