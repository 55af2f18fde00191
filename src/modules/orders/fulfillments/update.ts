import { sql } from "drizzle-orm";
import { batchStatement } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { getLocation } from "../../customers";
import { FORWARD_PATH, fulfillmentMachine, OPEN_STATES } from "./machine";
import type { RawRow } from "./rows";
import type { Fulfillment, UpdateFulfillment } from "./schemas";
import { findFulfillment, fulfillmentDetails, fulfillmentDetailsStatement } from "./service";
import { orderFulfillmentStatusStatement } from "./statements";
import { type FulfillmentState, type FulfillmentType, fulfillments } from "./tables";

type Row = RawRow & { status: FulfillmentState; type: FulfillmentType; order_id: number; order_item_id: number };

/** The columns a move to `to` stamps besides the status. */
export function stampsOf(to: FulfillmentState, at: string) {
  if (to === "shipped") return { fulfilledAt: at };
  if (to === "delivered") return { deliveredAt: at };
  if (to === "cancelled") return { cancelledAt: at };
  return {};
}

/**
 * Update Fulfillment (the merchant's, and the customer's narrower one): the schedule, the address
 * (copied from one of the order's customer's locations), notes and, for the merchant, the status
 * through the machine. The UPDATE repeats the status it read, so a concurrent move makes it write
 * nothing: it is then tried once more against the new state. Emits `fulfillment.updated` (the fields
 * given) and `fulfillment.status_changed`, and refreshes the order's `fulfillment_status`.
 */
export async function updateFulfillment(
  ctx: ServiceContext,
  id: number,
  input: UpdateFulfillment,
  customerId?: number,
): Promise<Fulfillment> {
  for (let attempt = 0; attempt < 2; attempt++) {
    // The customer's own location is read with the fulfillment; the merchant's names the order's
    // customer, whom the fulfillment's row tells: read after it.
    const [found, mine] = await Promise.all([
      findFulfillment(ctx, id, customerId),
      customerId !== undefined && input.location_id !== undefined
        ? getLocation(ctx, customerId, input.location_id).then(
            (location) => ({ location }),
            (error: unknown) => ({ error }),
          )
        : undefined,
    ]);
    const row = found as Row;
    if (customerId !== undefined && !OPEN_STATES.includes(row.status))
      throw ApiError.conflict(
        "fulfillment_locked",
        `Fulfillment ${id} is ${row.status}: its date, time, location and notes can no longer be changed.`,
        { status: row.status },
      );
    const to = input.status !== undefined && input.status !== row.status ? input.status : undefined;
    if (to) fulfillmentMachine.next(row.status, to, `Fulfillment ${id}`);
    // A cancelled line must not travel: its shipment (only one before pickup can hold a line that
    // still cancels) would keep offering a label and a delivery of it.
    if (to === "cancelled" && row.shipment_id !== null) throw inShipment(id, row.shipment_id);
    if (mine && "error" in mine) throw mine.error;
    const location =
      input.location_id === undefined
        ? undefined
        : mine
          ? mine.location
          : row.customer_id === null
            ? (() => {
                throw ApiError.notFound("customer_location_not_found", `Location ${input.location_id}`);
              })()
            : await getLocation(ctx, row.customer_id, input.location_id);
    const changes = (["date", "time", "location_id", "notes"] as const).filter((k) => input[k] !== undefined);
    if (!to && changes.length === 0) return fulfillmentDetails(ctx, id, customerId);

    const at = nowIso();
    const set = {
      modifiedAt: at,
      ...(input.date !== undefined && { date: input.date }),
      ...(input.time !== undefined && { time: input.time }),
      ...(input.notes !== undefined && { notes: input.notes }),
      ...(location && { location: location as Record<string, unknown>, locationId: location.id }),
      ...(to && { status: to, ...stampsOf(to, at) }),
    };
    const ref = {
      id,
      order_id: row.order_id,
      order_item_id: row.order_item_id,
      type: row.type,
      status: to ?? row.status,
    };
    const events = [
      ...(changes.length
        ? [
            newEvent(ctx.appId, "fulfillment.updated", {
              ...ref,
              changes: changes.map((c) => (c === "location_id" ? "location" : c)),
            }),
          ]
        : []),
      ...(to ? [newEvent(ctx.appId, "fulfillment.status_changed", { ...ref, previous_status: row.status })] : []),
    ];
    // Cancelling also repeats "in no shipment", so a shipment created meanwhile makes it write nothing.
    const same = sql`${fulfillments.id} = ${id} AND ${liveRow(ctx.appId, fulfillments)}
      AND ${fulfillments.status} = ${row.status}
      ${to === "cancelled" ? sql`AND ${fulfillments.shipmentId} IS NULL` : sql``}`;
    // The answer is read at the batch's end.
    const details = fulfillmentDetailsStatement(ctx, id, customerId);
    const { results, applied } = await emit(
      ctx.db,
      ctx.events,
      [
        ctx.db.update(fulfillments).set(set).where(same),
        ...(to ? [orderFulfillmentStatusStatement(ctx, sql`${row.order_id}`, at)] : []),
      ],
      events,
      {
        guard: sql`EXISTS (SELECT 1 FROM ${fulfillments} WHERE ${same})`,
        after: [batchStatement(ctx.db, details.query)],
      },
    );
    if (applied) return details.answer((results.at(-1) as D1Result<Record<string, unknown>>).results);
  }
  throw ApiError.conflict("concurrent_update", `Fulfillment ${id} changed while updating it; retry.`);
}

/** 409 `fulfillment_in_shipment`: what to do first, and the shipment's id for a client to act on. */
export const inShipment = (id: number, shipmentId: number) =>
  ApiError.conflict(
    "fulfillment_in_shipment",
    `Fulfillment ${id} is in shipment ${shipmentId}, not picked up yet: cancel the shipment first ` +
      `(POST /order/v1/merchant/shipments/${shipmentId}/cancel/), then the fulfillment; ` +
      "ship the order's other lines in a new shipment.",
    { shipment_id: shipmentId },
  );

/** The statuses after `from` on the forward path up to `to` (empty when `from` is at or past it, or cancelled). */
export function forwardMove(from: FulfillmentState, to: FulfillmentState): boolean {
  const a = FORWARD_PATH.indexOf(from);
  const b = FORWARD_PATH.indexOf(to);
  return a >= 0 && b > a;
}
