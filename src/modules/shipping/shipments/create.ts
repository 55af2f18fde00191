import { sql } from "drizzle-orm";
import { BatchPlan, type Handle } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { rowEvent } from "../../../core/events/outbox";
import { outcomeOf } from "../../../core/outcome";
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
  shippingConfigs,
} from "../tables";
import type { CreateShipment, Shipment } from "./schemas";
import { readShipmentDetails } from "./views";

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

/** The config's default pickup location, as a scalar subquery. */
const configDefaultSql = (ctx: ServiceContext) =>
  sql`(SELECT ${shippingConfigs.defaultPickupLocationId} FROM ${shippingConfigs} WHERE ${shippingConfigs.appId} = ${ctx.appId})`;

/** Which pickup location a shipment leaves from: the one named, the config's default, or the default location. */
const originWhere = (ctx: ServiceContext, id: number | undefined) =>
  sql`${pickupLocationRecords.live(ctx)} AND ${
    id !== undefined
      ? sql`${pickupLocations.id} = ${id}`
      : sql`(CASE WHEN ${configDefaultSql(ctx)} IS NULL THEN ${pickupLocations.isDefault} = 1
          ELSE ${pickupLocations.id} = ${configDefaultSql(ctx)} END)`
  }`;

/** The origin a shipment leaves from: the one named, the config's default, or the default location. */
export async function originOf(ctx: ServiceContext, id: number | undefined) {
  // The config and the location it may name, read together: the location's read asks the config itself.
  const [config, [loc]] = await Promise.all([
    readConfig(ctx),
    ctx.db.select().from(pickupLocations).where(originWhere(ctx, id)).limit(1),
  ]);
  const chosen = id ?? config?.defaultPickupLocationId ?? null;
  if (!loc && chosen !== null)
    throw ApiError.validation({ origin_pickup_location_id: [`No pickup location ${chosen}.`] });
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

/** The cities a carrier that addresses by name is told, as `placesOf` read them (with the other reads). */
export type CarrierCities = Awaited<ReturnType<typeof placesOf>>["cities"];

/** The two places' cities by name, for a carrier that addresses by name. */
function carrierCitiesOf(cities: CarrierCities, origin: PlaceSnapshot, destination: PlaceSnapshot) {
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
  env: ShippingEnv,
  courier: CourierRow,
  shipment: Omit<CarrierShipmentInput, "originCity" | "destinationCity">,
  destinationCityId: number,
  cities: CarrierCities,
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
  const names = carrierCitiesOf(cities, shipment.origin, shipment.destination);
  try {
    const carrier = await adapter.createShipment(env as CarrierEnv, { ...shipment, ...names });
    return { carrier, cost: carrier.costMinor ?? 0, trackingNumber: carrier.trackingNumber ?? ownTrackingNumber() };
  } catch (error) {
    if (error instanceof CarrierError)
      throw ApiError.conflict("carrier_error", `The ${error.carrier} carrier refused the shipment: ${error.message}`);
    throw error;
  }
}

/** A new shipment, forward or return, as its create knows it before the booking and the batch. */
export type NewShipment = Pick<
  typeof shipments.$inferInsert,
  | "orderId"
  | "courierId"
  | "service"
  | "direction"
  | "returnOfId"
  | "returnStatus"
  | "originPickupLocationId"
  | "origin"
  | "destination"
  | "packages"
  | "weightG"
  | "codAmountMinor"
  | "currency"
  | "notes"
>;

/**
 * The statements of a new shipment in its plan: its row (from what the create knows and what its
 * booking gave), its fulfillment lines and its first history row; the handle is the row's.
 */
export function insertShipment(
  plan: BatchPlan,
  ctx: ServiceContext,
  shipment: NewShipment,
  booking: Booking,
  lines: Pick<typeof shipmentFulfillments.$inferInsert, "fulfillmentId" | "orderItemId" | "qty">[],
  at: string,
): Handle {
  const { carrier, cost, trackingNumber } = booking;
  const created = plan.insert(
    "shipment",
    ctx.db.insert(shipments).values({
      ...shipment,
      appId: ctx.appId,
      costMinor: cost,
      carrierReference: carrier?.carrierReference ?? null,
      trackingNumber,
      trackingUrl: carrier?.trackingUrl ?? null,
      createdAt: at,
      modifiedAt: at,
    }),
  );
  plan.add(
    ctx.db.insert(shipmentFulfillments).values(lines.map((l) => ({ ...l, shipmentId: created.id, appId: ctx.appId }))),
    ctx.db
      .insert(shipmentStatusHistory)
      .values({ appId: ctx.appId, shipmentId: created.id, status: "created", at, source: "merchant" }),
  );
  return created;
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

/**
 * The cities of the fulfillments' delivery addresses and of the origin `originWhere` picks, as a
 * subquery: the carrier's names for them are read with the other reads, not after them.
 */
const shipmentCitiesSql = (ctx: ServiceContext, fulfillmentIds: number[], originId: number | undefined) =>
  sql`(SELECT ${pickupLocations.cityId} FROM ${pickupLocations} WHERE ${originWhere(ctx, originId)}
    UNION SELECT CAST(json_extract(f.location, '$.city_id') AS INTEGER) FROM fulfillments f
      WHERE ${liveRow(ctx.appId, "f")} AND f.id IN (SELECT value FROM json_each(${JSON.stringify(fulfillmentIds)})))`;

/**
 * MH4: a forward shipment for fulfillments of one order, with a courier. Every read goes at once
 * (fulfillments, courier, config and origin, cities, the fulfillments' statuses to move), then the
 * courier's booking (an integrated carrier's HTTP call), then one guarded batch that reads the
 * shipment back.
 */
export async function createShipment(ctx: ServiceContext, env: ShippingEnv, input: CreateShipment): Promise<Shipment> {
  const at = nowIso();
  const [fs, courierOf, originRead, places, moved] = await Promise.all([
    fulfillmentsForShipment(ctx, input.fulfillment_ids),
    outcomeOf(findCourier(ctx, env, input.courier_id)),
    outcomeOf(originOf(ctx, input.origin_pickup_location_id)),
    placesOf(ctx, shipmentCitiesSql(ctx, input.fulfillment_ids, input.origin_pickup_location_id), []),
    fulfillmentShipmentStatements(ctx, { fulfillmentIds: input.fulfillment_ids, status: "processing", at }),
  ]);
  checkShippable(fs, input.fulfillment_ids);
  const courier = courierOf();
  const { loc, config } = originRead();
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
  const forward = {
    orderId: order.id,
    service,
    direction: "forward" as const,
    origin,
    destination,
    packages,
    weightG,
    codAmountMinor: cod,
    currency: order.currency,
  };
  const booking = await bookShipment(env, courier, { ...forward, appId: ctx.appId }, dest.cityId, places.cities);
  const plan = new BatchPlan(ctx.db)
    .guard(noneShipped(ctx, input.fulfillment_ids), "fulfillments already shipped")
    // Read open above; cancelled (or moved on) since, they are not shipped.
    .guard(fulfillmentsOpenSql(ctx, input.fulfillment_ids), "fulfillments no longer open");
  const shipment = insertShipment(
    plan,
    ctx,
    { ...forward, courierId: courier.id, originPickupLocationId: loc.id, notes: input.notes ?? null },
    booking,
    fs.map((f) => ({ fulfillmentId: f.id, orderItemId: f.order_item_id, qty: f.qty })),
    at,
  );
  // No status here: this call reads nothing; `moved` read the statuses with the other reads.
  const link = await fulfillmentShipmentStatements(ctx, {
    fulfillmentIds: input.fulfillment_ids,
    shipmentId: shipment.id,
    trackingNumber: booking.trackingNumber,
    at,
  });
  plan.add(...link.statements, ...moved.statements);
  const details = readShipmentDetails(plan, ctx, shipment.id);
  plan.event(
    rowEvent(
      "shipment.created",
      shipments,
      sql`id = ${shipment.id}`,
      sql`json_object('id', id, 'order_id', order_id, 'courier_id', courier_id, 'direction', direction,
        'status', status, 'fulfillment_ids', json(${JSON.stringify(input.fulfillment_ids)}))`,
    ),
    ...link.events,
    ...moved.events,
  );
  const result = await plan.run(
    ctx.events,
    ApiError.conflict(
      "fulfillment_not_shippable",
      "A fulfillment was shipped or cancelled by another request meanwhile.",
    ),
  );
  return details(result, result.id(shipment));
}
