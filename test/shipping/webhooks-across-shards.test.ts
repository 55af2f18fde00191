import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, APP_2, shardFor, shardNameFor } from "../helpers/factories";
import { alignNextIds } from "../helpers/isolation";
import { json, problem } from "../helpers/request";
import type { Store } from "../orders/helpers";
import { fakeCallback, SHIP, shipmentsIn, shippingStoreOf } from "./helpers";

/**
 * A carrier's webhook names its store in its URL (`?app_id=`, covered by the fake carrier's
 * signature): it runs on that store's shard and moves that store's shipments only. APP_2 lives on
 * the second shard; APP_1's shipment here has the same id, and even the same carrier reference.
 */

let first: { store: Store; vans: { id: number }; fakeId: number };
let second: { store: Store; vans: { id: number }; fakeId: number };

beforeAll(async () => {
  expect([shardNameFor(APP_1), shardNameFor(APP_2)]).toEqual(["SHARD_1", "SHARD_2"]);
  [first, second] = await Promise.all([shippingStoreOf(APP_1), shippingStoreOf(APP_2)]);
});

const inFirst = shipmentsIn(() => first);
const inSecond = shipmentsIn(() => second);

const viewOf = async (store: Store, id: number) => json(await store.as(`${SHIP}${id}/`));

describe("the fake carrier's webhook, for a store on the second shard", () => {
  it("moves that store's shipment; the first shard's shipment of the same id and reference stays as it was", async () => {
    const templates = await Promise.all([inFirst.shipped(first.fakeId), inSecond.shipped(second.fakeId)]);
    const id = await alignNextIds(
      "shipments",
      new Map([
        [APP_1, templates[0].shipment.id],
        [APP_2, templates[1].shipment.id],
      ]),
    );
    // The first shard's store's shipment first, then the second's: the same id on each shard.
    const a = (await inFirst.shipped(first.fakeId)).shipment;
    const b = (await inSecond.shipped(second.fakeId)).shipment;
    expect([a.id, b.id]).toEqual([id, id]);
    const reference = b.carrier_reference as string;
    // A lookup blind to the store would find this row first on the first shard.
    await shardFor(APP_1)
      .prepare("UPDATE shipments SET carrier_reference = ? WHERE id = ? AND app_id = ?")
      .bind(reference, a.id, APP_1)
      .run();
    const event = [{ reference, status: "PICKED_UP" }];

    // Signed for the first store, sent to the second's URL: the signature covers the store.
    const crossed = await fakeCallback(APP_2, event, "signed", APP_1);
    expect(crossed.status).toBe(400);
    expect((await problem(crossed)).code).toBe("webhook_signature_invalid");

    const res = await fakeCallback(APP_2, event);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ received: true, applied: 1, ignored: [] });
    expect(await viewOf(second.store, b.id)).toMatchObject({ status: "picked_up" });
    const untouched = await viewOf(first.store, a.id);
    expect(untouched.status).toBe("created");
    expect(untouched.status_history.map((h: { status: string }) => h.status)).toEqual(["created"]);

    // The first store's own callback moves its own shipment only.
    const own = await fakeCallback(APP_1, [{ reference, status: "PICKED_UP" }]);
    expect(await json(own)).toMatchObject({ applied: 1 });
    expect(await viewOf(first.store, a.id)).toMatchObject({ status: "picked_up" });
    expect((await viewOf(second.store, b.id)).status_history).toHaveLength(2);
  });

  it("a callback without its store, or with a malformed one, is a 400 that says so", async () => {
    for (const query of ["", "?app_id=", "?app_id=abc", "?app_id=0"]) {
      const res = await fakeCallback(APP_2, [], "signed", APP_2, query);
      expect(res.status, query).toBe(400);
      const body = await problem(res);
      expect(body.code).toBe("validation_error");
      expect(JSON.stringify(body)).toContain("app_id");
    }
  });
});
