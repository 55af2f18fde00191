import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { couriers, pickupLocations, shipments } from "../../src/modules/shipping/tables";
import { db } from "../helpers/factories";
import { BASE } from "../helpers/request";
import { orderOf, rowOf, shopperOf, stocked, storeFor } from "../orders/helpers";

/**
 * What the label tests (labels*.test.ts) share. Couriers, pickup locations and shipments are written
 * as rows (the shipments' own routes are tested with them); the store wallet is credited by a ledger row.
 */

export const LABELS = "/order/v1/merchant/shipments/labels/";

/**
 * A GET through the Worker with the ASSETS binding (the PDF's font), which the test pool gives the
 * static assets only as TEST_ASSETS (vitest.config.ts).
 */
export async function getPdf(path: string, token: string, appId: number): Promise<Response> {
  const e = env as unknown as Env & { TEST_ASSETS: Fetcher };
  const ctx = createExecutionContext();
  const headers = { authorization: `Bearer ${token}`, "app-id": String(appId) };
  const res = await worker.fetch(new Request(new URL(path, BASE), { headers }), { ...e, ASSETS: e.TEST_ASSETS }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Credits the store wallet by `minor` (an adjustment row, as the ledger keeps them). */
export async function credit(appId: number, minor: number) {
  const { b } = await rowOf<{ b: number }>(
    "SELECT coalesce((SELECT balance_after_minor FROM store_wallet_entries WHERE app_id = ? ORDER BY id DESC LIMIT 1), 0) AS b",
    appId,
  );
  await rowOf(
    `INSERT INTO store_wallet_entries (app_id, type, source, amount_minor, balance_after_minor, order_id, reference, created_at)
     VALUES (?, 'credit', 'adjustment', ?, ?, NULL, 'test', strftime('%Y-%m-%dT%H:%M:%fZ','now')) RETURNING id`,
    appId,
    minor,
    b + minor,
  );
}

export const balanceOf = async (appId: number) =>
  (
    await rowOf<{ b: number }>(
      "SELECT coalesce((SELECT balance_after_minor FROM store_wallet_entries WHERE app_id = ? ORDER BY id DESC LIMIT 1), 0) AS b",
      appId,
    )
  ).b;

/**
 * Stores `a` (an order, a courier and a pickup location) and `b` (a courier, a shipment and a
 * credited wallet), each with a merchant token.
 */
export async function labelStoresOf(A: number, B: number) {
  const [store, other] = await Promise.all([storeFor(A), storeFor(B)]);
  const item = await stocked(A, 10000, 50);
  const orderId = (await orderOf(await shopperOf(A), [{ item_id: item.id, qty: 1 }])).order.id;
  const courier = (appId: number) =>
    db(appId)
      .insert(couriers)
      .values({
        appId,
        type: "custom",
        nameEn: "Fast Riders Delivery",
        nameAr: "توصيل فاست رايدرز",
        codSupported: true,
      })
      .returning();
  const [[mine], [theirs]] = await Promise.all([courier(A), courier(B)]);
  const courierId = mine!.id;
  const otherCourierId = theirs!.id;
  const [pickup] = await db(A)
    .insert(pickupLocations)
    .values({
      appId: A,
      nameEn: "Olaya branch",
      nameAr: "فرع العليا",
      address1: "King Fahd Road, Building 12",
      lat: 24.7,
      lng: 46.7,
      cityId: 1,
      districtId: 1,
    })
    .returning();
  const pickupId = pickup!.id;
  const fx = { store, other, orderId, courierId, otherCourierId, pickupId, foreignShipment: 0 };
  fx.foreignShipment = (await labelsIn(() => fx).shipmentOf(B, 100)).id;
  await credit(B, 100_000);
  return fx;
}
export type LabelStores = Awaited<ReturnType<typeof labelStoresOf>>;

let tracking = 0;
/** MH3 as a store of `at()`, and shipments written as rows. */
export function labelsIn(at: () => Omit<LabelStores, "foreignShipment">) {
  const purchase = (body: unknown, headers: Record<string, string> = {}, s = at().store) =>
    s.as(LABELS, { method: "POST", body, headers });

  /** A shipment of the store in status `created`, costing `costMinor`. */
  async function shipmentOf(appId: number, costMinor: number, overrides: Partial<typeof shipments.$inferInsert> = {}) {
    const { store, orderId, courierId, otherCourierId, pickupId } = at();
    const own = store.appId;
    tracking += 1;
    const [row] = await db(appId)
      .insert(shipments)
      .values({
        appId,
        orderId,
        courierId: appId === own ? courierId : otherCourierId,
        service: "standard",
        originPickupLocationId: appId === own ? pickupId : null,
        origin: {
          pickup_location_id: appId === own ? pickupId : null,
          name: "Olaya branch",
          address1: "King Fahd Road, Building 12",
          city_id: 1,
          district_id: 1,
          lat: 24.7,
          lng: 46.7,
          phone: "+966112345678",
        },
        destination: {
          location_id: null,
          name: "سارة القحطاني",
          address1: "شارع الأمير سلطان، مبنى ٤",
          city_id: 2,
          district_id: null,
          lat: 21.5,
          lng: 39.2,
          phone: "+966534501056",
        },
        packages: [{ weight_g: 1500, length_cm: 30, width_cm: 20, height_cm: 10 }],
        weightG: 1500,
        codAmountMinor: 11500,
        costMinor,
        currency: "SAR",
        trackingNumber: `TR${String(900000 + tracking).padStart(12, "0")}`,
        ...overrides,
      })
      .returning();
    return row!;
  }

  return { purchase, shipmentOf };
}

/** The text the page draws, from its glyph codes and the ToUnicode map. */
export function drawnText(pdf: string): string {
  const map = new Map<string, string>();
  for (const m of pdf.matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/g)) {
    const chars = m[2]!.match(/.{4}/g)!.map((h) => String.fromCharCode(Number.parseInt(h, 16)));
    map.set(m[1]!, chars.join(""));
  }
  return [...pdf.matchAll(/<([0-9A-F]+)> Tj/g)]
    .map((m) =>
      m[1]!
        .match(/.{4}/g)!
        .map((code) => map.get(code) ?? "?")
        .join(""),
    )
    .join("\n");
}
