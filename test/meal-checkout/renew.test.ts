import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { APP_1, countRows, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { json, problem } from "../helpers/request";
import { depositCashback, eventsWhere, rowOf, rowsOf } from "../orders/helpers";
import { buyMealPlan, type MealShop, mealCustomerOf, mealShopFor } from "./helpers";

/**
 * Renew Subscription (MM1): the next term as a new order of the same version, from the first date
 * after the subscription's end, with its window, location and meals per day of the menu cycle;
 * paid, it starts a new subscription linked by `renewed_from_id`.
 */

const A = 9951;
let shop: MealShop;

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_170_000);
});
afterAll(() => setClock(null));

const renew = (id: number) => `/api/v1/subscriptions/${id}/renew/`;
const NEXT_TERM = ["2026-03-11", "2026-03-12", "2026-03-14", "2026-03-15", "2026-03-16", "2026-03-17", "2026-03-18"];

describe("Renew Subscription", () => {
  it("paid by the wallet: a new subscription after the end date, same window and meals per plan day", async () => {
    const b = await buyMealPlan(shop);
    // The customer changed the first day's meals: the renewal carries the change.
    const first = JSON.parse(b.suborders[0]!.meals) as { plan_category_id: number; option_ids: number[] }[];
    const second = await rowOf<{ id: number }>(
      "SELECT id FROM plan_options WHERE plan_category_id = ? AND id <> ? ORDER BY id LIMIT 1",
      first[0]!.plan_category_id,
      first[0]!.option_ids[0],
    );
    const changed = [{ ...first[0]!, option_ids: [second.id] }, ...first.slice(1)];
    await shardFor(APP_1)
      .prepare("UPDATE suborders SET meals = ? WHERE id = ?")
      .bind(JSON.stringify(changed), b.suborders[0]!.id)
      .run();
    await depositCashback(shop.store, b.shopper.id, 599);

    const res = await b.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "wallet" } });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(schemaErrors("renewMealSubscription", out, "201")).toEqual([]);
    expect(out.order).toMatchObject({ kind: "meal", status: "completed", total_amount: 599 });
    expect(
      await rowOf(
        "SELECT type, subscription_id, start_date, end_date FROM meal_orders WHERE order_id = ?",
        out.order.id,
      ),
    ).toEqual({
      type: "renewal",
      subscription_id: b.subscriptionId,
      start_date: "2026-03-11",
      end_date: "2026-03-18",
    });
    const next = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", out.order.id);
    expect(next).toMatchObject({
      status: "active",
      renewed_from_id: b.subscriptionId,
      start_date: "2026-03-11",
      end_date: "2026-03-18",
      delivery_window_id: shop.windows.morning,
      primary_location_id: b.locationId,
      customer_id: b.shopper.id,
    });
    const suborders = await rowsOf(
      "SELECT date, plan_day_id, meals FROM suborders WHERE subscription_id = ? ORDER BY date",
      next.id,
    );
    expect(suborders.map((s) => s.date)).toEqual(NEXT_TERM);
    expect(suborders.map((s) => s.plan_day_id)).toEqual(b.suborders.map((s) => s.plan_day_id));
    expect(JSON.parse(suborders[0]!.meals)).toEqual(changed);
    expect(suborders.slice(1).map((s) => JSON.parse(s.meals))).toEqual(
      b.suborders.slice(1).map((s) => JSON.parse(s.meals)),
    );
    expect((await eventsWhere(A, ["meal_subscription.renewed"], "id", b.subscriptionId)).map((e) => e.data)).toEqual([
      { id: b.subscriptionId, status: "active", channel_app_id: null, renewed_to_id: next.id },
    ]);
    expect((await eventsWhere(A, ["meal_subscription.created"], "id", next.id)).length).toBe(1);

    // One renewal per subscription.
    const again = await b.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "wallet" } });
    expect(await problem(again)).toMatchObject({
      status: 409,
      code: "subscription_already_renewed",
      order_id: out.order.id,
    });
  });

  it("a pending renewal blocks another until it is cancelled; the key replays the first answer", async () => {
    const b = await buyMealPlan(shop);
    const headers = { "Idempotency-Key": `renew-${b.subscriptionId}` };
    const first = await b.shopper.as(renew(b.subscriptionId), {
      method: "POST",
      body: { payment_provider: "card" },
      headers,
    });
    const replay = await b.shopper.as(renew(b.subscriptionId), {
      method: "POST",
      body: { payment_provider: "card" },
      headers,
    });
    const placed = await json(first);
    expect(first.status).toBe(201);
    expect(placed.order.status).toBe("pending");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await json(replay)).order.id).toBe(placed.order.id);
    expect(await countRows("meal_subscriptions", `renewed_from_id = ${b.subscriptionId}`)).toBe(0);
    const blocked = await b.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "card" } });
    expect(await problem(blocked)).toMatchObject({ status: 409, code: "subscription_already_renewed" });
    const cancel = await shop.store.as(`/order/v1/merchant/orders/${placed.order.id}/`, {
      method: "PATCH",
      body: { status: "cancelled" },
    });
    expect(cancel.status).toBe(200);
    const retried = await b.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "card" } });
    expect(retried.status).toBe(201);
  });

  it("another customer's subscription is a 404; a cancelled one a 409", async () => {
    const b = await buyMealPlan(shop);
    const stranger = await mealCustomerOf(shop);
    expect(
      await problem(
        await stranger.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "card" } }),
      ),
    ).toMatchObject({
      status: 404,
      code: "meal_subscription_not_found",
    });
    await shardFor(APP_1)
      .prepare("UPDATE meal_subscriptions SET status = 'cancelled' WHERE id = ?")
      .bind(b.subscriptionId)
      .run();
    expect(
      await problem(
        await b.shopper.as(renew(b.subscriptionId), { method: "POST", body: { payment_provider: "card" } }),
      ),
    ).toMatchObject({
      status: 409,
      code: "meal_subscription_not_active",
      subscription_status: "cancelled",
    });
  });
});
