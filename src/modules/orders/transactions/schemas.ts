import { z } from "@hono/zod-openapi";
import { humanText } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { PAYMENT_PROVIDERS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from "../tables";

export const TransactionSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    order_id: z.number().int(),
    invoice_id: z.number().int().nullable(),
    type: z.enum(TRANSACTION_TYPES),
    status: z.enum(TRANSACTION_STATUSES),
    amount: z.number(),
    currency: z.string(),
    payment_provider: z.enum(PAYMENT_PROVIDERS),
    payment_method: z.string().nullable(),
    gateway: z.string().nullable().openapi({ description: "The card gateway a card payment went through." }),
    reference: z.string().nullable().openapi({ description: "The provider's id of the payment or refund." }),
    provider_details: z.record(z.string(), z.unknown()).nullable(),
    receipt: z.string().nullable().openapi({ description: "A bank transfer's proof of payment (an image URL)." }),
    reviewed_at: z.string().nullable(),
    decline_reason: z.string().nullable(),
    allowed_actions: z.array(z.string()),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("Transaction");

export type Transaction = z.infer<typeof TransactionSchema>;
export const TransactionListSchema = envelopeSchema(TransactionSchema, "TransactionList");

export const DeclineTransactionSchema = z
  .object({ reason: humanText(500, "lines").min(1).openapi({ example: "No transfer arrived in the account." }) })
  .strict()
  .openapi("DeclineTransaction");
