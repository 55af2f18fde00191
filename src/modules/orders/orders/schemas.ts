import { z } from "@hono/zod-openapi";
import { customFields, humanText, nonEmpty } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { CustomerSchema } from "../../customers";
import { ItemSchema } from "../../items";
import { BuyerSchema, LineRequestSchema, TotalsFields } from "../shared";
import {
  CART_PROVIDERS,
  FULFILLMENT_STATUSES,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  ORDER_KINDS,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
} from "../tables";

export const OrderItemSchema = z
  .object({
    id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    item_id: z.number().int().nullable(),
    item: z.union([ItemSchema, z.null()]).openapi({ description: "The item as it is now (null for a top-up line)." }),
    name_en: z.string(),
    name_ar: z.string(),
    sku: z.string().nullable(),
    qty: z.number().int(),
    unit_price: z.number(),
    amount: z.number().openapi({ description: "unit_price × qty, VAT included." }),
    voucher_discount_amount: z.number(),
    total_amount: z.number().openapi({ description: "amount − voucher discount, VAT included." }),
    tax_percentage: z.number(),
    tax_amount: z.number(),
    total_amount_excluding_tax: z.number(),
    modifier_values: z.array(z.number().int()),
    bundle_selections: z.array(z.object({ bundle_category_id: z.number().int(), item_ids: z.array(z.number().int()) })),
  })
  .openapi("OrderItem");

export const OrderInvoiceRefSchema = z
  .object({
    id: z.number().int(),
    serial: z.string(),
    type: z.enum(INVOICE_TYPES),
    status: z.enum(INVOICE_STATUSES),
    total_amount: z.number(),
  })
  .openapi("OrderInvoiceRef");

export const OrderSchema = z
  .object({
    id: z.number().int(),
    app_id: z.number().int(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    kind: z.enum(ORDER_KINDS),
    reference: z.string().nullable().openapi({ description: "The client's own id of the order, unique in the store." }),
    status: z.enum(ORDER_STATUSES),
    payment_status: z.enum(PAYMENT_STATUSES),
    fulfillment_status: z.enum(FULFILLMENT_STATUSES),
    payment_provider: z.enum(PAYMENT_PROVIDERS).nullable(),
    payment_method: z.string().nullable(),
    cart_provider: z.enum(CART_PROVIDERS),
    customer_id: z.number().int().nullable(),
    customer: z.union([CustomerSchema, z.null()]),
    receiver: z.record(z.string(), z.unknown()).nullable(),
    buyer: BuyerSchema.nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    cart_id: z.number().int().nullable(),
    recurring_purchase_id: z.number().int().nullable(),
    items: z.array(OrderItemSchema),
    ...TotalsFields,
    refunded_amount: z.number(),
    voucher_code: z.string().nullable(),
    notes: z.string().nullable(),
    invoices: z.array(OrderInvoiceRefSchema),
    payment_url: z
      .string()
      .nullable()
      .openapi({ description: "Where the customer pays a pending card order (a signed link); null otherwise." }),
    allowed_actions: z.array(z.string()).openapi({ description: "What the order's status allows now." }),
    expires_at: z.string().nullable().openapi({ description: "An unpaid order is released (expired) at this time." }),
    paid_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .openapi("Order");

export type Order = z.infer<typeof OrderSchema>;
export const OrderListSchema = envelopeSchema(OrderSchema, "OrderList");

export const CreateOrderSchema = z
  .object({
    customer_id: z.number().int().positive(),
    items: z.array(LineRequestSchema).min(1).max(100),
    voucher_code: z.string().trim().min(1).max(32).optional(),
    location_id: z.number().int().positive().optional(),
    payment_provider: z.enum(["card", "cash_on_delivery", "bank_transfer"]).default("card"),
    reference: z.string().trim().min(1).max(100).optional(),
    notes: humanText(1000, "lines").optional(),
    custom_fields: customFields.optional(),
  })
  .strict()
  .openapi("CreateOrder");

export const UpdateOrderSchema = nonEmpty(
  z
    .object({
      status: z.enum(["cancelled"]).openapi({
        description:
          "The only status a merchant sets: `cancelled` (a pending order). Payment completes an order; a refund " +
          "invoice refunds it.",
      }),
      notes: humanText(1000, "lines").nullable(),
      reference: z.string().trim().min(1).max(100).nullable(),
      custom_fields: customFields,
    })
    .partial()
    .strict(),
).openapi("UpdateOrder");

export type CreateOrder = z.infer<typeof CreateOrderSchema>;
export type UpdateOrder = z.infer<typeof UpdateOrderSchema>;
