import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { json as read } from "../helpers/request";
import {
  cartOf,
  cashbackOf,
  checkedOut,
  depositCashback,
  type Store,
  setConfig,
  shopperOf,
  stocked,
  storeFor,
} from "./helpers";

// A store of this file's own: its checkout config changes.
const C = 8233;
let configured: Store;

beforeAll(async () => {
  configured = await storeFor(C);
});

/** How long a placed order waits for its payment: from its creation to its expiry (both of one instant of the checkout). */
const ttlMinutes = (order: { created_at: string; expires_at: string }) =>
  (Date.parse(order.expires_at) - Date.parse(order.created_at)) / 60_000;

describe("Checkout with wallet redemption turned off", () => {
  // With redemption off, carts price no redemption: what the cart shows is what checkout charges.
  it("with wallet redemption off, a cart's redemption is not taken off, or the move is flagged", async () => {
    const s = await shopperOf(C);
    const item = await stocked(C, 2000, 5);
    await depositCashback(configured, s.id, 10);
    try {
      await setConfig(configured, { is_wallet_redeem_enabled: false });
      const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], wallet_redeem_amount: 5 });
      const r = await checkedOut(s, cart.id, { payment_provider: "card" });
      expect(r.total_amount_with_redeem).toBe(20);
      expect(await cashbackOf(C, s.id)).toBe(1000);
      // What the customer was shown, and what they are charged, must agree unless flagged.
      expect(r.cart_price_updated || cart.total_cart_price === r.total_amount_with_redeem).toBe(true);
    } finally {
      await setConfig(configured, { is_wallet_redeem_enabled: true });
    }
  });
});

describe("Checkout Config (MO3)", () => {
  it("serves the defaults, validates a change, and shows the customer the same", async () => {
    const fresh = await storeFor(8204);
    const got = await read(await fresh.as("/order/v1/merchant/checkout/config/"));
    expect(got).toMatchObject({
      enabled_providers: ["card", "wallet", "cash_on_delivery", "bank_transfer"],
      min_order_amount: 0,
      payment_ttl_minutes: 30,
      bank_transfer_ttl_hours: 72,
      is_wallet_redeem_enabled: true,
    });
    expect(schemaErrors("getCheckoutConfig", got)).toEqual([]);
    for (const body of [
      {},
      { enabled_providers: [] },
      { enabled_providers: ["card", "card"] },
      { payment_ttl_minutes: 1 },
      { min_order_amount: 1.001 },
    ]) {
      const res = await fresh.as("/order/v1/merchant/checkout/config/", { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const changed = await setConfig(fresh, { payment_ttl_minutes: 15 });
    expect(changed).toMatchObject({
      payment_ttl_minutes: 15,
      enabled_providers: ["card", "wallet", "cash_on_delivery", "bank_transfer"],
    });
    const s = await shopperOf(8204);
    expect(await read(await s.as("/order/v1/checkout/config/"))).toEqual(changed);
    const item = await stocked(8204, 1000, 5);
    const r = await checkedOut(s, (await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] })).id, {
      payment_provider: "card",
    });
    expect(ttlMinutes(r.order)).toBe(15);
  });
});
