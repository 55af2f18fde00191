import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { liveRow, notDeletedRow } from "../../../core/crud/tenant-table";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { orders } from "../tables";
import { fulfillmentBranch, type RawRow } from "./rows";
import { fulfillmentRowEvents, orderFulfillmentStatusStatement } from "./statements";
import { type FulfillmentState, type FulfillmentType, fulfillments } from "./tables";
import { forwardMove } from "./update";

/** What the shipping module reads of the fulfillments it ships (see `fulfillmentsForShipment`). */
export type FulfillmentForShipment = {
  id: number;
  order_id: number;
  order_item_id: number;
  item_id: number;
  type: FulfillmentType;
  status: FulfillmentState;
  qty: number;
  name_en: string;
  name_ar: string;
  total_amount_minor: number;
  customer_id: number | null;
  location: Record<string, unknown> | null;
  location_id: number | null;
  pickup_location_id: number | null;
  shipment_id: number | null;
  tracking_number: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  order: {
    id: number;
    status: string;
    payment_status: string;
    payment_provider: string | null;
    total_minor: number;
    currency: string;
    customer_id: number | null;
  };
};

const idsJson = (ids: readonly number[]) => JSON.stringify([...new Set(ids)]);

/** The store's live fulfillments among `ids` with their orders, in id order (one query); unknown ids are absent. */
export async function fulfillmentsForShipment(
  ctx: ServiceContext,
  ids: readonly number[],
): Promise<FulfillmentForShipment[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.all<
    RawRow & {
      o_status: string;
      o_payment_status: string;
      o_provider: string | null;
      o_total: number;
      o_currency: string;
    }
  >(
    sql`SELECT f.*, o.status AS o_status, o.payment_status AS o_payment_status, o.payment_provider AS o_provider,
        o.total_minor AS o_total, o.currency AS o_currency
      FROM (${fulfillmentBranch(ctx, sql`id IN (SELECT value FROM json_each(${idsJson(ids)}))`)}) AS f
      JOIN orders o ON o.id = f.order_id ORDER BY f.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    order_id: r.order_id!,
    order_item_id: r.order_item_id!,
    item_id: r.item_id,
    type: r.type as FulfillmentType,
    status: r.status as FulfillmentState,
    qty: r.qty,
    name_en: r.name_en,
    name_ar: r.name_ar,
    total_amount_minor: r.total_amount_minor,
    customer_id: r.customer_id,
    location: r.location === null ? null : JSON.parse(r.location),
    location_id: r.location_id,
    pickup_location_id: r.pickup_location_id,
    shipment_id: r.shipment_id,
    tracking_number: r.tracking_number,
    customer_name: r.customer_name,
    customer_email: r.customer_email,
    customer_phone: r.customer_phone,
    order: {
      id: r.order_id!,
      status: r.o_status,
      payment_status: r.o_payment_status,
      payment_provider: r.o_provider,
      total_minor: r.o_total,
      currency: r.o_currency,
      customer_id: r.customer_id,
    },
  }));
}

/**
 * True while every one of the store's fulfillments among `ids` is still pending or processing: the
 * guard a batch that ships them puts before its link, so that a line cancelled after the read is
 * not shipped.
 */
export const fulfillmentsOpenSql = (ctx: ServiceContext, ids: readonly number[]): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${fulfillments} WHERE ${fulfillments.appId} = ${ctx.appId}
    AND ${fulfillments.id} IN (SELECT value FROM json_each(${idsJson(ids)}))
    AND NOT (${notDeletedRow(fulfillments)} AND ${fulfillments.status} IN ('pending', 'processing')))`;

/** True when the store's fulfillment `id` (an expression of the caller's query) is cancelled. */
export const fulfillmentCancelledSql = (ctx: ServiceContext, id: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM fulfillments cf WHERE cf.app_id = ${ctx.appId} AND cf.id = ${id}
    AND cf.status = 'cancelled')`;

export type ShipmentLink = {
  fulfillmentIds: readonly number[];
  /** A shipment id (or an SQL expression of it, e.g. the id the batch just inserted); null unlinks. */
  shipmentId?: number | SQL | null;
  trackingNumber?: string | null;
  /** Moves each fulfillment forward to this status along pending → processing → shipped → delivered. */
  status?: "processing" | "shipped" | "delivered";
  /** A return of these fulfillments was received: an order whose every live fulfillment is among them is `returned`. */
  returned?: boolean;
  at?: string;
  /** The fulfillments' statuses, read with the shipment (`fulfillmentStatusesOf`): a move then reads nothing. */
  statuses?: readonly FulfillmentStatus[];
};

export type FulfillmentStatus = { id: number; status: FulfillmentState };

/**
 * The live fulfillments `ids` selects (a subquery of the caller's: a shipment's links) with their
 * statuses, as `fulfillmentShipmentStatements` moves them: the caller sends it with its own read of
 * the shipment, so that a status change waits for one read, not two. The links fix the store.
 */
export const fulfillmentStatusesOf = (db: Db, ids: SQL): Promise<FulfillmentStatus[]> =>
  db
    .select({ id: fulfillments.id, status: fulfillments.status })
    .from(fulfillments)
    .where(sql`${notDeletedRow(fulfillments)} AND ${fulfillments.id} IN (${ids})`);

/**
 * The statements (and derived events, for `emit()` after them in the same batch) by which a shipment
 * links its fulfillments and moves them forward: a fulfillment already at or past `status`, or
 * cancelled, keeps its status. The statuses are read first; each move repeats the status it read in
 * its WHERE, so a fulfillment changed meanwhile is left as it is, and has no event. Also refreshes
 * the orders' `fulfillment_status`. The shipping module never writes the fulfillments table itself.
 */
export async function fulfillmentShipmentStatements(
  ctx: ServiceContext,
  p: ShipmentLink,
): Promise<{ statements: BatchItem<"sqlite">[]; events: SQL[] }> {
  const at = p.at ?? nowIso();
  const ids = idsJson(p.fulfillmentIds);
  const scope = sql`${liveRow(ctx.appId, fulfillments)}
    AND ${fulfillments.id} IN (SELECT value FROM json_each(${ids}))`;
  const statements: BatchItem<"sqlite">[] = [];
  const events: SQL[] = [];
  const linking = p.shipmentId !== undefined || p.trackingNumber !== undefined;
  if (linking) {
    statements.push(
      ctx.db
        .update(fulfillments)
        .set({
          modifiedAt: at,
          ...(p.shipmentId !== undefined && { shipmentId: p.shipmentId === null ? null : sql`${p.shipmentId}` }),
          ...(p.trackingNumber !== undefined && { trackingNumber: p.trackingNumber }),
        })
        .where(scope),
    );
    const changes = [
      ...(p.shipmentId !== undefined ? ["shipment_id"] : []),
      ...(p.trackingNumber !== undefined ? ["tracking_number"] : []),
    ];
    events.push(
      fulfillmentRowEvents(
        "fulfillment.updated",
        sql`app_id = ${ctx.appId} AND id IN (SELECT value FROM json_each(${ids})) AND modified_at = ${at}`,
        sql`, 'changes', json(${JSON.stringify(changes)})`,
      ),
    );
  }
  if (p.status) {
    const to = p.status;
    const current =
      p.statuses ??
      (await ctx.db.select({ id: fulfillments.id, status: fulfillments.status }).from(fulfillments).where(scope));
    const moves = current.filter((f) => forwardMove(f.status, to)).map((f) => ({ id: f.id, from: f.status }));
    if (moves.length) {
      const movesJson = JSON.stringify(moves);
      const stamp =
        to === "shipped"
          ? { fulfilledAt: sql`coalesce(${fulfillments.fulfilledAt}, ${at})` }
          : to === "delivered"
            ? { deliveredAt: at, fulfilledAt: sql`coalesce(${fulfillments.fulfilledAt}, ${at})` }
            : {};
      statements.push(
        ctx.db
          .update(fulfillments)
          .set({ status: to, modifiedAt: at, ...stamp })
          .where(
            sql`${scope} AND EXISTS (SELECT 1 FROM json_each(${movesJson}) m
              WHERE m.value ->> '$.id' = ${fulfillments.id} AND m.value ->> '$.from' = ${fulfillments.status})`,
          ),
        orderFulfillmentStatusStatement(
          ctx,
          sql`SELECT order_id FROM fulfillments WHERE id IN (SELECT value ->> '$.id' FROM json_each(${movesJson}))`,
          at,
        ),
      );
      events.push(
        fulfillmentRowEvents(
          "fulfillment.status_changed",
          sql`app_id = ${ctx.appId} AND status = ${to} AND modified_at = ${at}
            AND id IN (SELECT value ->> '$.id' FROM json_each(${movesJson}))`,
          sql`, 'previous_status', (SELECT m.value ->> '$.from' FROM json_each(${movesJson}) m
            WHERE m.value ->> '$.id' = fulfillments.id)`,
        ),
      );
    }
  }
  if (p.returned)
    statements.push(
      ctx.db
        .update(orders)
        .set({ fulfillmentStatus: "returned", modifiedAt: at })
        .where(
          sql`${orders.appId} = ${ctx.appId} AND ${orders.fulfillmentStatus} = 'delivered'
            AND ${orders.id} IN (SELECT order_id FROM fulfillments WHERE ${scope})
            AND NOT EXISTS (SELECT 1 FROM fulfillments f WHERE f.order_id = ${orders.id} AND ${notDeletedRow("f")}
              AND f.status <> 'cancelled' AND f.id NOT IN (SELECT value FROM json_each(${ids})))`,
        ),
    );
  return { statements, events };
}
