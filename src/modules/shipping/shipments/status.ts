import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent } from "../../../core/events/outbox";
import { abortUnless } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { type FulfillmentStatus, fulfillmentShipmentStatements, fulfillmentStatusesOf } from "../../orders";
import { carrierOf, type ShippingEnv } from "../carriers";
import { type CarrierEnv, CarrierError } from "../carriers/adapter";
import { visibleCouriers } from "../couriers/service";
import { voidLabelStatements } from "../labels/void";
import {
  couriers,
  type ShipmentStatus,
  type STATUS_SOURCES,
  shipmentFulfillments,
  shipmentStatusHistory,
  shipments,
} from "../tables";
import { ACTION_TO, shipmentMachine } from "./machine";
import type { Shipment, UpdateShipmentStatus } from "./schemas";
import { findShipment, readShipmentDetails, type ShipmentRow } from "./views";

type Source = (typeof STATUS_SOURCES)[number];
export type StatusChange = {
  to: Exclude<ShipmentStatus, "created">;
  source: Source;
  note?: string | null;
  carrierStatus?: string | null;
  at?: string;
  /** Extra columns the same UPDATE sets (a purchased label's URL and cost). */
  set?: Partial<typeof shipments.$inferInsert>;
  /** Cancelling a labelled shipment voids its label; true gives its cost back to the store wallet. */
  refundLabel?: boolean;
};

const ref = (r: ShipmentRow) => ({ id: r.id, order_id: r.orderId, courier_id: r.courierId, direction: r.direction });

/**
 * What a status change reads besides the shipment: its fulfillments (with their statuses, which a
 * pickup or a delivery moves), and those its order's received returns hold.
 */
export type ShipmentLinks = { fulfillmentIds: number[]; receivedIds: number[]; statuses: FulfillmentStatus[] };

/**
 * `ShipmentLinks` of the shipment `shipment` selects (a subquery of its id), in statements that need
 * nothing the shipment's own read gives: all are sent together.
 */
export async function shipmentLinks(db: Db, shipment: SQL): Promise<ShipmentLinks> {
  const [row, statuses] = await Promise.all([
    db.get<{ linked: string; received: string }>(
      sql`SELECT (SELECT json_group_array(fulfillment_id) FROM ${shipmentFulfillments}
          WHERE shipment_id = (${shipment})) AS linked,
        (SELECT json_group_array(sf.fulfillment_id) FROM ${shipmentFulfillments} sf
          JOIN ${shipments} r ON r.id = sf.shipment_id JOIN ${shipments} me ON me.id = (${shipment})
          WHERE r.app_id = me.app_id AND r.order_id = me.order_id AND r.direction = 'return'
            AND r.return_status = 'received') AS received`,
    ),
    fulfillmentStatusesOf(
      db,
      sql`SELECT fulfillment_id FROM ${shipmentFulfillments} WHERE shipment_id = (${shipment})`,
    ),
  ]);
  return {
    fulfillmentIds: JSON.parse(row?.linked ?? "[]"),
    receivedIds: JSON.parse(row?.received ?? "[]"),
    statuses,
  };
}

/** The store's live shipment `id`, as a subquery for `shipmentLinks`. */
export const shipmentIdSql = (ctx: ServiceContext, id: number): SQL =>
  sql`SELECT id FROM ${shipments} WHERE ${and(live(shipments, ctx.appId), eq(shipments.id, id))}`;

/**
 * The statements and events of one status change of `row` (already checked against the machine):
 * the UPDATE guarded on the status it read, the history row, what it does to the fulfillments (a
 * forward shipment ships them at pickup, delivers them at delivery, lets them go when cancelled) and
 * to a return's request (received at delivery, canceled at cancel). For labels/ too: purchasing a
 * label is `{ to: "label_purchased", set: { labelUrl, costMinor } }`. `links`, read with the
 * shipment (`shipmentLinks`), spares a round trip; without them a move that needs them reads them.
 */
