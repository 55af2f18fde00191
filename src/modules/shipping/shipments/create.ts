import { sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { rowEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { placesOf } from "../../customers";
import {
  type FulfillmentForShipment,
  fulfillmentShipmentStatements,
  fulfillmentsForShipment,
  fulfillmentsOpenSql,
} from "../../orders";
import { carrierOf, type ShippingEnv } from "../carriers";
import {
  type CarrierCity,
  type CarrierEnv,
  CarrierError,
  type CarrierShipment,
  type CarrierShipmentInput,
} from "../carriers/adapter";
import { FALLBACK_PACKAGE, readConfig } from "../config/service";
import { customPrice, unavailableReason } from "../couriers/pricing";
import { type CourierRow, findCourier } from "../couriers/service";
import { type PackageInput, toDims } from "../fields";
import { pickupLocationRecords } from "../pickup-locations/service";
import {
  type PackageDims,
  type PlaceSnapshot,
  pickupLocations,
  shipmentFulfillments,
  shipmentStatusHistory,
  shipments,
} from "../tables";
import type { CreateShipment, Shipment } from "./schemas";
import { shipmentDetails } from "./views";

/** Where the shipment goes: the fulfillments' delivery address, as the order kept it. */
function destinationOf(f: FulfillmentForShipment): PlaceSnapshot {
  const l = (f.location ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && v !== "" ? Number(v) : null);
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    location_id: f.location_id,
    name: f.customer_name ?? str(l.name_en),
    address1: str(l.address1) ?? str(l.formatted_address),
    city_id: num(l.city_id),
    district_id: num(l.district_id),
    lat: num(l.latitude ?? l.lat),
    lng: num(l.longitude ?? l.lng),
    phone: f.customer_phone,
  };
}

export const placeOfPickup = (p: typeof pickupLocations.$inferSelect): PlaceSnapshot => ({
  pickup_location_id: p.id,
  name: p.nameEn,
  address1: p.address1,
  city_id: p.cityId,
  district_id: p.districtId,
  lat: p.lat,
  lng: p.lng,
  phone: p.phone,
});

/** The origin a shipment leaves from: the one named, the config's default, or the default location. */
export async function originOf(ctx: ServiceContext, id: number | undefined) {
  const config = await readConfig(ctx);
  const chosen = id ?? config?.defaultPickupLocationId ?? null;
  if (chosen !== null) {
    const loc = await pickupLocationRecords.get(ctx, chosen);
    if (!loc) throw ApiError.validation({ origin_pickup_location_id: [`No pickup location ${chosen}.`] });
    return { loc, config };
  }
  const [loc] = await ctx.db
    .select()
    .from(pickupLocations)
    .where(sql`${pickupLocationRecords.live(ctx)} AND is_default = 1`)
    .limit(1);
  if (!loc)
    throw ApiError.validation({ origin_pickup_location_id: ["Required: the store has no default pickup location."] });
  return { loc, config };
}

export function serviceOf(courier: CourierRow, wanted: string | undefined): string {
  if (wanted === undefined) return courier.services[0]?.code ?? "standard";
  if (!courier.services.some((s) => s.code === wanted))
    throw ApiError.validation({
      service: [`Courier ${courier.id} offers ${courier.services.map((s) => s.code).join(", ")}.`],
    });
  return wanted;
}

export const packagesOf = (
  given: PackageInput[] | undefined,
  defaults: PackageDims | null | undefined,
): PackageDims[] => (given ? given.map(toDims) : [defaults ?? FALLBACK_PACKAGE]);

/** A tracking number for a shipment no carrier numbers (a custom courier's): 14 digits. */
export function ownTrackingNumber(): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  return `TR${String(digits[0]! % 1e7).padStart(7, "0")}${String(digits[1]! % 1e7).padStart(7, "0")}`;
}

/** The two places' cities by name, for a carrier that addresses by name (one read for both). */
export async function carrierCitiesOf(ctx: ServiceContext, origin: PlaceSnapshot, destination: PlaceSnapshot) {
  const ids = [origin.city_id, destination.city_id].filter((v): v is number => v !== null);
  const { cities } = await placesOf(ctx, ids, []);
  const cityOf = (id: number | null): CarrierCity | null => {
    const c = id === null ? undefined : cities.get(id);
    return c ? { name_en: c.name_en, country_code: c.country_code } : null;
  };
  return { originCity: cityOf(origin.city_id), destinationCity: cityOf(destination.city_id) };
}

