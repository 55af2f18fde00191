import { and, eq, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { rowEvent } from "../../../core/events/outbox";
import { outcomeOf } from "../../../core/outcome";
import { nowIso } from "../../../core/time";
import { placesOf } from "../../customers";
import type { ShippingEnv } from "../carriers";
import { readConfig } from "../config/service";
import { unavailableReason } from "../couriers/pricing";
import { courierRow } from "../couriers/service";
import { shipmentFulfillments, shipments } from "../tables";
import { bookShipment, insertShipment, packagesOf, serviceOf } from "./create";
import type { CreateReturnShipment, Shipment } from "./schemas";
import { findShipment, readShipmentDetails } from "./views";

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
  const forwardSql = sql`SELECT ${shipments.id} FROM ${shipments} WHERE ${and(live(shipments, ctx.appId), eq(shipments.id, id))}`;
  // Every read at once: the courier (the forward shipment's unless named) and the cities by subqueries of the shipment.
  const [fwdOf, links, named, config, places] = await Promise.all([
    outcomeOf(findShipment(ctx, id)),
    ctx.db.select().from(shipmentFulfillments).where(sql`${shipmentFulfillments.shipmentId} = ${id}`),
    courierRow(
      ctx,
      env,
      input.courier_id ?? sql`(SELECT ${shipments.courierId} FROM ${shipments} WHERE id = (${forwardSql}))`,
    ),
    readConfig(ctx),
    placesOf(
      ctx,
      sql`(SELECT CAST(json_extract(value, '$.city_id') AS INTEGER) FROM ${shipments},
        json_each(json_array(${shipments.origin}, ${shipments.destination})) WHERE ${shipments.id} = (${forwardSql}))`,
      [],
    ),
  ]);
  const fwd = fwdOf();
  if (fwd.direction !== "forward" || fwd.status !== "delivered")
    throw ApiError.conflict(
      "shipment_not_returnable",
      `Shipment ${id} is a ${fwd.direction} shipment, ${fwd.status}: only a delivered forward shipment is returned.`,
    );
  const ids = input.fulfillment_ids ?? links.map((l) => l.fulfillmentId);
  const foreign = ids.filter((f) => !links.some((l) => l.fulfillmentId === f));
  if (foreign.length)
    throw ApiError.validation({ fulfillment_ids: [`Fulfillment ${foreign.join(", ")} is not in shipment ${id}.`] });
  if (!named) throw ApiError.notFound("courier_not_found", `Courier ${input.courier_id ?? fwd.courierId}`);
  const courier = named;
  // A return goes back to the forward shipment's origin: that city must be covered.
  const dest = { cityId: fwd.origin.city_id!, districtId: fwd.origin.district_id };
  const reason = unavailableReason(courier, config?.enabledCourierIds ?? null, dest, 0);
  if (reason) throw ApiError.conflict("courier_unavailable", reason, { courier_id: courier.id });
  const service = serviceOf(courier, input.service);
  const packages = input.packages ? packagesOf(input.packages, null) : fwd.packages;
  const weightG = packages.reduce((s, p) => s + p.weight_g, 0);
  const back = {
    orderId: fwd.orderId,
    service,
    direction: "return" as const,
    origin: fwd.destination,
    destination: fwd.origin,
    packages,
    weightG,
    codAmountMinor: 0,
    currency: fwd.currency,
  };
  const booking = await bookShipment(env, courier, { ...back, appId: ctx.appId }, dest.cityId, places.cities);
  const at = nowIso();
  const plan = new BatchPlan(ctx.db).guard(noneReturning(ctx, id, ids), "fulfillments already returning");
  const shipment = insertShipment(
    plan,
    ctx,
    {
      ...back,
      courierId: courier.id,
      returnOfId: id,
      returnStatus: "requested",
      originPickupLocationId: null,
      notes: input.notes ?? null,
    },
    booking,
    links
      .filter((l) => ids.includes(l.fulfillmentId))
      .map((l) => ({ fulfillmentId: l.fulfillmentId, orderItemId: l.orderItemId, qty: l.qty })),
    at,
  );
  const details = readShipmentDetails(plan, ctx, shipment.id);
  plan.event(
    rowEvent(
      "shipment.return_created",
      shipments,
      sql`id = ${shipment.id}`,
      sql`json_object('id', id, 'order_id', order_id, 'courier_id', courier_id, 'direction', direction,
        'status', status, 'return_of_id', return_of_id, 'fulfillment_ids', json(${JSON.stringify(ids)}))`,
    ),
  );
  const result = await plan.run(
    ctx.events,
    ApiError.conflict("shipment_not_returnable", `A fulfillment of shipment ${id} is already being returned.`),
  );
  return details(result, result.id(shipment));
}
