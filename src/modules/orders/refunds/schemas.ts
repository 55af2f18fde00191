import { z } from "@hono/zod-openapi";
import { humanText } from "../../../core/fields";
import { amountMinor } from "../shared";

export const RefundInvoiceSchema = z
  .object({
    items: z
      .array(
        z
          .object({
            invoice_item_id: z.number().int().positive(),
            qty: z.number().int().min(1).max(10_000),
          })
          .strict(),
      )
      .min(1)
      .max(100)
      .refine((l) => new Set(l.map((x) => x.invoice_item_id)).size === l.length, "Lines must not repeat.")
      .optional()
      .openapi({ description: "Refund these quantities of these lines; omit for everything still refundable." }),
    amount: amountMinor(99_999_999_999, 0.01)
      .optional()
      .openapi({ description: "Refund this amount (major units) spread over the lines instead; not with `items`." }),
    refund_reason: humanText(500, "lines").min(1),
  })
  .strict()
  .refine((b) => !(b.items && b.amount !== undefined), {
    message: "Give `items` or `amount`, not both.",
    path: ["amount"],
  })
  .openapi("RefundInvoice");

export type RefundInvoice = z.infer<typeof RefundInvoiceSchema>;
