import { beforeAll, describe, expect, it } from "vitest";
import { ensureTenant } from "../helpers/factories";
import { problem, json as read } from "../helpers/request";
import {
  cartOf,
  checkedOut,
  checkout,
  rowOf,
  type Shopper,
  type Store,
  setConfig,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
  writtenCounts,
} from "./helpers";

// Stores of this file's own: 8211 (checkouts), 8213 (its checkout config changes).
const A = 8211;
const C = 8213;
let configured: Store;

beforeAll(async () => {
  await ensureTenant(A);
  configured = await storeFor(C);
});

const ordersOfCart = async (cartId: number) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM orders WHERE cart_id = ?", cartId)).n;

describe("Checkout refusals (409), each writing nothing", () => {
  async function refused(s: Shopper, cartId: number, body: Record<string, unknown>, code: string, appId = A) {
    const before = await writtenCounts(appId);
    const res = await checkout(s, cartId, body);
    expect(res.status).toBe(409);
    const p = await problem(res);
    expect(p.code).toBe(code);
    expect(await writtenCounts(appId)).toEqual(before);
    return p;
  }

  it("a cart already checked out names its order", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const r = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    const p = await refused(s, cart.id, { payment_provider: "cash_on_delivery" }, "cart_checked_out");
    expect(p.order_id).toBe(r.order.id);
    expect(await stockOf(item.id)).toBe(4);
  });

  it("an empty cart", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    await rowOf("DELETE FROM cart_items WHERE cart_id = ? RETURNING id", cart.id);
    await refused(s, cart.id, { payment_provider: "card" }, "cart_empty");
  });

  it("an item deleted since the cart was made (item_unavailable names it)", async () => {
    const s = await shopperOf(A);
    const [kept, gone] = await Promise.all([stocked(A, 1000, 5), stocked(A, 500, 5)]);
    const cart = await cartOf(s, {
      items: [
        { item_id: kept.id, qty: 1 },
        { item_id: gone.id, qty: 1 },
      ],
    });
    await rowOf("UPDATE items SET is_deleted = 1 WHERE id = ? RETURNING id", gone.id);
    const p = await refused(s, cart.id, { payment_provider: "card" }, "item_unavailable");
    expect(p.item_id).toBe(gone.id);
    expect(await stockOf(kept.id)).toBe(5);
  });

  it("more than the stock: insufficient_stock with what is available", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 1);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }] });
    const p = await refused(s, cart.id, { payment_provider: "card" }, "insufficient_stock");
    expect(p).toMatchObject({ item_id: item.id, available: 1 });
    expect(await stockOf(item.id)).toBe(1);
  });

  it("a provider the store turned off, and a total below the store's minimum order", async () => {
    const s = await shopperOf(C);
    const item = await stocked(C, 2000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    try {
      const config = await setConfig(configured, { enabled_providers: ["card", "wallet"], min_order_amount: 50 });
      expect(config).toMatchObject({ enabled_providers: ["card", "wallet"], min_order_amount: 50 });
      const mine = await read(await s.as("/order/v1/checkout/config/"));
      expect(mine).toMatchObject({ enabled_providers: ["card", "wallet"], min_order_amount: 50 });

      const off = await refused(s, cart.id, { payment_provider: "bank_transfer" }, "payment_provider_disabled", C);
      expect(off.enabled_providers).toEqual(["card", "wallet"]);
      const low = await refused(s, cart.id, { payment_provider: "card" }, "below_minimum_order", C);
      expect(low.min_order_amount).toBe(50);

      await setConfig(configured, { min_order_amount: 20 });
      const r = await checkedOut(s, cart.id, { payment_provider: "card" });
      expect(r.payment_methods.map((g: { provider_id: string }) => g.provider_id)).toEqual(["card", "wallet"]);
    } finally {
      await setConfig(configured, {
        enabled_providers: ["card", "wallet", "cash_on_delivery", "bank_transfer"],
        min_order_amount: 0,
      });
    }
  });

  it("validates the body: an unknown provider or return URL that is not http(s) is a 400", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    for (const body of [
      {},
      { payment_provider: "free" },
      { payment_provider: "card", success_url: "javascript:alert(1)" },
      { payment_provider: "card", extra: 1 },
    ]) {
      const res = await checkout(s, cart.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await ordersOfCart(cart.id)).toBe(0);
  });
});