/** What booking a shipment with its courier gives: its cost, its tracking number, and an integrated carrier's record. */
export type Booking = { carrier: CarrierShipment | null; cost: number; trackingNumber: string };

/**
 * Books a shipment (forward or return) with its courier: a custom courier's price from its rules
 * for the destination city (409 when no rule applies), or the integrated carrier's own creation,
 * whose refusal is a 409 with the carrier's words.
 */
export async function bookShipment(
  ctx: ServiceContext,
  env: ShippingEnv,
  courier: CourierRow,
  shipment: Omit<CarrierShipmentInput, "originCity" | "destinationCity">,
  destinationCityId: number,
): Promise<Booking> {
  if (courier.type === "custom") {
    const cost = customPrice(courier, destinationCityId, shipment.weightG);
    if (cost === null)
      throw ApiError.conflict(
        "courier_unavailable",
        `No price rule of courier ${courier.id} for ${shipment.weightG / 1000} kg in city ${destinationCityId}.`,
      );
    return { carrier: null, cost, trackingNumber: ownTrackingNumber() };
  }
  const adapter = carrierOf(env, courier.code);
  if (!adapter) throw ApiError.conflict("courier_unavailable", `Courier ${courier.id}'s carrier is not offered here.`);
  const names = await carrierCitiesOf(ctx, shipment.origin, shipment.destination);
  try {
    const carrier = await adapter.createShipment(env as CarrierEnv, { ...shipment, ...names });
    return { carrier, cost: carrier.costMinor ?? 0, trackingNumber: carrier.trackingNumber ?? ownTrackingNumber() };
  } catch (error) {
    if (error instanceof CarrierError)
      throw ApiError.conflict("carrier_error", `The ${error.carrier} carrier refused the shipment: ${error.message}`);
    throw error;
  }
}

/** A shipment just created, found by its tracking number (unique per store), as its details. */
export async function createdShipment(ctx: ServiceContext, trackingNumber: string): Promise<Shipment> {
  const [row] = await ctx.db
    .select({ id: shipments.id })
    .from(shipments)
    .where(sql`${shipments.appId} = ${ctx.appId} AND ${shipments.trackingNumber} = ${trackingNumber}`)
    .limit(1);
  return shipmentDetails(ctx, row!.id);
}

function checkShippable(fs: FulfillmentForShipment[], ids: number[]) {
  const missing = ids.filter((id) => !fs.some((f) => f.id === id));
  if (missing.length) throw ApiError.validation({ fulfillment_ids: [`No fulfillment ${missing.join(", ")}.`] });
  const orderIds = new Set(fs.map((f) => f.order_id));
  if (orderIds.size > 1)
    throw ApiError.conflict(
      "fulfillment_not_shippable",
      `The fulfillments are of orders ${[...orderIds].join(", ")}: a shipment carries one order's.`,
    );
  const refused = fs.filter(
    (f) => f.type !== "delivery" || (f.status !== "pending" && f.status !== "processing") || f.shipment_id !== null,
  );
  if (refused.length)
    throw ApiError.conflict(
      "fulfillment_not_shippable",
      "Only delivery fulfillments that are pending or processing and in no shipment can be shipped.",
      { fulfillment_ids: refused.map((f) => f.id) },
    );
  if (fs[0]!.order.status === "cancelled")
    throw ApiError.conflict("fulfillment_not_shippable", `Order ${fs[0]!.order_id} is cancelled.`);
}

/** No live forward shipment holds any of the fulfillments (two creates racing cannot both ship one). */
const noneShipped = (ctx: ServiceContext, ids: number[]) =>
  sql`NOT EXISTS (SELECT 1 FROM ${shipmentFulfillments} sf JOIN ${shipments} s ON s.id = sf.shipment_id
    WHERE sf.app_id = ${ctx.appId} AND s.direction = 'forward' AND s.status <> 'cancelled'
      AND sf.fulfillment_id IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`;

