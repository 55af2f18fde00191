import { z } from "@hono/zod-openapi";
import { VoucherResultSchema } from "../../vouchers";
import { OrderSchema } from "../orders/schemas";
import { TotalsFields } from "../shared";
import { CHECKOUT_PROVIDERS } from "./config";

const returnUrl = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//.test(u), "Must be an http(s) URL.")
  .openapi({ description: "Where the card gateway sends the customer back (https in production)." });

export const CheckoutSchema = z
  .object({
    payment_provider: z.enum(CHECKOUT_PROVIDERS).openapi({
      description:
        "`card` (a pay link to the store's card gateway), `wallet` (all of it from the customer's cashback), " +
        "`cash_on_delivery` or `bank_transfer` (the merchant captures them). A zero total is paid at once.",
    }),
    payment_method: z.enum(["mada", "visa_master", "apple_pay"]).optional().openapi({
      description: "The card method the customer chose, for `card`.",
    }),
    success_url: returnUrl.optional(),
    error_url: returnUrl.optional(),
    lang: z.enum(["ar", "en"]).optional(),
  })
  .strict()
  .openapi("Checkout");

export type Checkout = z.infer<typeof CheckoutSchema>;

export const PaymentMethodGroupSchema = z
  .object({
    provider_id: z.string(),
    name_en: z.string(),
    name_ar: z.string(),
    methods: z.array(
      z.object({ id: z.string(), name_en: z.string(), name_ar: z.string(), image: z.string().nullable() }),
    ),
  })
  .openapi("CheckoutPaymentMethods");

/** The checkout result the reference found (Charge Wallet's body), for CA14 and MA2. */
export const CheckoutResultSchema = z
  .object({
    cart_price_updated: z.boolean().openapi({
      description: "True when the total differs from the one the customer last saw: show it before paying.",
    }),
    vouchers: z.array(VoucherResultSchema),
    ...TotalsFields,
    cashback_amount: z.number(),
    payment_methods: z.array(PaymentMethodGroupSchema),
    payment_url: z
      .string()
      .nullable()
      .openapi({ description: "For `card`: the signed pay link to send the customer to; null otherwise." }),
    order: OrderSchema,
  })
  .openapi("CheckoutResult");

export type CheckoutResult = z.infer<typeof CheckoutResultSchema>;
