import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { todayIn } from "../../../core/time";
import { fulfillmentRowEvents } from "./statements";
import { fulfillments } from "./tables";

/**
 * What a paid order writes for its fulfillment, for `paidStatements`' batch (after the order's own
 * update): one `pending` fulfillment per line that has something to hand over, and a
 * `fulfillment.created` per row. A wallet top-up, a ticket (the tickets module's) or a subscription
 * (the subscriptions' own) gets none. The type follows the item: `digital`, `service`, else `pickup`
 * when the order is collected at a pickup location (or the item is pickup-only), else `delivery`.
 * The date is the store's day of the payment; the merchant or the customer moves it. Runs at most
 * once per line (a second "paid" of the same order inserts nothing).
 */
export function fulfillmentsOnPaid(
  ctx: ServiceContext,
  p: { orderId: SQL; at: string; timezone: string },
): { statements: BatchItem<"sqlite">[]; events: SQL[] } {
  const date = todayIn(p.timezone, new Date(p.at));
  // INSERT … SELECT names every column in table order (drizzle's form): built from the table itself.
  const values: Partial<Record<keyof typeof fulfillments.$inferSelect, SQL>> = {
    appId: sql`o.app_id`,
    createdAt: sql`${p.at}`,
    modifiedAt: sql`${p.at}`,
    isDeleted: sql`0`,
    ordering: sql`0`,
    orderId: sql`o.id`,
    orderItemId: sql`oi.id`,
    itemId: sql`oi.item_id`,
    customerId: sql`o.customer_id`,
    nameEn: sql`oi.name_en`,
    nameAr: sql`oi.name_ar`,
    type: sql`CASE WHEN i.type = 'digital' THEN 'digital' WHEN i.type = 'service' THEN 'service'
      WHEN o.pickup_location_id IS NOT NULL OR i.service_type = 'pickup' THEN 'pickup' ELSE 'delivery' END`,
    qty: sql`oi.qty`,
    status: sql`'pending'`,
    totalAmountMinor: sql`oi.total_minor`,
    date: sql`${date}`,
    location: sql`CASE WHEN o.pickup_location_id IS NULL THEN o.location END`,
    locationId: sql`CASE WHEN o.pickup_location_id IS NULL THEN o.location ->> '$.id' END`,
    pickupLocationId: sql`o.pickup_location_id`,
    customerName: sql`c.name`,
    customerEmail: sql`c.email`,
    customerPhone: sql`c.mobile_number`,
  };
  const columns = Object.keys(getTableColumns(fulfillments)) as (keyof typeof values)[];
  const insert = ctx.db.insert(fulfillments).select(
    sql`SELECT ${sql.join(
      columns.map((k) => values[k] ?? sql`NULL`),
      sql`, `,
    )}
    FROM order_items oi
      JOIN orders o ON o.id = oi.order_id
      JOIN items i ON i.id = oi.item_id
      LEFT JOIN customers c ON c.id = o.customer_id
    WHERE o.id = ${p.orderId} AND o.app_id = ${ctx.appId} AND o.kind = 'purchase' AND o.payment_status = 'paid'
      AND i.type NOT IN ('ticket', 'subscription')
      AND NOT EXISTS (SELECT 1 FROM fulfillments f WHERE f.order_item_id = oi.id)
    ORDER BY oi.id`,
  );
  return {
    statements: [insert],
    events: [fulfillmentRowEvents("fulfillment.created", sql`order_id = ${p.orderId} AND created_at = ${p.at}`)],
  };
}
