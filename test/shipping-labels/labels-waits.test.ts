import { beforeAll, describe, expect, it } from "vitest";
import { waitsMeter } from "../helpers/d1-waits";
import { APP_1, shardFor } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { balanceOf, credit, LABELS, type LabelStores, labelStoresOf, labelsIn } from "./helpers";

// Stores of this file's own.
const A = 9745;
const B = 9746;
let fx: LabelStores;

beforeAll(async () => {
  fx = await labelStoresOf(A, B);
});

const { shipmentOf } = labelsIn(() => fx);

describe("MH3 Purchase Shipment Labels: D1 round trips", () => {
  it("reads the shipments, then one guarded batch that also reads the labels and the balance", async () => {
    await credit(A, 5000);
    const [s1, s2] = [await shipmentOf(A, 1500), await shipmentOf(A, 2000)];
    const before = await balanceOf(A);
    const meter = waitsMeter(shardFor(APP_1));
    const res = await call(LABELS, {
      method: "POST",
      body: { shipment_ids: [s1.id, s2.id] },
      token: fx.store.token,
      appId: A,
      meter,
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(meter.stop().beyondAuth).toBe(2);
    expect(body).toMatchObject({ total_cost: 35, wallet_balance: (before - 3500) / 100 });
    expect(body.results.map((l: { shipment_id: number }) => l.shipment_id)).toEqual([s1.id, s2.id]);
  });
});
