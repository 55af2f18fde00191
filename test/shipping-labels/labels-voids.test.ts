import { beforeAll, describe, expect, it } from "vitest";
import { shardFor } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { eventsWhere, rowsOf, type Store } from "../orders/helpers";
import { balanceOf, credit, drawnText, getPdf, LABELS, type LabelStores, labelStoresOf, labelsIn } from "./helpers";

/**
 * MH2/MH3 and the label PDF. Couriers, pickup locations and shipments are written as rows (the
 * shipments' own routes are tested with them); the store wallet is credited by a ledger row.
 */

// Stores of this file's own (labels.test.ts has 9741 and 9742).
const A = 9743;
const B = 9744;
let fx: LabelStores;
let store: Store;
let orderId: number;
let courierId: number;

beforeAll(async () => {
  fx = await labelStoresOf(A, B);
  ({ store, orderId, courierId } = fx);
});

const { purchase, shipmentOf } = labelsIn(() => fx);

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

describe("a mirror of the labels (incremental sync)", () => {
  it("voiding moves the label's modified_at: modified_at__gte brings it back, not an unchanged one", async () => {
    await credit(A, 300);
    const [voiding, kept] = [await shipmentOf(A, 100), await shipmentOf(A, 200)];
    const bought = (await json(await purchase({ shipment_ids: [voiding.id, kept.id] }))).results;
    const ids = bought.map((l: { id: number }) => l.id);
    // Bought long ago: whatever moves past `before` below was moved by the cancellation.
    await shardFor(A)
      .prepare(`UPDATE shipping_labels SET modified_at = '2025-01-01T00:00:00.000Z' WHERE id IN (${ids.join(",")})`)
      .run();
    const before = new Date().toISOString();
    expect((await store.as(`/order/v1/merchant/shipments/${voiding.id}/cancel/`, { method: "POST" })).status).toBe(200);
    const changed = await json(
      await store.as(`${LABELS}?id__in=${ids.join(",")}&modified_at__gte=${before}&order_by=modified_at`),
    );
    expect(changed.results).toEqual([
      expect.objectContaining({ id: ids[0], shipment_id: voiding.id, voided_at: expect.any(String) }),
    ]);
    expect(changed.results[0].modified_at >= before).toBe(true);
    const all = await json(await store.as(`${LABELS}?id__in=${ids.join(",")}&order_by=modified_at`));
    expect(all.results.map((l: { id: number; modified_at: string }) => [l.id, l.modified_at])).toEqual([
      [ids[1], "2025-01-01T00:00:00.000Z"],
      [ids[0], changed.results[0].modified_at],
    ]);
  });
});
