import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { couriers, pickupLocations, shipments } from "../../src/modules/shipping/tables";
import { db, tokenFor } from "../helpers/factories";
import { BASE, call, json, problem } from "../helpers/request";
import { eventsWhere, orderOf, rowOf, rowsOf, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";

/**
 * MH2/MH3 and the label PDF. Couriers, pickup locations and shipments are written as rows (the
 * shipments' own routes are tested with them); the store wallet is credited by a ledger row.
 */

const A = 9741;
const B = 9742;
const LABELS = "/order/v1/merchant/shipments/labels/";
let store: Store;
let other: Store;
let orderId: number;
let courierId: number;
let otherCourierId: number;
let pickupId: number;
let foreignShipment: number;

/**
 * A GET through the Worker with the ASSETS binding (the PDF's font), which the test pool gives the
 * static assets only as TEST_ASSETS (vitest.config.ts).
 */
async function getPdf(path: string, token: string, appId: number): Promise<Response> {
  const e = env as unknown as Env & { TEST_ASSETS: Fetcher };
  const ctx = createExecutionContext();
  const headers = { authorization: `Bearer ${token}`, "app-id": String(appId) };
  const res = await worker.fetch(new Request(new URL(path, BASE), { headers }), { ...e, ASSETS: e.TEST_ASSETS }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const purchase = (body: unknown, headers: Record<string, string> = {}, s = store) =>
  s.as(LABELS, { method: "POST", body, headers });

/** Credits the store wallet by `minor` (an adjustment row, as the ledger keeps them). */
async function credit(appId: number, minor: number) {
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

const balanceOf = async (appId: number) =>
  (
    await rowOf<{ b: number }>(
      "SELECT coalesce((SELECT balance_after_minor FROM store_wallet_entries WHERE app_id = ? ORDER BY id DESC LIMIT 1), 0) AS b",
      appId,
    )
  ).b;

let tracking = 0;
/** A shipment of the store in status `created`, costing `costMinor`. */
async function shipmentOf(appId: number, costMinor: number, overrides: Partial<typeof shipments.$inferInsert> = {}) {
  tracking += 1;
  const [row] = await db()
    .insert(shipments)
    .values({
      appId,
      orderId,
      courierId: appId === A ? courierId : otherCourierId,
      service: "standard",
      originPickupLocationId: appId === A ? pickupId : null,
      origin: {
        pickup_location_id: appId === A ? pickupId : null,
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

beforeAll(async () => {
  [store, other] = await Promise.all([storeFor(A), storeFor(B)]);
  const item = await stocked(A, 10000, 50);
  orderId = (await orderOf(await shopperOf(A), [{ item_id: item.id, qty: 1 }])).order.id;
  const courier = (appId: number) =>
    db()
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
  courierId = mine!.id;
  otherCourierId = theirs!.id;
  const [pickup] = await db()
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
  pickupId = pickup!.id;
  foreignShipment = (await shipmentOf(B, 100)).id;
  await credit(B, 100_000);
});

describe("MH3 Purchase Shipment Labels", () => {
  it("buys labels with the store wallet: 201, the labels, the debits, the status, the history, the events", async () => {
    await credit(A, 5000);
    const [s1, s2] = [await shipmentOf(A, 1500), await shipmentOf(A, 2000)];
    const before = await balanceOf(A);
    const res = await purchase({ shipment_ids: [s2.id, s1.id], courier_id: courierId }, { "Idempotency-Key": "buy-1" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ total_cost: 35, currency: "SAR", wallet_balance: (before - 3500) / 100 });
    expect(body.results.map((l: { shipment_id: number }) => l.shipment_id)).toEqual([s2.id, s1.id]);
    const [l2, l1] = body.results;
    expect(l1).toMatchObject({
      shipment_id: s1.id,
      order_id: orderId,
      courier_id: courierId,
      tracking_number: s1.trackingNumber,
      cost: 15,
      currency: "SAR",
      label_url: `${BASE}/order/v1/merchant/shipments/labels/${l1.id}/pdf/`,
    });
    expect(l2.cost).toBe(20);
    // Stored: the shipments moved, with their label's link; two debits of the labels' source; the history.
    const rows = await rowsOf(
      "SELECT id, status, label_url FROM shipments WHERE id IN (?, ?) ORDER BY id",
      s1.id,
      s2.id,
    );
    expect(rows).toEqual([
      { id: s1.id, status: "label_purchased", label_url: l1.label_url },
      { id: s2.id, status: "label_purchased", label_url: l2.label_url },
    ]);
    expect(await balanceOf(A)).toBe(before - 3500);
    const debits = await rowsOf(
      "SELECT amount_minor, reference FROM store_wallet_entries WHERE app_id = ? AND source = 'label' ORDER BY id",
      A,
    );
    expect(debits).toEqual(
      expect.arrayContaining([
        { amount_minor: -2000, reference: `shipment:${s2.id}` },
        { amount_minor: -1500, reference: `shipment:${s1.id}` },
      ]),
    );
    const history = await rowOf(
      "SELECT status, source FROM shipment_status_history WHERE shipment_id = ? ORDER BY id DESC",
      s1.id,
    );
    expect(history).toEqual({ status: "label_purchased", source: "merchant" });
    const [bought] = await eventsWhere(A, ["shipment.label_purchased"], "id", s1.id);
    expect(bought!.data).toEqual({
      id: s1.id,
      order_id: orderId,
      courier_id: courierId,
      direction: "forward",
      status: "label_purchased",
      label_id: l1.id,
      tracking_number: s1.trackingNumber,
      cost: 15,
    });
    const changed = await eventsWhere(A, ["shipment.status_changed"], "id", s1.id);
    expect(changed.map((e) => e.data)).toEqual([
      expect.objectContaining({ status: "label_purchased", previous_status: "created", source: "merchant" }),
    ]);
  });

  it("the same Idempotency-Key charges the wallet once and answers the first response again", async () => {
    await credit(A, 1000);
    const s = await shipmentOf(A, 700);
    const before = await balanceOf(A);
    const first = await purchase({ shipment_ids: [s.id] }, { "Idempotency-Key": "label-once" });
    expect(first.status).toBe(201);
    const again = await purchase({ shipment_ids: [s.id] }, { "Idempotency-Key": "label-once" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    expect(await balanceOf(A)).toBe(before - 700);
    const n = await rowOf<{ n: number }>(
      "SELECT count(*) AS n FROM store_wallet_entries WHERE app_id = ? AND reference = ?",
      A,
      `shipment:${s.id}`,
    );
    expect(n.n).toBe(1);
    expect(await eventsWhere(A, ["shipment.label_purchased"], "id", s.id)).toHaveLength(1);
    // Without the key, a second purchase is refused by the shipment's state machine.
    const twice = await purchase({ shipment_ids: [s.id] });
    expect(twice.status).toBe(409);
    expect(await problem(twice)).toMatchObject({
      code: "invalid_state_transition",
      current_status: "label_purchased",
      allowed_actions: ["pick_up", "cancel"],
    });
    expect(await balanceOf(A)).toBe(before - 700);
  });

  it("409 insufficient_balance when the wallet does not cover all the labels: nothing is bought", async () => {
    const balance = await balanceOf(A);
    // The first fits alone; both together do not.
    const [s1, s2] = [await shipmentOf(A, balance), await shipmentOf(A, 1)];
    const events = await rowOf<{ n: number }>("SELECT count(*) AS n FROM outbox_events WHERE app_id = ?", A);
    const res = await purchase({ shipment_ids: [s1.id, s2.id] });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "insufficient_balance",
      available: balance / 100,
      required: (balance + 1) / 100,
    });
    expect(await balanceOf(A)).toBe(balance);
    expect(await rowsOf("SELECT status, label_url FROM shipments WHERE id IN (?, ?)", s1.id, s2.id)).toEqual([
      { status: "created", label_url: null },
      { status: "created", label_url: null },
    ]);
    const labels = await rowOf<{ n: number }>(
      "SELECT count(*) AS n FROM shipping_labels WHERE shipment_id IN (?, ?)",
      s1.id,
      s2.id,
    );
    expect(labels.n).toBe(0);
    expect(await rowOf("SELECT count(*) AS n FROM outbox_events WHERE app_id = ?", A)).toEqual(events);
  });

  it("a label that costs nothing needs no balance and writes no debit", async () => {
    const s = await shipmentOf(A, 0);
    const before = await balanceOf(A);
    const res = await purchase({ shipment_ids: [s.id] });
    expect(res.status).toBe(201);
    expect((await json(res)).total_cost).toBe(0);
    expect(await balanceOf(A)).toBe(before);
  });

  it("404 for a shipment of another store or none; 400 for another courier or a bad body", async () => {
    const mine = await shipmentOf(A, 10);
    for (const ids of [[foreignShipment], [mine.id, 2_000_000_000]]) {
      const res = await purchase({ shipment_ids: ids });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("shipment_not_found");
    }
    const wrong = await purchase({ shipment_ids: [mine.id], courier_id: otherCourierId });
    expect(wrong.status).toBe(400);
    expect((await problem(wrong)).errors).toHaveProperty("courier_id");
    for (const body of [
      { shipment_ids: [] },
      { shipment_ids: [mine.id, mine.id] },
      { shipment_ids: [mine.id], extra: 1 },
      { shipment_ids: Array.from({ length: 51 }, (_, i) => i + 1) },
      { shipment_ids: [0] },
    ]) {
      expect((await purchase(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await rowOf("SELECT status FROM shipments WHERE id = ?", mine.id)).status).toBe("created");
  });

  it("needs can_write_shipment", async () => {
    const token = await tokenFor(A, ["can_read_shipment"]);
    const res = await call(LABELS, { method: "POST", token, appId: A, body: { shipment_ids: [1] } });
    expect(res.status).toBe(403);
  });
});

describe("MH2 Shipping Labels and the label PDF", () => {
  let label: { id: number; shipment_id: number; tracking_number: string; label_url: string };

  beforeAll(async () => {
    await credit(A, 100);
    const s = await shipmentOf(A, 100, { trackingNumber: "FK00012345678" });
    const res = await purchase({ shipment_ids: [s.id] });
    label = (await json(res)).results[0];
  });

  it("lists the store's labels, newest first, with filters and search; another store sees its own", async () => {
    const all = await json(await store.as(`${LABELS}?page_size=2`));
    expect(all.count).toBeGreaterThanOrEqual(5);
    expect(all.results).toHaveLength(2);
    expect(all.results[0]).toEqual({
      ...label,
      order_id: orderId,
      courier_id: courierId,
      cost: 1,
      currency: "SAR",
      created_at: expect.any(String),
      voided_at: null,
      refund: 0,
    });
    expect(all.next).toContain("page=2");
    const byShipment = await json(await store.as(`${LABELS}?shipment_id=${label.shipment_id}`));
    expect(byShipment.results.map((l: { id: number }) => l.id)).toEqual([label.id]);
    const bySearch = await json(await store.as(`${LABELS}?search=FK0001234`));
    expect(bySearch.results.map((l: { id: number }) => l.id)).toEqual([label.id]);
    const theirs = await json(await other.as(LABELS));
    expect(theirs.results.some((l: { id: number }) => l.id === label.id)).toBe(false);
    expect((await store.as(`${LABELS}?courier_id=abc`)).status).toBe(400);
  });

  it("serves the label as an A6 PDF with the tracking number, both languages' words and the barcode", async () => {
    const res = await getPdf(label.label_url, store.token, A);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="label-FK00012345678.pdf"');
    const pdf = new TextDecoder("latin1").decode(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.startsWith("%PDF-1.7")).toBe(true);
    expect(pdf).toContain("/MediaBox [0 0 297.64 419.53]");
    const drawn = drawnText(pdf);
    for (const word of [
      "FK00012345678",
      "Fast Riders Delivery",
      "Cash on delivery",
      "115.00 SAR",
      `#${orderId}`,
      "Riyadh",
    ]) {
      expect(drawn).toContain(word);
    }
    // Arabic is drawn in visual order: the words read back reversed, letter by letter.
    for (const word of ["جدة", "فرع العليا", "سارة القحطاني"]) expect(drawn).toContain([...word].reverse().join(""));
    // The barcode: one path of bars.
    expect(pdf).toMatch(/\n0 g (?:[\d.]+ [\d.]+ [\d.]+ [\d.]+ re ){20,}/);
  });

  it("404 for another store's label or none; needs can_read_shipment", async () => {
    for (const s of [other, store]) {
      const res = await getPdf(`${LABELS}${s === other ? label.id : 2_000_000_000}/pdf/`, s.token, s.appId);
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("shipping_label_not_found");
    }
    const token = await tokenFor(A, ["can_read_order"]);
    expect((await getPdf(`${LABELS}${label.id}/pdf/`, token, A)).status).toBe(403);
  });
});

describe("MH5 on a labelled shipment voids its label (issue 27)", () => {
  const cancel = (id: number) => store.as(`/order/v1/merchant/shipments/${id}/cancel/`, { method: "POST" });
  const ledgerOf = (shipmentId: number) =>
    rowsOf(
      "SELECT type, source, amount_minor, order_id, reference FROM store_wallet_entries WHERE app_id = ? AND reference = ? ORDER BY id",
      A,
      `shipment:${shipmentId}`,
    );
  let voided: { id: number; shipment_id: number; label_url: string };

  it("gives the label's cost back to the store wallet with the cancellation, linked to the order; once", async () => {
    await credit(A, 1500);
    const s = await shipmentOf(A, 1500);
    voided = (await json(await purchase({ shipment_ids: [s.id] }))).results[0];
    const before = await balanceOf(A);
    const res = await cancel(s.id);
    expect(res.status).toBe(200);
    expect((await json(res)).status).toBe("cancelled");
    expect(await balanceOf(A)).toBe(before + 1500);
    const ref = `shipment:${s.id}`;
    expect(await ledgerOf(s.id)).toEqual([
      { type: "debit", source: "label", amount_minor: -1500, order_id: orderId, reference: ref },
      { type: "credit", source: "label", amount_minor: 1500, order_id: orderId, reference: ref },
    ]);
    const listed = await json(await store.as(`${LABELS}?shipment_id=${s.id}`));
    expect(listed.results[0]).toMatchObject({ id: voided.id, cost: 15, voided_at: expect.any(String), refund: 15 });
    const events = await eventsWhere(A, ["shipment.label_voided"], "id", s.id);
    expect(events.map((e) => e.data)).toEqual([
      {
        id: s.id,
        order_id: orderId,
        courier_id: courierId,
        direction: "forward",
        status: "cancelled",
        label_id: voided.id,
        tracking_number: s.trackingNumber,
        refund: 15,
        wallet_balance: (before + 1500) / 100,
      },
    ]);
    expect(await eventsWhere(A, ["shipment.cancelled"], "id", s.id)).toHaveLength(1);
    // A second cancel is refused by the machine and refunds nothing.
    const again = await cancel(s.id);
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("invalid_state_transition");
    expect(await balanceOf(A)).toBe(before + 1500);
    expect(await ledgerOf(s.id)).toHaveLength(2);
    expect(await eventsWhere(A, ["shipment.label_voided"], "id", s.id)).toHaveLength(1);
  });

  it("the fake carrier's label comes back too: the carrier voids it and says it refunds", async () => {
    const fake = (await json(await store.as("/order/v1/merchant/shipments/couriers/?code=fake"))).results[0];
    await credit(A, 1500);
    const s = await shipmentOf(A, 1500, { courierId: fake.id, carrierReference: "fk_void_test" });
    expect((await purchase({ shipment_ids: [s.id] })).status).toBe(201);
    const before = await balanceOf(A);
    expect((await cancel(s.id)).status).toBe(200);
    expect(await balanceOf(A)).toBe(before + 1500);
    expect((await ledgerOf(s.id)).map((e) => [e.type, e.amount_minor, e.order_id])).toEqual([
      ["debit", -1500, orderId],
      ["credit", 1500, orderId],
    ]);
  });

  it("the voided label's PDF is marked VOID in both languages; a usable one is not", async () => {
    const drawn = drawnText(
      new TextDecoder("latin1").decode(
        new Uint8Array(await (await getPdf(voided.label_url, store.token, A)).arrayBuffer()),
      ),
    );
    expect(drawn).toContain("VOID");
    expect(drawn).toContain([..."ملغاة"].reverse().join(""));
    await credit(A, 100);
    const live = (await json(await purchase({ shipment_ids: [(await shipmentOf(A, 100)).id] }))).results[0];
    const usable = drawnText(
      new TextDecoder("latin1").decode(
        new Uint8Array(await (await getPdf(live.label_url, store.token, A)).arrayBuffer()),
      ),
    );
    expect(usable).not.toContain("VOID");
  });
});

/** The text the page draws, from its glyph codes and the ToUnicode map. */
function drawnText(pdf: string): string {
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