/** MH4: a forward shipment for fulfillments of one order, with a courier. */
export async function createShipment(ctx: ServiceContext, env: ShippingEnv, input: CreateShipment): Promise<Shipment> {
  const fs = await fulfillmentsForShipment(ctx, input.fulfillment_ids);
  checkShippable(fs, input.fulfillment_ids);
  const courier = await findCourier(ctx, env, input.courier_id);
  const { loc, config } = await originOf(ctx, input.origin_pickup_location_id);
  const order = fs[0]!.order;
  const destination = destinationOf(fs[0]!);
  const codOwed = order.payment_provider === "cash_on_delivery" && order.payment_status !== "paid";
  const cod = input.cod_amount ?? (codOwed ? order.total_minor : 0);
  if (destination.city_id === null)
    throw ApiError.conflict("fulfillment_not_shippable", "The fulfillments have no delivery address with a city.");
  const dest = { cityId: destination.city_id, districtId: destination.district_id };
  const reason = unavailableReason(courier, config?.enabledCourierIds ?? null, dest, cod);
  if (reason) throw ApiError.conflict("courier_unavailable", reason, { courier_id: courier.id });
  const service = serviceOf(courier, input.service);
  const packages = packagesOf(input.packages, config?.packageDefaults);
  const weightG = packages.reduce((s, p) => s + p.weight_g, 0);
  const origin = placeOfPickup(loc);

  const { carrier, cost, trackingNumber } = await bookShipment(
    ctx,
    env,
    courier,
    {
      appId: ctx.appId,
      orderId: order.id,
      service,
      direction: "forward",
      origin,
      destination,
      packages,
      weightG,
      codAmountMinor: cod,
      currency: order.currency,
    },
    dest.cityId,
  );
  const at = nowIso();
  const plan = new BatchPlan(ctx.db)
    .guard(noneShipped(ctx, input.fulfillment_ids), "fulfillments already shipped")
    // Read open above; cancelled (or moved on) since, they are not shipped.
    .guard(fulfillmentsOpenSql(ctx, input.fulfillment_ids), "fulfillments no longer open");
  const shipment = plan.insert(
    "shipment",
    ctx.db.insert(shipments).values({
      appId: ctx.appId,
      orderId: order.id,
      courierId: courier.id,
      service,
      direction: "forward",
      originPickupLocationId: loc.id,
      origin,
      destination,
      packages,
      weightG,
      codAmountMinor: cod,
      costMinor: cost,
      currency: order.currency,
      carrierReference: carrier?.carrierReference ?? null,
      trackingNumber,
      trackingUrl: carrier?.trackingUrl ?? null,
      notes: input.notes ?? null,
      createdAt: at,
      modifiedAt: at,
    }),
  );
  const link = await fulfillmentShipmentStatements(ctx, {
    fulfillmentIds: input.fulfillment_ids,
    shipmentId: shipment.id,
    trackingNumber,
    status: "processing",
    at,
  });
  plan.add(
    ctx.db.insert(shipmentFulfillments).values(
      fs.map((f) => ({
        shipmentId: shipment.id,
        appId: ctx.appId,
        fulfillmentId: f.id,
        orderItemId: f.order_item_id,
        qty: f.qty,
      })),
    ),
    ctx.db
      .insert(shipmentStatusHistory)
      .values({ appId: ctx.appId, shipmentId: shipment.id, status: "created", at, source: "merchant" }),
    ...link.statements,
  );
  plan.event(
    rowEvent(
      "shipment.created",
      shipments,
      sql`id = ${shipment.id}`,
      sql`json_object('id', id, 'order_id', order_id, 'courier_id', courier_id, 'direction', direction,
        'status', status, 'fulfillment_ids', json(${JSON.stringify(input.fulfillment_ids)}))`,
    ),
    ...link.events,
  );
  await plan.run(
    ctx.events,
    ApiError.conflict(
      "fulfillment_not_shippable",
      "A fulfillment was shipped or cancelled by another request meanwhile.",
    ),
  );
  return createdShipment(ctx, trackingNumber);
}
