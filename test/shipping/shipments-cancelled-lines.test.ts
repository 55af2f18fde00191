import { beforeAll, describe, expect, it } from "vitest";
import { abortUnless, isGuardAbort } from "../../src/core/guards";
import { fulfillmentsOpenSql } from "../../src/modules/orders";
import { serviceCtx } from "../helpers/factories";
import { json, problem } from "../helpers/request";
import { eventsWhere, rowOf, rowsOf, type Store } from "../orders/helpers";
import { SHIP, shipmentsIn, shippableOrder, shippingStoreOf } from "./helpers";

// A store of this file's own (shipments.test.ts has 9721 and 9722).
const A = 9725;
let store: Store;
let vans: { id: number };

beforeAll(async () => {
  ({ store, vans } = await shippingStoreOf(A));
});

const { ship, shipped } = shipmentsIn(() => ({ store, vans }));

describe("a cancelled fulfillment and its shipment (issue 27)", () => {
  const F = "/order/v1/merchant/fulfillments/";
  const cancelLine = (id: number) => store.as(`${F}${id}/`, { method: "PATCH", body: { status: "cancelled" } });
  const balance = async () =>
    (
      await rowOf<{ b: number }>(
        "SELECT coalesce((SELECT balance_after_minor FROM store_wallet_entries WHERE app_id = ? ORDER BY id DESC LIMIT 1), 0) AS b",
        A,
      )
    ).b;
  /** Credits the store wallet (an adjustment row, as the ledger keeps them). */
  const credit = async (minor: number) =>
    rowOf(
      `INSERT INTO store_wallet_entries (app_id, type, source, amount_minor, balance_after_minor, order_id, reference, created_at)
       VALUES (?, 'credit', 'adjustment', ?, ?, NULL, 'test', strftime('%Y-%m-%dT%H:%M:%fZ','now')) RETURNING id`,
      A,
      minor,
      (await balance()) + minor,
    );
  const LABELS = `${SHIP}labels/`;

  it("409 fulfillment_in_shipment naming the shipment while it is created or labelled; cancelled, the line cancels", async () => {
    const { fulfillmentIds, shipment } = await shipped();
    const [line] = fulfillmentIds;
    const res = await cancelLine(line!);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "fulfillment_in_shipment",
      shipment_id: shipment.id,
      detail: expect.stringContaining(`/order/v1/merchant/shipments/${shipment.id}/cancel/`),
    });
    // A labelled shipment refuses too.
    await credit(shipment.cost * 100);
    expect((await store.as(LABELS, { method: "POST", body: { shipment_ids: [shipment.id] } })).status).toBe(201);
    const labelled = await cancelLine(line!);
    expect(labelled.status).toBe(409);
    expect((await problem(labelled)).code).toBe("fulfillment_in_shipment");
    expect(await rowOf("SELECT status, shipment_id FROM fulfillments WHERE id = ?", line)).toEqual({
      status: "processing",
      shipment_id: shipment.id,
    });
    expect(
      (await eventsWhere(A, ["fulfillment.status_changed"], "id", line!)).filter((e) => e.data.status === "cancelled"),
    ).toEqual([]);
    // The way the detail says: cancel the shipment, then the line.
    expect((await store.as(`${SHIP}${shipment.id}/cancel/`, { method: "POST" })).status).toBe(200);
    const now = await cancelLine(line!);
    expect(now.status).toBe(200);
    expect((await json(now)).status).toBe("cancelled");
  });

  it("no label for a shipment holding a cancelled line (left by a race or older data): 409, nothing charged", async () => {
    const { fulfillmentIds, shipment } = await shipped();
    await rowOf("UPDATE fulfillments SET status = 'cancelled' WHERE id = ? RETURNING id", fulfillmentIds[1]);
    await credit(shipment.cost * 100);
    const before = await balance();
    const res = await store.as(LABELS, { method: "POST", body: { shipment_ids: [shipment.id] } });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "fulfillment_not_shippable",
      shipment_id: shipment.id,
      fulfillment_ids: [fulfillmentIds[1]],
    });
    expect(await balance()).toBe(before);
    expect((await rowOf("SELECT status FROM shipments WHERE id = ?", shipment.id)).status).toBe("created");
    expect(await eventsWhere(A, ["shipment.label_purchased"], "id", shipment.id)).toEqual([]);
  });

  it("a cancelled line is not shipped: refused when read, and by the batch's own guard", async () => {
    const o = await shippableOrder(store);
    expect((await cancelLine(o.fulfillmentIds[0]!)).status).toBe(200);
    const res = await ship({ fulfillment_ids: o.fulfillmentIds, courier_id: vans.id });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("fulfillment_not_shippable");
    // The guard the create batch carries, for a line cancelled between its read and its write.
    const ctx = serviceCtx(A);
    const guarded = ctx.db.batch([
      abortUnless(ctx.db, fulfillmentsOpenSql(ctx, o.fulfillmentIds), "fulfillments no longer open"),
    ]);
    await expect(guarded.then(() => "written")).rejects.toSatisfy(isGuardAbort);
    await ctx.db.batch([abortUnless(ctx.db, fulfillmentsOpenSql(ctx, [o.fulfillmentIds[1]!]), "open")]);
  });

  it("racing a shipment's creation and a line's cancellation never leaves a live shipment with a cancelled line", async () => {
    for (let round = 0; round < 4; round++) {
      const o = await shippableOrder(store);
      await Promise.all([
        ship({ fulfillment_ids: o.fulfillmentIds, courier_id: vans.id }),
        cancelLine(o.fulfillmentIds[0]!),
      ]);
      const bad = await rowsOf(
        `SELECT sf.shipment_id FROM shipment_fulfillments sf JOIN shipments s ON s.id = sf.shipment_id
           JOIN fulfillments f ON f.id = sf.fulfillment_id
         WHERE sf.fulfillment_id IN (?, ?) AND s.status <> 'cancelled' AND f.status = 'cancelled'`,
        ...o.fulfillmentIds,
      );
      expect(bad).toEqual([]);
    }
  });
});
