import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { shipments } from "../../src/modules/shipping/tables";
import { db, tokenFor } from "../helpers/factories";
import { BASE, call, json, problem } from "../helpers/request";
import { eventsWhere, rowOf, rowsOf, type Store } from "../orders/helpers";
import { balanceOf, credit, drawnText, getPdf, LABELS, type LabelStores, labelStoresOf, labelsIn } from "./helpers";

/**
 * MH2/MH3 and the label PDF. Couriers, pickup locations and shipments are written as rows (the
 * shipments' own routes are tested with them); the store wallet is credited by a ledger row.
 */

const A = 9741;
const B = 9742;
let fx: LabelStores;
let store: Store;
let other: Store;
let orderId: number;
let courierId: number;
let otherCourierId: number;
let foreignShipment: number;

beforeAll(async () => {
  fx = await labelStoresOf(A, B);
  ({ store, other, orderId, courierId, otherCourierId, foreignShipment } = fx);
});

const { purchase, shipmentOf } = labelsIn(() => fx);

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
    // The phones in international form (stored "+966534501056" and "+966112345678").
    expect(drawn).toContain("+966 53 450 1056");
    expect(drawn).toContain("+966 11 234 5678");
    expect(drawn).not.toContain("+966534501056");
    // Arabic is drawn in visual order: the words read back reversed, letter by letter.
    for (const word of ["جدة", "فرع العليا", "سارة القحطاني"]) expect(drawn).toContain([...word].reverse().join(""));
    // The barcode: one path of bars.
    expect(pdf).toMatch(/\n0 g (?:[\d.]+ [\d.]+ [\d.]+ [\d.]+ re ){20,}/);
  });

  it("prints phone numbers as +966 5X XXX XXXX whatever form the addresses stored them in", async () => {
    const stored: [string, string, string][] = [
      ["0534501056", "966112345678", "national mobile, landline with the code but no +"],
      ["00966 53 450 1056", "011 234 5678", "00 prefix with spaces, national landline"],
      ["966534501056", "+966112345678", "code without +, E.164"],
    ];
    await credit(A, stored.length * 100);
    for (const [recipient, sender, forms] of stored) {
      const s = await shipmentOf(A, 100);
      await db(A)
        .update(shipments)
        .set({ destination: { ...s.destination, phone: recipient }, origin: { ...s.origin, phone: sender } })
        .where(eq(shipments.id, s.id));
      const bought = (await json(await purchase({ shipment_ids: [s.id] }))).results[0];
      const res = await getPdf(bought.label_url, store.token, A);
      expect(res.status, forms).toBe(200);
      const drawn = drawnText(new TextDecoder("latin1").decode(new Uint8Array(await res.arrayBuffer())));
      expect(drawn, forms).toContain("+966 53 450 1056");
      expect(drawn, forms).toContain("+966 11 234 5678");
    }
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
