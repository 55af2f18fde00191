import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { einvoiceUnitEvents } from "./einvoice-units/events";
import { fulfillmentEvents } from "./fulfillments/events";
import { subscriptionEvents } from "./subscriptions/events";
import { ORDER_STATUSES, PAYMENT_PROVIDERS, PAYMENT_STATUSES, TRANSACTION_STATUSES } from "./tables";

const OrderRef = ById.extend({
  customer_id: z.number().int().nullable(),
  status: z.enum(ORDER_STATUSES),
  payment_status: z.enum(PAYMENT_STATUSES),
  total_amount: z.number().openapi({ description: "Major units, VAT included, after discounts." }),
  currency: z.string(),
});
const InvoiceRef = ById.extend({ order_id: z.number().int(), serial: z.string().nullable() });
const TransactionRef = ById.extend({
  order_id: z.number().int(),
  invoice_id: z.number().int().nullable(),
  status: z.enum(TRANSACTION_STATUSES),
  amount: z.number(),
  payment_provider: z.enum(PAYMENT_PROVIDERS),
});
const RecurringRef = ById.extend({ customer_id: z.number().int() });
/** A message of ZATCA's about a document, as the invoice's `einvoice.messages` keeps it. */
const ZatcaMessageRef = z.object({
  type: z.enum(["info", "warning", "error"]),
  code: z.string(),
  category: z.string().optional(),
  message: z.string(),
});

/** The events of carts, orders, invoices, transactions, recurring purchases and the store wallet. */
export const orderEvents = defineEvents({
  ...fulfillmentEvents,
  ...einvoiceUnitEvents,
  "cart.created": { description: "A customer created a cart.", data: ById.extend({ customer_id: z.number().int() }) },
  "cart.updated": { description: "A cart's lines, voucher or delivery changed.", data: ById },
  "order.created": {
    description: "An order was placed (checkout, a phone order, a top-up): pending until paid.",
    data: OrderRef,
  },
  "order.updated": { description: "An order's notes, reference, custom fields or status changed.", data: OrderRef },
  "order.paid": { description: "An order's payment was captured (or it was free).", data: OrderRef },
  "order.completed": { description: "An order reached `completed`.", data: OrderRef },
  "order.cancelled": {
    description: "An order was cancelled: its stock, voucher use and wallet redemption went back.",
    data: OrderRef,
  },
  "order.expired": { description: "An unpaid order passed its payment deadline: its stock went back.", data: OrderRef },
  "order.refunded": { description: "Everything captured for an order was refunded.", data: OrderRef },
  "invoice.created": { description: "An invoice (or a refund invoice) was created.", data: InvoiceRef },
  "invoice.paid": { description: "An invoice was paid; its serial and ZATCA QR are assigned.", data: InvoiceRef },
  "invoice.refunded": {
    description: "A refund invoice was issued against a paid invoice.",
    data: InvoiceRef.extend({ refunded_invoice_id: z.number().int() }),
  },
  "invoice.zatca_reported": {
    description:
      "ZATCA accepted the invoice's e-invoice: reported (simplified) or cleared (standard), with its warnings.",
    data: InvoiceRef.extend({ zatca_status: z.enum(["reported", "cleared"]), warnings: z.array(ZatcaMessageRef) }),
  },
  "invoice.zatca_rejected": {
    description:
      "ZATCA rejected the invoice's e-invoice (or, for a refund invoice, its original was rejected); `errors` says why.",
    data: InvoiceRef.extend({ zatca_status: z.literal("rejected"), errors: z.array(ZatcaMessageRef) }),
  },
  "einvoice_unit.credentials_refused": {
    description:
      "ZATCA refused the e-invoicing unit's production CSID (401): its documents wait, pending, until the CSID is renewed.",
    data: ById.extend({ message: z.string() }),
  },
  "invoice.voided": { description: "An unpaid invoice was voided (its order cancelled or expired).", data: InvoiceRef },
  "transaction.created": { description: "A payment or refund transaction was started.", data: TransactionRef },
  "transaction.captured": {
    description: "A payment was captured (by the provider, or a bank transfer by the merchant).",
    data: TransactionRef,
  },
  "transaction.failed": { description: "A payment failed at the provider.", data: TransactionRef },
  "transaction.declined": { description: "The merchant declined a bank transfer.", data: TransactionRef },
  "transaction.refunded": { description: "A refund transaction completed at the provider.", data: TransactionRef },
  "recurring_purchase.created": {
    description: "A customer's recurring purchase was created from a recurring cart.",
    data: RecurringRef,
  },
  "recurring_purchase.charged": {
    description: "A cycle of a recurring purchase was ordered and paid.",
    data: RecurringRef.extend({ order_id: z.number().int() }),
  },
  "recurring_purchase.charge_failed": {
    description: "A cycle's charge failed; `charge_attempts` counts the failures.",
    data: RecurringRef.extend({ error_message: z.string() }),
  },
  "recurring_purchase.updated": {
    description: "A recurring purchase's status changed (activated, or stopped).",
    data: RecurringRef.extend({ status: z.string() }),
  },
  "invoice_config.updated": {
    description: "The store's invoice settings (serial prefix, due days, footers, ZATCA QR) changed.",
    data: z.object({ app_id: z.number().int() }),
  },
  "merchant.wallet.charged": {
    description: "A store wallet top-up was paid and credited.",
    data: z.object({ order_id: z.number().int(), amount: z.number(), balance: z.number() }),
  },
  "payment_method.deleted": {
    description: "A customer removed one of their saved cards.",
    data: ById.extend({ customer_id: z.number().int() }),
  },
  ...subscriptionEvents,
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof orderEvents> {}
}
