import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";

/** One way to pay within a provider (a card scheme, the cashback wallet, cash). */
export const PaymentMethodOptionSchema = z
  .object({
    id: z.string().openapi({ description: "What checkout takes as `payment_method` (for a card).", example: "mada" }),
    name_en: z.string().openapi({ example: "mada" }),
    name_ar: z.string().openapi({ example: "مدى" }),
    image: z.string().nullable().openapi({ description: "A logo URL, when the store has one; null otherwise." }),
  })
  .openapi("PaymentMethodOption");

/**
 * A payment provider the store offers, with its methods: the FOUND shape of the checkout result's
 * `payment_methods[]` (`{provider_id, methods[{id, name_en, name_ar, image}]}`), with the provider's names.
 */
export const PaymentProviderSchema = z
  .object({
    provider_id: z
      .enum(["card", "wallet", "cash_on_delivery", "bank_transfer"])
      .openapi({ description: "What checkout takes as `payment_provider`." }),
    name_en: z.string().openapi({ example: "Card" }),
    name_ar: z.string().openapi({ example: "البطاقة" }),
    methods: z.array(PaymentMethodOptionSchema),
  })
  .openapi("PaymentProvider");

export type PaymentProviderView = z.infer<typeof PaymentProviderSchema>;

export const PaymentProviderListSchema = envelopeSchema(PaymentProviderSchema, "PaymentProviderList");

/** A card the customer saved with a gateway: never its token. */
export const SavedPaymentMethodSchema = z
  .object({
    id: z.number().int(),
    gateway: z.string().openapi({ description: "The card gateway that holds the card.", example: "myfatoorah" }),
    brand: z.string().openapi({ example: "mada" }),
    last4: z.string().openapi({ example: "1019" }),
    expiry_month: z.number().int().min(1).max(12).openapi({ example: 5 }),
    expiry_year: z.number().int().openapi({ example: 2029 }),
    is_default: z.boolean(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("SavedPaymentMethod");

export type SavedPaymentMethod = z.infer<typeof SavedPaymentMethodSchema>;

export const SavedPaymentMethodListSchema = envelopeSchema(SavedPaymentMethodSchema, "SavedPaymentMethodList");
