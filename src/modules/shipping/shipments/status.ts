import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, literalEvent, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import { fulfillmentShipmentStatements } from "../../orders";
import { carrierOf, type ShippingEnv } from "../carriers";
import { type CarrierEnv, CarrierError } from "../carriers/adapter";
import { findCourier } from "../couriers/service";
import { voidLabelStatements } from "../labels/void";
import {
  type ShipmentStatus,
  type STATUS_SOURCES,
  shipmentFulfillments,
  shipmentStatusHistory,
  shipments,
} from "../tables";
import { ACTION_TO, shipmentMachine } from "./machine";
import type { Shipment, UpdateShipmentStatus } from "./schemas";
import { findShipment, type ShipmentRow, shipmentDetails } from "./views";

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
 * The statements and events of one status change of `row` (already checked against the machine):
 * the UPDATE guarded on the status it read, the history row, what it does to the fulfillments (a
 * forward shipment ships them at pickup, delivers them at delivery, lets them go when cancelled) and
 * to a return's request (received at delivery, canceled at cancel). For labels/ too: purchasing a
 * label is `{ to: "label_purchased", set: { labelUrl, costMinor } }`.
 */
export async function statusChangeStatements(
  ctx: ServiceContext,
  row: ShipmentRow,
  change: StatusChange,
): Promise<{ statements: BatchItem<"sqlite">[]; events: SQL[] }> {
  const to = shipmentMachine.next(row.status, ACTION_TO[change.to], `Shipment ${row.id}`);
  const at = change.at ?? nowIso();
  const guard = and(eq(shipments.appId, ctx.appId), eq(shipments.id, row.id), eq(shipments.status, row.status))!;
  const forward = row.direction === "forward";
  // Only these moves change the shipment's fulfillments: the others (a label bought) read no links.
  const movesFulfillments = forward
    ? to === "picked_up" || to === "delivered" || to === "cancelled"
    : to === "delivered";
  const links = movesFulfillments
    ? await ctx.db
        .select({ id: shipmentFulfillments.fulfillmentId })
        .from(shipmentFulfillments)
        .where(eq(shipmentFulfillments.shipmentId, row.id))
    : [];
  const fulfillmentIds = links.map((l) => l.id);
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
    fulfillment && "returned" in fulfillment
      ? [...new Set([...fulfillmentIds, ...(await receivedReturnFulfillments(ctx, row.orderId))])]
      : fulfillmentIds;
  const linked = fulfillment
    ? await fulfillmentShipmentStatements(ctx, { fulfillmentIds: returnedIds, at, ...fulfillment })
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

/** The fulfillments of the order's return shipments already received. */
async function receivedReturnFulfillments(ctx: ServiceContext, orderId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: shipmentFulfillments.fulfillmentId })
    .from(shipmentFulfillments)
    .innerJoin(shipments, eq(shipments.id, shipmentFulfillments.shipmentId))
    .where(
      and(
        eq(shipments.appId, ctx.appId),
        eq(shipments.orderId, orderId),
        eq(shipments.direction, "return"),
        eq(shipments.returnStatus, "received"),
      ),
    );
  return rows.map((r) => r.id);
}

/** Applies one change; a race lost to another change is told as the machine tells it, from the new status. */
export async function applyStatus(ctx: ServiceContext, row: ShipmentRow, change: StatusChange): Promise<void> {
  const { statements, events } = await statusChangeStatements(ctx, row, change);
  try {
    await emit(ctx.db, ctx.events, statements, unionEvents(events));
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    const now = await findShipment(ctx, row.id);
    shipmentMachine.next(now.status, ACTION_TO[change.to], `Shipment ${row.id}`);
    throw ApiError.conflict("concurrent_update", `Shipment ${row.id} changed meanwhile; retry.`);
  }
}

/**
 * MH5: cancels before pickup (409 after); an integrated carrier is told first. A purchased label is
 * voided in the same batch, and refunded to the store wallet where its charge comes back.
 */
export async function cancelShipment(ctx: ServiceContext, env: ShippingEnv, id: number): Promise<Shipment> {
  const row = await findShipment(ctx, id);
  shipmentMachine.next(row.status, "cancel", `Shipment ${id}`);
  const courier = await findCourier(ctx, env, row.courierId).catch(() => null);
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
  await applyStatus(ctx, row, { to: "cancelled", source: "merchant", refundLabel });
  return shipmentDetails(ctx, id);
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
  const row = await findShipment(ctx, id);
  const courier = await findCourier(ctx, env, row.courierId).catch(() => null);
  if (courier && courier.type !== "custom")
    throw ApiError.conflict(
      "courier_not_custom",
      `Shipment ${id} is the ${courier.code} carrier's: its status comes from the carrier.`,
    );
  await applyStatus(ctx, row, { to: input.status as StatusChange["to"], source: "merchant", note: input.note ?? null });
  return shipmentDetails(ctx, id);
}
