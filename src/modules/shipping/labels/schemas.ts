import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../../core/listing";
import { geoId, ids } from "../fields";

/** How many shipments one purchase takes: a batch of labels a store prints at once. */
export const LABELS_PER_PURCHASE_MAX = 50;

export const ShippingLabelSchema = z
  .object({
    id: z.number().int(),
    shipment_id: z.number().int(),
    order_id: z.number().int(),
    courier_id: z.number().int(),
    tracking_number: z.string(),
    cost: z.number().openapi({ description: "What the store wallet was charged, in major units." }),
    currency: z.string(),
    label_url: z
      .string()
      .url()
      .openapi({ description: "The label as an A6 PDF (merchant token, `can_read_shipment`)." }),
    created_at: z.string(),
    voided_at: z.string().nullable().openapi({
      description: "When the shipment was cancelled, voiding the label (its PDF then says VOID); null while usable.",
    }),
    refund: z.number().openapi({
      description:
        "What voiding gave back to the store wallet, major units: 0 unless voided, or where the carrier keeps the charge.",
    }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ShippingLabel");
export type ShippingLabel = z.infer<typeof ShippingLabelSchema>;

export const ShippingLabelListSchema = envelopeSchema(ShippingLabelSchema, "ShippingLabelList");

export const PurchaseLabelsSchema = z
  .object({
    shipment_ids: ids(LABELS_PER_PURCHASE_MAX, 1).openapi({
      description: `The shipments to buy labels for (1 to ${LABELS_PER_PURCHASE_MAX}, each in status \`created\`).`,
      example: [318],
    }),
    courier_id: geoId.optional().openapi({
      description:
        "When given, every shipment must be carried by this courier (a guard against buying the wrong labels).",
    }),
  })
  .strict()
  .openapi("PurchaseShipmentLabels");
export type PurchaseLabels = z.infer<typeof PurchaseLabelsSchema>;

export const LabelPurchaseSchema = z
  .object({
    results: z.array(ShippingLabelSchema).openapi({ description: "One label per shipment, in the order asked." }),
    total_cost: z.number().openapi({ description: "What the store wallet was charged in all, major units." }),
    currency: z.string(),
    wallet_balance: z.number().openapi({ description: "The store wallet's balance after the purchase." }),
  })
  .openapi("ShippingLabelPurchase");
