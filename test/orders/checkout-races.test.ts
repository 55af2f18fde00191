import { beforeAll, describe, expect, it } from "vitest";
import { problem, json as read } from "../helpers/request";
import {
  cartOf,
  cashbackOf,
  checkout,
  depositCashback,
  eventsWhere,
  rowOf,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
} from "./helpers";

// A store of this file's own: its checkouts.
const A = 8221;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const ordersOfCart = async (cartId: number) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM orders WHERE cart_id = ?", cartId)).n;

describe("Checkout with Idempotency-Key", () => {
  it("the same key and body replays the first answer; one order", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const key = { "Idempotency-Key": `chk-${cart.id}` };
    const body = { payment_provider: "cash_on_delivery" };
    const first = await checkout(s, cart.id, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await checkout(s, cart.id, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const [a, b] = [await read(first), await read(again)];
    expect(b.order.id).toBe(a.order.id);
    expect(b).toEqual(a);
    expect(await ordersOfCart(cart.id)).toBe(1);
    expect(await stockOf(item.id)).toBe(4);

    const other = await checkout(s, cart.id, { payment_provider: "card" }, key);
    expect(other.status).toBe(409);
    expect((await problem(other)).code).toBe("idempotency_key_reused");
    expect(await ordersOfCart(cart.id)).toBe(1);
  });
});

describe("Checkout races", () => {
  it("two customers for the last unit: one order, one 409 insufficient_stock, stock 0", async () => {
    const item = await stocked(A, 1000, 1);
    const [s1, s2] = await Promise.all([shopperOf(A), shopperOf(A)]);
    const [c1, c2] = await Promise.all([
      cartOf(s1, { items: [{ item_id: item.id, qty: 1 }] }),
      cartOf(s2, { items: [{ item_id: item.id, qty: 1 }] }),
    ]);
    const results = await Promise.all([
      checkout(s1, c1.id, { payment_provider: "card" }),
      checkout(s2, c2.id, { payment_provider: "card" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(await problem(loser)).toMatchObject({ code: "insufficient_stock", item_id: item.id, available: 0 });
    expect(await stockOf(item.id)).toBe(0);
    const orders = await rowsOf("SELECT order_id FROM order_items WHERE item_id = ?", item.id);
    expect(orders).toHaveLength(1);
    const carts = await rowsOf<{ status: string }>(
      "SELECT status FROM carts WHERE id IN (?, ?) ORDER BY status",
      c1.id,
      c2.id,
    );
    expect(carts.map((c) => c.status)).toEqual(["checked_out", "open"]);
    expect(await eventsWhere(A, ["item.updated"], "id", item.id)).toHaveLength(1);
  });

  it("five checkouts of five carts against a stock of three: exactly three orders", async () => {
    const item = await stocked(A, 1000, 3);
    const shoppers = await Promise.all(Array.from({ length: 5 }, () => shopperOf(A)));
    const carts = await Promise.all(shoppers.map((s) => cartOf(s, { items: [{ item_id: item.id, qty: 1 }] })));
    const results = await Promise.all(
      shoppers.map((s, i) => checkout(s, carts[i].id, { payment_provider: "cash_on_delivery" })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(3);
    expect(statuses.filter((x) => x === 409)).toHaveLength(2);
    for (const r of results.filter((x) => x.status === 409)) expect((await problem(r)).code).toBe("insufficient_stock");
    expect(await stockOf(item.id)).toBe(0);
    expect(await rowsOf("SELECT order_id FROM order_items WHERE item_id = ?", item.id)).toHaveLength(3);
    expect(
      await rowsOf(
        "SELECT id FROM transactions WHERE order_id IN (SELECT order_id FROM order_items WHERE item_id = ?)",
        item.id,
      ),
    ).toHaveLength(3);
  });

  it("the same cart checked out twice at once: one order", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const results = await Promise.all([
      checkout(s, cart.id, { payment_provider: "cash_on_delivery" }),
      checkout(s, cart.id, { payment_provider: "card" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await problem(results.find((r) => r.status === 409)!)).code).toBe("cart_checked_out");
    expect(await ordersOfCart(cart.id)).toBe(1);
    expect(await stockOf(item.id)).toBe(4);
  });

  it("the last of a customer's cashback spent by two wallet checkouts at once: one is paid", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    await depositCashback(store, s.id, 15);
    const [c1, c2] = await Promise.all([
      cartOf(s, { items: [{ item_id: item.id, qty: 1 }] }),
      cartOf(s, { items: [{ item_id: item.id, qty: 1 }] }),
    ]);
    const results = await Promise.all([
      checkout(s, c1.id, { payment_provider: "wallet" }),
      checkout(s, c2.id, { payment_provider: "wallet" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await problem(results.find((r) => r.status === 409)!)).code).toBe("insufficient_balance");
    expect(await cashbackOf(A, s.id)).toBe(500);
    expect(await stockOf(item.id)).toBe(4);
  });
});
