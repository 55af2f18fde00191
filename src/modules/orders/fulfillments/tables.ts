import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";
import { orderItems, orders } from "../tables";

/** The kinds a fulfillment row can be; tickets are a fulfillment kind too but keep their own table. */
export const FULFILLMENT_TYPES = ["delivery", "pickup", "digital", "service"] as const;
export type FulfillmentType = (typeof FULFILLMENT_TYPES)[number];
/** The lifecycle; see `fulfillmentMachine` in machine.ts. */
export const FULFILLMENT_STATES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;
export type FulfillmentState = (typeof FULFILLMENT_STATES)[number];

/**
 * What one paid order line still has to get to the customer. Created at payment (one per line to
 * fulfil); the shipping module links it to a shipment through the orders module's functions, never
 * by writing here. `pickup_location_id` and `shipment_id` name shipping's rows, so they carry no
 * foreign key (shipping depends on orders, not the other way).
 */
export const fulfillments = sqliteTable(
  "fulfillments",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** The order line this fulfils. */
    orderItemId: integer("order_item_id")
      .notNull()
      .references(() => orderItems.id),
    itemId: integer("item_id").notNull(),
    customerId: integer("customer_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    type: text("type", { enum: FULFILLMENT_TYPES }).notNull(),
    qty: integer("qty").notNull(),
    status: text("status", { enum: FULFILLMENT_STATES }).notNull().default("pending"),
    /** The line's total (VAT included), as tickets carry it. */
    totalAmountMinor: integer("total_amount_minor").notNull(),
    /** YYYY-MM-DD in the store's time zone; null until scheduled. */
    date: text("date"),
    /** HH:MM or HH:MM:SS; null when any time of the day. */
    time: text("time"),
    /** The delivery address as copied from the customer's location (edits to it later do not move this). */
    location: text("location", { mode: "json" }).$type<Record<string, unknown>>(),
    locationId: integer("location_id"),
    pickupLocationId: integer("pickup_location_id"),
    shipmentId: integer("shipment_id"),
    trackingNumber: text("tracking_number"),
    fulfilledAt: text("fulfilled_at"),
    deliveredAt: text("delivered_at"),
    cancelledAt: text("cancelled_at"),
    notes: text("notes"),
    customerName: text("customer_name"),
    customerEmail: text("customer_email"),
    customerPhone: text("customer_phone"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    // Every list filter leads with app_id; soft-deleted rows are filtered in the same index.
    index("fulfillments_app_created_idx").on(t.appId, t.isDeleted, t.createdAt),
    index("fulfillments_app_status_date_idx").on(t.appId, t.isDeleted, t.status, t.date),
    index("fulfillments_app_date_idx").on(t.appId, t.isDeleted, t.date),
    index("fulfillments_order_idx").on(t.orderId, t.id),
    index("fulfillments_order_item_idx").on(t.orderItemId),
    index("fulfillments_app_customer_idx").on(t.appId, t.customerId, t.id),
    index("fulfillments_app_shipment_idx").on(t.appId, t.shipmentId),
  ],
);
