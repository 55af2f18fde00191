import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { callWaits, json } from "../helpers/request";
import { depositCashback, rowOf } from "../orders/helpers";
import { buyMealPlan, type MealShop, mealShopFor } from "./helpers";

/**
 * How long Renew Subscription keeps a customer waiting on D1, counted in round trips one after
 * another beyond the customer's standing check (test/helpers/d1-waits.ts), never timed: what the
 * path's id keys (the subscription, its renewals, its meals, the prices' inputs, and its plan version,
 * read by the meals side through the subscription's row) at once; then the order's one guarded batch.
 * A refusal for a renewal already made reads the renewal orders in a second round trip.
 */

const A = 9957;
let shop: MealShop;

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_100_000);
});
afterAll(() => setClock(null));

const renew = (id: number) => `/api/v1/subscriptions/${id}/renew/`;

describe("D1 round trips of Renew Subscription", () => {
  it("renews in two round trips, and refuses a second renewal in two", async () => {
    const b = await buyMealPlan(shop);
    await depositCashback(shop.store, b.shopper.id, 599);
    const opts = { method: "POST", body: { payment_provider: "wallet" }, token: b.shopper.token, appId: A };
    const { res, waits } = await callWaits(renew(b.subscriptionId), opts);
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(out.order).toMatchObject({ kind: "meal", status: "completed", total_amount: 599 });
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await rowOf("SELECT type, subscription_id FROM meal_orders WHERE order_id = ?", out.order.id)).toEqual({
      type: "renewal",
      subscription_id: b.subscriptionId,
    });
    expect(await rowOf("SELECT renewed_from_id FROM meal_subscriptions WHERE order_id = ?", out.order.id)).toEqual({
      renewed_from_id: b.subscriptionId,
    });

    const again = await callWaits(renew(b.subscriptionId), opts);
    expect(again.res.status).toBe(409);
    expect(await json(again.res)).toMatchObject({ code: "subscription_already_renewed", order_id: out.order.id });
    expect(again.waits.beyondAuth).toBeLessThanOrEqual(2);
  });
});
