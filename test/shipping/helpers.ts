import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { customerLocations } from "../../src/modules/customers/tables";
import { signFakeCallback } from "../../src/modules/shipping/carriers/fake";
import { deliveryItem, paidOrderOf } from "../fulfillments/helpers";
import { db, shardFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { type Store, shopperOf, storeFor } from "../orders/helpers";

export const SHIP = "/order/v1/merchant/shipments/";
export const COURIERS = `${SHIP}couriers/`;
export const PICKUPS = `${SHIP}pickup-locations/`;
export const CONFIG = `${SHIP}config/`;
export const WEBHOOK = "/order/v1/shipments/webhooks/fake/";

export const RIYADH = 1;
export const JEDDAH = 2;
export const OLAYA = 1; // a district of Riyadh
export const MALQA = 2; // another

/** A custom courier body covering Riyadh (and Jeddah), priced by weight. */
export const courierBody = (extra: Record<string, unknown> = {}) => ({
  name_en: "Our Vans",
  name_ar: "سياراتنا",
  cod_supported: true,
  coverage: { cities: [RIYADH, JEDDAH], districts: [] },
  price_rules: [
    { city_id: RIYADH, weight_from: 0, weight_to: 5, price: 20 },
    { city_id: RIYADH, weight_from: 5, weight_to: 30, price: 35.5 },
    { city_id: null, weight_from: 0, weight_to: 10, price: 40 },
  ],
  estimated_days_min: 1,
  estimated_days_max: 2,
  ...extra,
});

export const pickupBody = (extra: Record<string, unknown> = {}) => ({
  name_en: "Main Warehouse",
  name_ar: "المستودع الرئيسي",
  location: { address1: "Olaya St 1", lat: 24.69, lng: 46.68 },
  city_id: RIYADH,
  working_hours: [{ day: "sunday", open: "09:00", close: "17:00" }],
  ...extra,
});

export async function created(store: Store, path: string, body: unknown) {
  const res = await store.as(path, { method: "POST", body });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out;
}

/** A paid order with two delivery lines to a Riyadh address, and its fulfillment ids. */
export async function shippableOrder(store: Store) {
  const s = await shopperOf(store.appId);
  const [loc] = await db(store.appId)
    .insert(customerLocations)
    .values({
      appId: store.appId,
      customerId: s.id,
      latitude: 24.7,
      longitude: 46.7,
      address1: "King Fahd Rd",
      nameEn: "Home",
      cityId: RIYADH,
      districtId: OLAYA,
    })
    .returning();
  const box = await deliveryItem(store.appId);
  const order = await paidOrderOf(
    store,
    s,
    [
      { item_id: box.id, qty: 1 },
      { item_id: box.id, qty: 2 },
    ],
    { location_id: loc!.id },
  );
  // On the store's own shard: another shard may hold an order of the same id (ids are unique per shard).
  const { results } = await shardFor(store.appId)
    .prepare("SELECT id FROM fulfillments WHERE app_id = ? AND order_id = ? ORDER BY id")
    .bind(store.appId, order.id)
    .all<{ id: number }>();
  return { order, fulfillmentIds: results.map((r) => r.id), customer: s };
}

/**
 * Posts a fake-carrier callback about store `appId`'s shipments to its URL (`query`, `?app_id=` of
 * the store unless told), signed (or not, or wrongly, or for the store `signedFor`) as the carrier would.
 */
export async function fakeCallback(
  appId: number,
  events: { reference: string; status: string; note?: string }[],
  how: "signed" | "unsigned" | "wrong" | "stale" = "signed",
  signedFor = appId,
  query = `?app_id=${appId}`,
) {
  const body = JSON.stringify({ events });
  const ts = Math.floor(Date.now() / 1000) - (how === "stale" ? 3600 : 0);
  const signature = await signFakeCallback(env.LINK_SIGNING_SECRET, signedFor, ts, body);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (how !== "unsigned") {
    headers["X-Fake-Carrier-Timestamp"] = String(ts);
    headers["X-Fake-Carrier-Signature"] = how === "wrong" ? `${signature.slice(0, -2)}xx` : signature;
  }
  return call(`${WEBHOOK}${query}`, { method: "POST", rawBody: body, headers, appId: null });
}

/** A store of the test file's own that ships: a custom courier (`vans`), a default pickup location and the fake carrier's id. */
export async function shippingStoreOf(appId: number) {
  const store = await storeFor(appId);
  const vans: { id: number } = await created(store, COURIERS, courierBody());
  const origin: { id: number } = await created(store, PICKUPS, pickupBody({ is_default: true }));
  const fakeId: number = (await json(await store.as(`${COURIERS}?code=fake`))).results[0].id;
  return { store, vans, origin, fakeId };
}

/** MH4 and the status route on `at().store`; `shipped` ships a new paid order (by `at().vans` unless told). */
export function shipmentsIn(at: () => { store: Store; vans: { id: number } }) {
  const ship = (body: Record<string, unknown>) => at().store.as(SHIP, { method: "POST", body });
  const status = (id: number, s: string) =>
    at().store.as(`${SHIP}${id}/status/`, { method: "POST", body: { status: s } });
  async function shipped(courierId = at().vans.id) {
    const o = await shippableOrder(at().store);
    const res = await ship({ fulfillment_ids: o.fulfillmentIds, courier_id: courierId });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return { ...o, shipment: body };
  }
  return { ship, status, shipped };
}
