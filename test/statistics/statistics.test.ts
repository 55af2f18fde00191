import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, createCustomerFor, shardFor, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, json, problem } from "../helpers/request";
import { depositCashback, M_ORDERS, orderOf, rowOf, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";
import { recurringOf } from "../recurring/helpers";

// Stores of this file's own.
const A = 8705;
const B = 8706;
let store: Store;
let other: Store;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const statsPath = (customerId: number) => `/order/v1/merchant/customers/${customerId}/order-statistics/`;

async function statsOf(s: Store, customerId: number) {
  const res = await s.as(statsPath(customerId));
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(schemaErrors("getCustomerOrderStatistics", body)).toEqual([]);
  return body;
}

describe("Customer Order Statistics (MC3)", () => {
  it("counts, spends and dates the customer's orders, and nobody else's", async () => {
    const s = await shopperOf(A);
    const bystander = await shopperOf(A);
    const item = await stocked(A, 1_000, 100);
    await depositCashback(store, s.id, 200);
    await depositCashback(store, bystander.id, 200);

    // Completed: 30 and 50 from the wallet; a recurring one of 20 (2 × 10), completed too.
    const a = await orderOf(s, [{ item_id: item.id, qty: 3 }], "wallet");
    const b = await orderOf(s, [{ item_id: item.id, qty: 5 }], "wallet");
    await recurringOf(store, s, { priceMinor: 1_000, qty: 2, cashback: 0 });
    // Pending (card), and one cancelled by the merchant.
    const pending = await orderOf(s, [{ item_id: item.id, qty: 1 }], "card");
    const cancelled = await orderOf(s, [{ item_id: item.id, qty: 4 }], "card");
    const cancel = await store.as(`${M_ORDERS}${cancelled.order.id}/`, {
      method: "PATCH",
      body: { status: "cancelled" },
    });
    expect(cancel.status).toBe(200);
    // Another customer's completed order is not counted.
    await orderOf(bystander, [{ item_id: item.id, qty: 7 }], "wallet");
    // 12.50 of order b given back (as a partial refund leaves it: still completed).
    await shardFor(APP_1)
      .prepare("UPDATE orders SET refunded_minor = 1250, payment_status = 'partially_refunded' WHERE id = ?")
      .bind(b.order.id)
      .run();

    const dates = await rowOf<{ first: string; last: string }>(
      "SELECT min(created_at) AS first, max(created_at) AS last FROM orders WHERE customer_id = ?",
      s.id,
    );
    expect(await statsOf(store, s.id)).toEqual({
      customer_id: s.id,
      orders_count: 5,
      orders_count_by_status: { pending: 1, completed: 3, cancelled: 1, expired: 0, refunded: 0 },
      completed_orders_count: 3,
      cancelled_orders_count: 1,
      // 30 + 50 + 20 − 12.50
      total_spent: 87.5,
      // 87.50 / 3 = 29.1666… → 29.17
      average_order_value: 29.17,
      first_order_at: dates.first,
      last_order_at: dates.last,
      active_recurring_purchases_count: 1,
      currency: "SAR",
    });
    expect(dates.first).toBe(a.order.created_at);
    expect(dates.last).toBe(cancelled.order.created_at);
    expect(pending.order.status).toBe("pending");
  });

  it("a customer without orders: zeros, no dates, the store's currency", async () => {
    const c = await createCustomerFor(A);
    expect(await statsOf(store, c.id)).toEqual({
      customer_id: c.id,
      orders_count: 0,
      orders_count_by_status: { pending: 0, completed: 0, cancelled: 0, expired: 0, refunded: 0 },
      completed_orders_count: 0,
      cancelled_orders_count: 0,
      total_spent: 0,
      average_order_value: 0,
      first_order_at: null,
      last_order_at: null,
      active_recurring_purchases_count: 0,
      currency: "SAR",
    });
    // The customer's check and the aggregate, the store's currency in it: one D1 round trip.
    expect((await callWaits(statsPath(c.id), { token: store.token, appId: A })).waits.beyondAuth).toBe(1);
  });

  it("an unknown customer, or another store's, is a 404 customer_not_found", async () => {
    const theirs = await createCustomerFor(B);
    for (const id of [theirs.id, 999_999_999]) {
      const res = await store.as(statsPath(id));
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("customer_not_found");
    }
    expect((await other.as(statsPath(theirs.id))).status).toBe(200);
  });

  it("needs can_read_order", async () => {
    const c = await createCustomerFor(A);
    const res = await call(statsPath(c.id), { token: await tokenFor(A, ["can_read_item"]), appId: A });
    expect(res.status).toBe(403);
  });

  sharedAuthCases({ method: "GET", path: statsPath(1), permission: "can_read_order" });
});
