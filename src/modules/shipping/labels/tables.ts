import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";
import { couriers, shipments } from "../tables";

/**
 * A purchased shipping label (MH3): one per shipment, bought with the store wallet (the debit's
 * ledger entry names the label's shipment and order). Its PDF is rendered on demand from the
 * shipment. Cancelling the shipment voids it, and refunds it where the carrier does.
 */
export const shippingLabels = sqliteTable(
  "shipping_labels",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    shipmentId: integer("shipment_id")
      .notNull()
      .references(() => shipments.id),
    orderId: integer("order_id").notNull(),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    trackingNumber: text("tracking_number").notNull(),
    /** What the store wallet was charged, minor units. */
    costMinor: integer("cost_minor").notNull(),
    currency: text("currency").notNull(),
    /** When its shipment was cancelled: the label must not be used (its PDF says VOID). */
    voidedAt: text("voided_at"),
    /** What the voiding gave back to the store wallet, minor units (0 where the carrier keeps it). */
    refundMinor: integer("refund_minor").notNull().default(0),
  },
  (t) => [
    index("shipping_labels_app_idx").on(t.appId, t.isDeleted, t.id),
    // One label a shipment: a second purchase of the same shipment fails the whole batch.
    uniqueIndex("shipping_labels_shipment_uq").on(t.shipmentId).where(sql`is_deleted = 0`),
    index("shipping_labels_order_idx").on(t.appId, t.orderId),
  ],
);
