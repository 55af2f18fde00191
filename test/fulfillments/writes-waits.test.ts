import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { callWaits, json } from "../helpers/request";
import { eventsWhere, locationOf, rowOf, rowsOf, type Store, shopperOf, storeFor } from "../orders/helpers";
import { deliveryItem, M_FULFILLMENTS, MY_FULFILLMENTS, paidOrderOf } from "./helpers";

/**
 * How long Update Fulfillment keeps its caller waiting on D1, in round trips one after another
 * beyond the token check (never time): the fulfillment (and the customer's own location with it),
 * then one batch that writes, emits and reads the answer back. The merchant's new address belongs to
 * the order's customer, whom only the fulfillment's row names: that location is read after it.
 */

// A store of this file's own.
const A = 9693;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

async function openFulfillment() {
  const shopper = await shopperOf(A);
  const order = await paidOrderOf(store, shopper, [{ item_id: (await deliveryItem(A)).id, qty: 1 }]);
  const [row] = await rowsOf("SELECT id FROM fulfillments WHERE order_id = ?", order.id);
  return { shopper, orderId: order.id, id: Number(row!.id) };
}

describe("Update Fulfillment: D1 round trips", () => {
  it("the merchant's status move: one read, one batch that moves the order's status and answers", async () => {
    const f = await openFulfillment();
    for (const status of ["processing", "shipped", "delivered"]) {
      const { res, waits } = await callWaits(`${M_FULFILLMENTS}${f.id}/`, {
        method: "PATCH",
        body: { status, notes: `Now ${status}` },
        token: store.token,
        appId: A,
      });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(schemaErrors("updateFulfillment", body)).toEqual([]);
      expect(body).toMatchObject({ id: f.id, status, notes: `Now ${status}`, item: expect.any(Object) });
      expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    }
    expect(await rowOf("SELECT fulfillment_status FROM orders WHERE id = ?", f.orderId)).toEqual({
      fulfillment_status: "delivered",
    });
    expect(await eventsWhere(A, ["fulfillment.status_changed"], "id", f.id)).toHaveLength(3);
  });

  it("the customer's new address: read with the fulfillment, then one batch; the merchant's: one read more", async () => {
    const f = await openFulfillment();
    const loc = await locationOf(A, f.shopper.id);
    const mine = await callWaits(`${MY_FULFILLMENTS}${f.id}/`, {
      method: "PATCH",
      body: { location_id: loc.id, notes: "Ring twice" },
      token: f.shopper.token,
      appId: A,
    });
    const body = await json(mine.res);
    expect(mine.res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors("updateMyFulfillment", body)).toEqual([]);
    expect(body).toMatchObject({ id: f.id, location_id: loc.id, location: { id: loc.id }, notes: "Ring twice" });
    expect(mine.waits.beyondAuth).toBeLessThanOrEqual(2);

    const other = await locationOf(A, f.shopper.id);
    const merchants = await callWaits(`${M_FULFILLMENTS}${f.id}/`, {
      method: "PATCH",
      body: { location_id: other.id },
      token: store.token,
      appId: A,
    });
    expect(merchants.res.status).toBe(200);
    expect(await json(merchants.res)).toMatchObject({ location_id: other.id, location: { id: other.id } });
    expect(merchants.waits.beyondAuth).toBeLessThanOrEqual(3);
    expect(await eventsWhere(A, ["fulfillment.updated"], "id", f.id)).toHaveLength(2);
  });

  it("another customer's location is still a 404, and the fulfillment is unchanged", async () => {
    const f = await openFulfillment();
    const stranger = await shopperOf(A);
    const theirs = await locationOf(A, stranger.id);
    const { res } = await callWaits(`${MY_FULFILLMENTS}${f.id}/`, {
      method: "PATCH",
      body: { location_id: theirs.id, notes: "Not mine" },
      token: f.shopper.token,
      appId: A,
    });
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("customer_location_not_found");
    expect(await rowOf("SELECT notes, location_id FROM fulfillments WHERE id = ?", f.id)).toEqual({
      notes: null,
      location_id: null,
    });
  });
});
