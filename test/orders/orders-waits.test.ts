import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { callWaits, json } from "../helpers/request";
import { M_ORDERS, orderEventTypes, orderRow, type Store, shopperOf, stocked, stockOf, storeFor } from "./helpers";

/**
 * How long Create Order and Update Order keep a merchant waiting on D1, in round trips one after
 * another beyond the token check (never time). Create Order: the customer, the location, the
 * order's inputs and the quote's reads (items, voucher) at once, then the order's batch, which
 * reads the order back. Update Order: the order, then one batch that writes and reads it back.
 */

// A store of this file's own.
const A = 8539;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

describe("Merchant orders: D1 round trips", () => {
  it("Create Order waits for D1 twice (was 6): every read at once, the quote's too, then the batch", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1200, 5);
    const { res, waits } = await callWaits(M_ORDERS, {
      method: "POST",
      body: { customer_id: s.id, items: [{ item_id: item.id, qty: 2 }], notes: "Call before" },
      token: store.token,
      appId: A,
    });
    const order = await json(res);
    expect(res.status, JSON.stringify(order)).toBe(201);
    expect(schemaErrors("createOrder", order, "201")).toEqual([]);
    expect(order).toMatchObject({ status: "pending", customer_id: s.id, notes: "Call before", total_amount: 24 });
    expect(order.payment_url).toEqual(expect.stringContaining(`/order/v1/checkout/${order.id}/`));
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await stockOf(item.id)).toBe(3);
    expect(await orderEventTypes(A, order.id)).toEqual(["order.created"]);
  });

  it("Update Order's notes and reference: one read, one batch that answers the order", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const created = await json(
      await store.as(M_ORDERS, { method: "POST", body: { customer_id: s.id, items: [{ item_id: item.id, qty: 1 }] } }),
    );
    const { res, waits } = await callWaits(`${M_ORDERS}${created.id}/`, {
      method: "PATCH",
      body: { notes: "Leave at the door", reference: `W-${created.id}` },
      token: store.token,
      appId: A,
    });
    const order = await json(res);
    expect(res.status, JSON.stringify(order)).toBe(200);
    expect(schemaErrors("updateOrder", order)).toEqual([]);
    expect(order).toMatchObject({ id: created.id, notes: "Leave at the door", reference: `W-${created.id}` });
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await orderRow(created.id)).notes).toBe("Leave at the door");
    expect(await orderEventTypes(A, created.id)).toEqual(["order.created", "order.updated"]);
  });
  it("Cancel by Update Order: the order and its lines at once, then one batch that gives back and answers", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const created = await json(
      await store.as(M_ORDERS, { method: "POST", body: { customer_id: s.id, items: [{ item_id: item.id, qty: 2 }] } }),
    );
    expect(await stockOf(item.id)).toBe(3);
    const { res, waits } = await callWaits(`${M_ORDERS}${created.id}/`, {
      method: "PATCH",
      body: { status: "cancelled", notes: "Changed their mind" },
      token: store.token,
      appId: A,
    });
    const order = await json(res);
    expect(res.status, JSON.stringify(order)).toBe(200);
    expect(schemaErrors("updateOrder", order)).toEqual([]);
    expect(order).toMatchObject({ id: created.id, status: "cancelled", notes: "Changed their mind" });
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await stockOf(item.id)).toBe(5);
    expect(await orderEventTypes(A, created.id)).toEqual(["order.created", "order.cancelled", "order.updated"]);
  });
});
