import { beforeAll, describe, expect, it } from "vitest";
import { countRows } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { type Store, shopperOf, storeFor } from "../orders/helpers";
import { M_RECURRING, MY_RECURRING, purchaseRow, recurringOf } from "./helpers";

/**
 * How long the recurring purchase's details and its deactivation keep a client waiting on D1,
 * counted in round trips one after another beyond the token check (test/helpers/d1-waits.ts), never
 * timed: the purchase, its charges, orders and cart priced now in one round trip; a deactivation
 * then one guarded batch that reads the purchase back.
 */

// A store of this file's own.
const A = 8614;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const updatesOf = (id: number) =>
  countRows("outbox_events", `type = 'recurring_purchase.updated' AND json_extract(payload, '$.data.id') = ${id}`);

describe("D1 round trips of a recurring purchase", () => {
  it("details wait once, the customer's and the merchant's; deactivating, twice at most", async () => {
    const s = await shopperOf(A);
    const { purchaseId, cart, order } = await recurringOf(store, s, { priceMinor: 1500, qty: 2 });
    await callWaits(M_RECURRING, { token: store.token, appId: A });

    const mine = await callWaits(`${MY_RECURRING}${purchaseId}/`, { token: s.token, appId: A });
    const details = await json(mine.res);
    expect(mine.res.status, JSON.stringify(details)).toBe(200);
    expect(details).toMatchObject({
      id: purchaseId,
      cart_id: cart.id,
      status: "active",
      total_cart_price: 30,
      customer: { id: s.id },
      orders: [{ id: order.id }],
    });
    expect(details.cart_items).toMatchObject([{ qty: 2, price: 15, is_available: true }]);
    expect(mine.waits.beyondAuth).toBeLessThanOrEqual(1);

    const merchants = await callWaits(`${M_RECURRING}${purchaseId}/`, { token: store.token, appId: A });
    expect(merchants.res.status).toBe(200);
    expect(await json(merchants.res)).toEqual(details);
    expect(merchants.waits.beyondAuth).toBeLessThanOrEqual(1);

    const stopped = await callWaits(`${MY_RECURRING}${purchaseId}/deactivate/`, {
      method: "POST",
      token: s.token,
      appId: A,
    });
    const body = await json(stopped.res);
    expect(stopped.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      ...details,
      status: "inactive",
      inactive_reason: "Stopped by the customer.",
      modified_at: expect.any(String),
    });
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "inactive" });
    expect(await updatesOf(purchaseId)).toBe(1);
    expect(stopped.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("the merchant's stop waits twice at most", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s);
    const stopped = await callWaits(`${M_RECURRING}${purchaseId}/`, {
      method: "PATCH",
      token: store.token,
      appId: A,
      body: { status: "inactive" },
    });
    const body = await json(stopped.res);
    expect(stopped.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: purchaseId, status: "inactive", inactive_reason: "Stopped by the merchant." });
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "inactive" });
    expect(await updatesOf(purchaseId)).toBe(1);
    expect(stopped.waits.beyondAuth).toBeLessThanOrEqual(2);
  });
});
