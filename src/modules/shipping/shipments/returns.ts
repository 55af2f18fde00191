import { sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { rowEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import type { ShippingEnv } from "../carriers";
import { readConfig } from "../config/service";
import { unavailableReason } from "../couriers/pricing";
import { findCourier } from "../couriers/service";
import { shipmentFulfillments, shipmentStatusHistory, shipments } from "../tables";
import { bookShipment, createdShipment, packagesOf, serviceOf } from "./create";
import type { CreateReturnShipment, Shipment } from "./schemas";
import { findShipment } from "./views";

/** No live return (not cancelled) already brings back any of the fulfillments. */
const noneReturning = (ctx: ServiceContext, forwardId: number, ids: number[]) =>
  sql`NOT EXISTS (SELECT 1 FROM ${shipmentFulfillments} sf JOIN ${shipments} s ON s.id = sf.shipment_id
    WHERE sf.app_id = ${ctx.appId} AND s.return_of_id = ${forwardId} AND s.status <> 'cancelled'
      AND sf.fulfillment_id IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`;

/**
 * MH6: a return shipment for fulfillments of a delivered forward shipment: the other direction
 * (from the customer's address to the forward shipment's origin), linked by `return_of_id`, its
 * request `requested` until it is delivered back (`received`: the lines may be refunded).
 */
export async function createReturnShipment(
  ctx: ServiceContext,
  env: ShippingEnv,
  id: number,
  input: CreateReturnShipment,
): Promise<Shipment> {
  const fwd = await findShipment(ctx, id);
  if (fwd.direction !== "forward" || fwd.status !== "delivered")
    throw ApiError.conflict(
      "shipment_not_returnable",
      `Shipment ${id} is a ${fwd.direction} shipment, ${fwd.status}: only a delivered forward shipment is returned.`,
    );
  const links = await ctx.db.select().from(shipmentFulfillments).where(sql`${shipmentFulfillments.shipmentId} = ${id}`);
  const ids = input.fulfillment_ids ?? links.map((l) => l.fulfillmentId);
  const foreign = ids.filter((f) => !links.some((l) => l.fulfillmentId === f));
  if (foreign.length)
    throw ApiError.validation({ fulfillment_ids: [`Fulfillment ${foreign.join(", ")} is not in shipment ${id}.`] });
  const courier = await findCourier(ctx, env, input.courier_id ?? fwd.courierId);
  const config = await readConfig(ctx);
  // A return goes back to the forward shipment's origin: that city must be covered.
  const dest = { cityId: fwd.origin.city_id!, districtId: fwd.origin.district_id };
  const reason = unavailableReason(courier, config?.enabledCourierIds ?? null, dest, 0);
  if (reason) throw ApiError.conflict("courier_unavailable", reason, { courier_id: courier.id });
  const service = serviceOf(courier, input.service);
  const packages = input.packages ? packagesOf(input.packages, null) : fwd.packages;
  const weightG = packages.reduce((s, p) => s + p.weight_g, 0);
  const { carrier, cost, trackingNumber } = await bookShipment(
    ctx,
    env,
    courier,
    {
      appId: ctx.appId,
      orderId: fwd.orderId,
      service,
      direction: "return",
      origin: fwd.destination,
      destination: fwd.origin,
      packages,
      weightG,
      codAmountMinor: 0,
      currency: fwd.currency,
    },
    dest.cityId,
  );
  const at = nowIso();
  const plan = new BatchPlan(ctx.db).guard(noneReturning(ctx, id, ids), "fulfillments already returning");
  const shipment = plan.insert(
    "shipment",
    ctx.db.insert(shipments).values({
      appId: ctx.appId,
      orderId: fwd.orderId,
      courierId: courier.id,
      service,
      direction: "return",
      returnOfId: id,
      returnStatus: "requested",
      originPickupLocationId: null,
      origin: fwd.destination,
      destination: fwd.origin,
      packages,
      weightG,
      codAmountMinor: 0,
      costMinor: cost,
      currency: fwd.currency,
      carrierReference: carrier?.carrierReference ?? null,
      trackingNumber,
      trackingUrl: carrier?.trackingUrl ?? null,
      notes: input.notes ?? null,
      createdAt: at,
      modifiedAt: at,
    }),
  );
  plan.add(
    ctx.db.insert(shipmentFulfillments).values(
      links
        .filter((l) => ids.includes(l.fulfillmentId))
        .map((l) => ({
          shipmentId: shipment.id,
          appId: ctx.appId,
          fulfillmentId: l.fulfillmentId,
          orderItemId: l.orderItemId,
          qty: l.qty,
        })),
    ),
    ctx.db
      .insert(shipmentStatusHistory)
      .values({ appId: ctx.appId, shipmentId: shipment.id, status: "created", at, source: "merchant" }),
  );
  plan.event(
    rowEvent(
      "shipment.return_created",
      shipments,
      sql`id = ${shipment.id}`,
      sql`json_object('id', id, 'order_id', order_id, 'courier_id', courier_id, 'direction', direction,
        'status', status, 'return_of_id', return_of_id, 'fulfillment_ids', json(${JSON.stringify(ids)}))`,
    ),
  );
  await plan.run(
    ctx.events,
    ApiError.conflict("shipment_not_returnable", `A fulfillment of shipment ${id} is already being returned.`),
  );
  return createdShipment(ctx, trackingNumber);
}