export async function statusChangeStatements(
  ctx: ServiceContext,
  row: ShipmentRow,
  change: StatusChange,
  links?: ShipmentLinks,
): Promise<{ statements: BatchItem<"sqlite">[]; events: SQL[] }> {
  const to = shipmentMachine.next(row.status, ACTION_TO[change.to], `Shipment ${row.id}`);
  const at = change.at ?? nowIso();
  const guard = and(eq(shipments.appId, ctx.appId), eq(shipments.id, row.id), eq(shipments.status, row.status))!;
  const forward = row.direction === "forward";
  // Only these moves change the shipment's fulfillments: the others (a label bought) read no links.
  const movesFulfillments = forward
    ? to === "picked_up" || to === "delivered" || to === "cancelled"
    : to === "delivered";
  const read = movesFulfillments
    ? (links ?? (await shipmentLinks(ctx.db, sql`${row.id}`)))
    : { fulfillmentIds: [], receivedIds: [], statuses: [] };
  const fulfillmentIds = read.fulfillmentIds;
  const fulfillment =
    forward && fulfillmentIds.length
      ? to === "picked_up"
        ? { status: "shipped" as const }
        : to === "delivered"
          ? { status: "delivered" as const }
          : to === "cancelled"
            ? { shipmentId: null, trackingNumber: null }
            : null
      : !forward && fulfillmentIds.length && to === "delivered"
        ? { returned: true }
        : null;
  // An order is returned once its returns received so far, this one included, hold all it shipped.
  const returnedIds =
    fulfillment && "returned" in fulfillment ? [...new Set([...fulfillmentIds, ...read.receivedIds])] : fulfillmentIds;
  // The fulfillments' statuses came with the links: a forward move reads nothing more.
  const linked = fulfillment
    ? await fulfillmentShipmentStatements(ctx, {
        fulfillmentIds: returnedIds,
        at,
        ...fulfillment,
        ...(forward && { statuses: read.statuses }),
      })
    : null;
  const returnStatus = forward
    ? undefined
    : to === "delivered"
      ? "received"
      : to === "cancelled"
        ? "canceled"
        : undefined;
  const statements: BatchItem<"sqlite">[] = [
    abortUnless(ctx.db, sql`EXISTS (SELECT 1 FROM ${shipments} WHERE ${guard})`, "shipment status moved"),
    ctx.db
      .update(shipments)
      .set({
        ...change.set,
        status: to,
        modifiedAt: at,
        ...(to === "delivered" && { deliveredAt: at }),
        ...(to === "cancelled" && { cancelledAt: at }),
        ...(returnStatus && { returnStatus }),
      })
      .where(guard),
    ctx.db.insert(shipmentStatusHistory).values({
      appId: ctx.appId,
      shipmentId: row.id,
      status: to,
      at,
      note: change.note ?? null,
      source: change.source,
      carrierStatus: change.carrierStatus ?? null,
    }),
    ...(linked?.statements ?? []),
  ];
  const voided =
    to === "cancelled" && row.status === "label_purchased"
      ? voidLabelStatements(ctx, row, at, change.refundLabel ?? false)
      : null;
  statements.push(...(voided?.statements ?? []));
  const events = [
    literalEvent(ctx.appId, "shipment.status_changed", {
      ...ref(row),
      status: to,
      previous_status: row.status,
      source: change.source,
    }),
    ...(to === "delivered" ? [literalEvent(ctx.appId, "shipment.delivered", { ...ref(row), status: to })] : []),
    ...(to === "cancelled"
      ? [literalEvent(ctx.appId, "shipment.cancelled", { ...ref(row), status: to, previous_status: row.status })]
      : []),
    ...(linked?.events ?? []),
    ...(voided?.events ?? []),
  ];
  return { statements, events };
}

/**
 * Applies one change in one batch, which reads the shipment back as Shipment Details shows it; a
 * race lost to another change is told as the machine tells it, from the new status.
 */
export async function applyStatus(
  ctx: ServiceContext,
  row: ShipmentRow,
  change: StatusChange,
  links?: ShipmentLinks,
): Promise<Shipment> {
  const { statements, events } = await statusChangeStatements(ctx, row, change, links);
  const plan = new BatchPlan(ctx.db).guarded(statements, async () => {
    const now = await findShipment(ctx, row.id);
    shipmentMachine.next(now.status, ACTION_TO[change.to], `Shipment ${row.id}`);
    return ApiError.conflict("concurrent_update", `Shipment ${row.id} changed meanwhile; retry.`);
  });
  const details = readShipmentDetails(plan, ctx, row.id);
  return details(await plan.event(...events).run(ctx.events), row.id);
}

/**
 * The store's shipment `id` (else the 404) with its courier as a list shows it (null when deleted or
 * no longer offered here), and its links: one round trip.
 */
async function shipmentToMove(ctx: ServiceContext, env: ShippingEnv, id: number) {
  const [[found], links] = await Promise.all([
    ctx.db
      .select({ shipment: shipments, courier: couriers })
      .from(shipments)
      .leftJoin(couriers, and(eq(couriers.id, shipments.courierId), visibleCouriers(ctx, env)))
      .where(and(live(shipments, ctx.appId), eq(shipments.id, id)))
      .limit(1),
    shipmentLinks(ctx.db, shipmentIdSql(ctx, id)),
  ]);
  if (!found) throw ApiError.notFound("shipment_not_found", `Shipment ${id}`);
  return { row: found.shipment, courier: found.courier, links };
}

/**
 * MH5: cancels before pickup (409 after); an integrated carrier is told first. A purchased label is
 * voided in the same batch, and refunded to the store wallet where its charge comes back.
 */
export async function cancelShipment(ctx: ServiceContext, env: ShippingEnv, id: number): Promise<Shipment> {
  const { row, courier, links } = await shipmentToMove(ctx, env, id);
  shipmentMachine.next(row.status, "cancel", `Shipment ${id}`);
  const adapter = courier?.type === "integrated" ? carrierOf(env, courier.code) : undefined;
  // A label is refunded where its charge comes back: the carrier's word, or (a custom courier's, which
  // no carrier was paid for) always.
  let refundLabel = courier?.type !== "integrated";
  if (adapter && row.carrierReference) {
    try {
      refundLabel = (await adapter.cancelShipment(env as CarrierEnv, row.carrierReference)).refunded;
    } catch (error) {
      if (error instanceof CarrierError)
        throw ApiError.conflict(
          "carrier_error",
          `The ${error.carrier} carrier refused the cancellation: ${error.message}`,
        );
      throw error;
    }
  }
  return applyStatus(ctx, row, { to: "cancelled", source: "merchant", refundLabel }, links);
}

/**
 * A custom courier's shipment, moved by the merchant (their own drivers report to them); an
 * integrated carrier's moves only by its signed webhook.
 */
export async function reportShipmentStatus(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number,
  input: UpdateShipmentStatus,
): Promise<Shipment> {
  const { row, courier, links } = await shipmentToMove(ctx, env, id);
  if (courier && courier.type !== "custom")
    throw ApiError.conflict(
      "courier_not_custom",
      `Shipment ${id} is the ${courier.code} carrier's: its status comes from the carrier.`,
    );
  return applyStatus(
    ctx,
    row,
    { to: input.status as StatusChange["to"], source: "merchant", note: input.note ?? null },
    links,
  );
}
