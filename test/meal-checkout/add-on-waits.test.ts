import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { callWaits, json, problem } from "../helpers/request";
import { depositCashback } from "../orders/helpers";
import { type Bought, buyMealPlan, type MealShop, mealShopFor, ORDERS } from "./helpers";

/**
 * How long the add-on calls keep a customer waiting on D1, counted in round trips one after another
 * beyond the customer's standing check (test/helpers/d1-waits.ts), never timed: the subscription,
 * its restaurant (through the subscription's row), the products, the suborders and the prices'
 * inputs at once; then, for the order, its one guarded batch.
 */

const A = 9964;
let shop: MealShop;
let bought: Bought;

beforeAll(async () => {
  // Monday noon in Riyadh, cutoff 24 h: the 4th's deliveries are still open.
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_220_000);
  bought = await buyMealPlan(shop);
});
afterAll(() => setClock(null));

const on = (date: string) => bought.suborders.find((s) => s.date === date)!.id as number;
const body = (extra: Record<string, unknown> = {}) => ({
  subscription_id: bought.subscriptionId,
  add_ons: [{ suborder_id: on("2026-03-04"), product_id: shop.meals.id(1), qty: 1 }],
  payment_provider: "wallet",
  ...extra,
});
const send = (path: string, b: Record<string, unknown>) =>
  callWaits(`${ORDERS}${path}`, { method: "POST", body: b, token: bought.shopper.token, appId: A });

describe("D1 round trips of the add-on calls", () => {
  it("prices the add-ons in one round trip and places their order in two", async () => {
    await depositCashback(shop.store, bought.shopper.id, 50);
    const cart = await send("add-on/redeemed-cart/", body({ is_redeeming: true }));
    const price = await json(cart.res);
    expect(cart.res.status, JSON.stringify(price)).toBe(200);
    expect(price).toMatchObject({ subscription_id: bought.subscriptionId, delivery_dates: ["2026-03-04"] });
    expect(cart.waits.beyondAuth).toBeLessThanOrEqual(1);

    const placed = await send("add-on/", body({ is_redeeming: true }));
    const out = await json(placed.res);
    expect(placed.res.status, JSON.stringify(out)).toBe(201);
    expect(out.order).toMatchObject({ kind: "meal", status: "completed", total_amount: price.total_amount });
    expect(placed.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("refuses another customer's subscription with a 404 in one round trip", async () => {
    const other = await buyMealPlan(shop);
    const res = await callWaits(`${ORDERS}add-on/redeemed-cart/`, {
      method: "POST",
      body: body(),
      token: other.shopper.token,
      appId: A,
    });
    expect(res.res.status).toBe(404);
    expect((await problem(res.res)).code).toBe("meal_subscription_not_found");
    expect(res.waits.beyondAuth).toBeLessThanOrEqual(1);
  });
});
