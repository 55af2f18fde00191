import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { notDeletedRow } from "../../../core/crud/tenant-table";
import { eventPayloadSql, newEventId } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { orders } from "../tables";
import { fulfillments } from "./tables";

/**
 * One event per fulfillment row `where` selects once the batch has run, as `emit()` takes derived
 * events. Each id is a random prefix shared by this call and the row's id in hex, so every row's
 * event has its own id and the payload repeats it.
 */
export function fulfillmentRowEvents(type: EventType, where: SQL, extra: SQL = sql``): SQL {
  const prefix = newEventId().slice(0, 28);
  const id = sql`(${prefix} || printf('%08x', id))`;
  const data = sql`json_object('id', id, 'order_id', order_id, 'order_item_id', order_item_id, 'type', type,
    'status', status${extra})`;
  return sql`SELECT ${id} AS id, app_id, ${type} AS type, ${eventPayloadSql(type, id, sql`app_id`, data)} AS payload
    FROM ${fulfillments} WHERE ${where}`;
}

/**
 * The order's `fulfillment_status` from its live, not cancelled fulfillments: `delivered` once all are
 * delivered, `fulfilled` once all are shipped or delivered, `partially_fulfilled` once some are,
 * else `unfulfilled`. An order without any (a top-up, tickets only) or already `returned` keeps its own.
 */
export function orderFulfillmentStatusStatement(ctx: ServiceContext, orderIds: SQL, at: string): BatchItem<"sqlite"> {
  const any = (statuses: string) =>
    sql`EXISTS (SELECT 1 FROM fulfillments f WHERE f.order_id = orders.id AND ${notDeletedRow("f")}
      AND f.status IN (${sql.raw(statuses)}))`;
  const next = sql`CASE
      WHEN NOT ${any("'pending', 'processing', 'shipped'")} THEN 'delivered'
      WHEN NOT ${any("'pending', 'processing'")} THEN 'fulfilled'
      WHEN ${any("'shipped', 'delivered'")} THEN 'partially_fulfilled'
      ELSE 'unfulfilled' END`;
  return ctx.db
    .update(orders)
    .set({ fulfillmentStatus: sql`${next}`, modifiedAt: at })
    .where(
      sql`${orders.appId} = ${ctx.appId} AND ${orders.id} IN (${orderIds}) AND ${orders.fulfillmentStatus} <> 'returned'
        AND ${any("'pending', 'processing', 'shipped', 'delivered'")} AND ${orders.fulfillmentStatus} <> ${next}`,
    );
}
