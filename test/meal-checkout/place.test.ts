import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { expireUnpaidOrders } from "../../src/modules/orders";
import { APP_1, countRows, db, serviceCtx, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, json, problem } from "../helpers/request";
import {
  cashbackOf,
  depositCashback,
  eventsWhere,
  orderEventTypes,
  rowOf,
  rowsOf,
  setConfig,
  voucherOf,
} from "../orders/helpers";
import { buyMealPlan, type MealShop, mealCustomerOf, mealShopFor, ORDERS, orderBody, payByCard } from "./helpers";

/**
 * Place Order (CA19) and what its payment makes: the meal subscription, active, with one suborder
 * per delivery date (its plan day by the menu cycle, its meals, window or pickup branch, location),
 * in the batch that pays the order, wherever it is paid (the checkout itself, the card gateway's
 * callback, a captured transfer). Unpaid orders make nothing. Orders List and Details (MM5).
 */

const A = 9931;
const B = 9932;
let shop: MealShop;
let other: MealShop;
const SUB_EVENTS = ["meal_subscription.created", "meal_subscription.activated"];

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_140_000);
  other = await mealShopFor(B, 9_150_000);
});
afterAll(() => setClock(null));

const KETO_DATES = ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"];

describe("Place Order paid by the wallet", () => {
  it("starts the subscription with one suborder per delivery date: plan day, meals, window, location", async () => {
    const b = await buyMealPlan(shop);
    expect(b.result).toMatchObject({ total_amount: 599, wallet_redeem_amount: 599, total_amount_with_redeem: 0 });
    expect(b.result.order).toMatchObject({
      kind: "meal",
      status: "completed",
      payment_status: "paid",
      payment_provider: "wallet",
    });
    expect(b.result.payment_url).toBeNull();
    expect(await cashbackOf(A, b.shopper.id)).toBe(0);
    // A meal order is one of the customer's orders in the merchant's statistics (MC3).
    const stats = await json(await shop.store.as(`/order/v1/merchant/customers/${b.shopper.id}/order-statistics/`));
    expect(stats).toMatchObject({ orders_count: 1, completed_orders_count: 1, total_spent: 599 });
    expect(b.subscription).toMatchObject({
      app_id: A,
      customer_id: b.shopper.id,
      order_id: b.orderId,
      restaurant_id: shop.restaurant,
      plan_id: shop.plans.keto,
      plan_version_id: shop.versions.keto,
      status: "active",
      start_date: "2026-03-03",
      end_date: "2026-03-10",
      num_of_days: 7,
      is_pickup: 0,
      delivery_window_id: shop.windows.morning,
      primary_location_id: b.locationId,
      renewed_from_id: null,
      channel_app_id: null,
    });
    expect(JSON.parse(b.subscription.location)).toMatchObject({
      id: b.locationId,
      latitude: "24.7",
      longitude: "46.7",
    });
    // Keto week's days are the demo's id(31..37), counters 1..7: the n-th delivery gets counter n + 1.
    expect(
      b.suborders.map((s) => ({
        date: s.date,
        original_date: s.original_date,
        plan_day_id: s.plan_day_id,
        status: s.status,
        window: s.delivery_window_id,
        location_id: s.location_id,
        meals: JSON.parse(s.meals),
        add_ons: JSON.parse(s.add_ons),
        is_frozen: s.is_frozen,
      })),
    ).toEqual(
      KETO_DATES.map((date, n) => ({
        date,
        original_date: date,
        plan_day_id: shop.meals.id(31 + n),
        status: "new",
        window: shop.windows.morning,
        location_id: b.locationId,
        meals: b.term.days[n]!.options,
        add_ons: [],
        is_frozen: 0,
      })),
    );
    expect(await rowOf("SELECT type, subscription_id FROM meal_orders WHERE order_id = ?", b.orderId)).toEqual({
      type: "subscription",
      subscription_id: b.subscriptionId,
    });
    for (const type of SUB_EVENTS)
      expect((await eventsWhere(A, [type], "id", b.subscriptionId)).map((e) => e.data)).toEqual([
        { id: b.subscriptionId, status: "active", channel_app_id: null },
      ]);
    expect(await orderEventTypes(A, b.orderId)).toEqual(["order.created", "order.paid", "order.completed"]);
  });

  it("the menu cycle repeats every `repetition` deliveries; the version's pause allowances are the subscription's", async () => {
    await shardFor(APP_1).prepare("UPDATE plans SET repetition = 3 WHERE id = ?").bind(other.plans.keto).run();
    const b = await buyMealPlan(other);
    const day = (n: number) => other.meals.id(31 + n);
    expect(b.suborders.map((s) => s.plan_day_id)).toEqual([day(0), day(1), day(2), day(0), day(1), day(2), day(0)]);
    expect(b.subscription).toMatchObject({ pause_credits: 0, pause_attempts_credits: 0 });
    const balanced = await buyMealPlan(other, { versionId: other.versions.balanced30 });
    expect(balanced.subscription).toMatchObject({ num_of_days: 30, pause_credits: 5, pause_attempts_credits: 2 });
    expect(balanced.suborders).toHaveLength(30);
    // Every delivery day but Friday, from 4 March (Balanced gives 2 days of notice).
    expect(balanced.suborders[0]!.date).toBe("2026-03-04");
    expect(balanced.suborders.some((s) => new Date(`${s.date}T00:00:00Z`).getUTCDay() === 5)).toBe(false);
  });

  it("a pickup: the suborders at the branch, without window or delivery fee", async () => {
    const b = await buyMealPlan(shop, { versionId: shop.versions.balanced20, pickup: true });
    expect(b.result).toMatchObject({ shipping_amount: 0, total_amount: 1799 });
    expect(b.subscription).toMatchObject({
      is_pickup: 1,
      pickup_branch_id: shop.branches.olaya,
      delivery_window_id: null,
    });
    expect(b.suborders).toHaveLength(20);
    expect(new Set(b.suborders.map((s) => `${s.is_pickup}/${s.pickup_branch_id}/${s.delivery_window_id}`))).toEqual(
      new Set([`1/${shop.branches.olaya}/null`]),
    );
  });
});

describe("Place Order with nothing to pay", () => {
  it("a 100% voucher: paid at once (free), the voucher used, the subscription started", async () => {
    const v = await voucherOf(shop.store, { kind: "percentage", value: 100 });
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { provider: "card" });
    const res = await c.shopper.as(ORDERS, { method: "POST", body: { ...body, voucher: v.code } });
    const out = await json(res);
    expect(res.status).toBe(201);
    expect(out).toMatchObject({
      total_amount: 0,
      payment_url: null,
      vouchers: [{ code: v.code, is_success: true, amount: 599 }],
    });
    expect(out.order).toMatchObject({ status: "completed", payment_provider: "free", payment_status: "paid" });
    expect(await rowOf("SELECT usage_count FROM vouchers WHERE id = ?", v.id)).toEqual({ usage_count: 1 });
    const sub = await rowOf("SELECT status FROM meal_subscriptions WHERE order_id = ?", out.order.id);
    expect(sub).toEqual({ status: "active" });
  });
});

describe("Place Order paid later", () => {
  it("card: pending, no subscription until the gateway's callback pays it", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { provider: "card" });
    const res = await c.shopper.as(ORDERS, { method: "POST", body });
    const placed = await json(res);
    expect(res.status).toBe(201);
    expect(placed.order).toMatchObject({ status: "pending", payment_status: "unpaid", kind: "meal" });
    const subs = () => countRows("meal_subscriptions", `order_id = ${placed.order.id}`);
    expect(await subs()).toBe(0);
    await payByCard(placed.payment_url, "fail");
    expect(await subs()).toBe(0);
    await payByCard(placed.payment_url);
    const sub = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", placed.order.id);
    expect(sub).toMatchObject({ status: "active", start_date: "2026-03-03", end_date: "2026-03-10" });
    expect(await rowsOf("SELECT date FROM suborders WHERE subscription_id = ? ORDER BY date", sub.id)).toEqual(
      KETO_DATES.map((date) => ({ date })),
    );
    expect((await eventsWhere(A, ["meal_subscription.activated"], "id", sub.id)).length).toBe(1);
    // Paying again (a reload of the button) changes nothing.
    await payByCard(placed.payment_url).catch(() => undefined);
    expect(await subs()).toBe(1);
    expect(await countRows("suborders", `subscription_id = ${sub.id}`)).toBe(7);
  });

  it("an unpaid order that expires or is cancelled leaves no subscription and no suborder", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { provider: "card" });
    const expiring = await json(await c.shopper.as(ORDERS, { method: "POST", body }));
    const cancelled = await json(await c.shopper.as(ORDERS, { method: "POST", body }));
    const cancel = await shop.store.as(`/order/v1/merchant/orders/${cancelled.order.id}/`, {
      method: "PATCH",
      body: { status: "cancelled" },
    });
    expect(cancel.status).toBe(200);
    const now = new Date(Date.parse(expiring.order.expires_at) + 1000).toISOString();
    await expireUnpaidOrders((appId) => serviceCtx(appId), db(), now);
    expect(await rowOf("SELECT status FROM orders WHERE id = ?", expiring.order.id)).toEqual({ status: "expired" });
    for (const r of [expiring, cancelled]) {
      const link = await call(new URL(r.payment_url).pathname + new URL(r.payment_url).search, { appId: null });
      expect(link.status).toBe(409);
      expect(await countRows("meal_subscriptions", `order_id = ${r.order.id}`)).toBe(0);
    }
    expect(await countRows("suborders", `customer_id = ${c.shopper.id}`)).toBe(0);
  });

  it("a bank transfer captured by the merchant starts it; cash on delivery too, once captured", async () => {
    for (const provider of ["bank_transfer", "cash_on_delivery"]) {
      const c = await mealCustomerOf(shop);
      const { body } = await orderBody(shop, c.locationId, { provider });
      const placed = await json(await c.shopper.as(ORDERS, { method: "POST", body }));
      expect(placed.order.status).toBe("pending");
      expect(await countRows("meal_subscriptions", `order_id = ${placed.order.id}`)).toBe(0);
      const tx = await rowOf(
        "SELECT id FROM transactions WHERE order_id = ? AND payment_provider = ?",
        placed.order.id,
        provider,
      );
      const res = await shop.store.as(`/order/v1/merchant/transactions/${tx.id}/capture/`, { method: "POST" });
      expect(res.status, await res.clone().text()).toBe(200);
      const sub = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", placed.order.id);
      expect(sub).toMatchObject({ status: "active", customer_id: c.shopper.id });
      expect(await countRows("suborders", `subscription_id = ${sub.id}`)).toBe(7);
    }
  });

  it("a provider the store does not take is a 409, and writes nothing", async () => {
    await setConfig(other.store, { enabled_providers: ["card", "wallet"] });
    const c = await mealCustomerOf(other);
    const { body } = await orderBody(other, c.locationId, { provider: "cash_on_delivery" });
    const res = await c.shopper.as(ORDERS, { method: "POST", body });
    expect(await problem(res)).toMatchObject({ status: 409, code: "payment_provider_disabled" });
    expect(await countRows("meal_orders", `customer_id = ${c.shopper.id}`)).toBe(0);
    // Not enough cashback for `wallet`: 409 insufficient_balance.
    const poor = await c.shopper.as(ORDERS, { method: "POST", body: { ...body, payment_provider: "wallet" } });
    expect(await problem(poor)).toMatchObject({ status: 409, code: "insufficient_balance", available: 0 });
  });
});

describe("Idempotency-Key", () => {
  it("the same key and body replay the first answer (one order); another body under it is a 409", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { provider: "card" });
    const headers = { "Idempotency-Key": `meal-${Date.now()}` };
    const first = await c.shopper.as(ORDERS, { method: "POST", body, headers });
    const again = await c.shopper.as(ORDERS, { method: "POST", body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const [a, b] = [await json(first), await json(again)];
    expect(b.order.id).toBe(a.order.id);
    expect(await countRows("meal_orders", `customer_id = ${c.shopper.id}`)).toBe(1);
    const changed = await c.shopper.as(ORDERS, { method: "POST", body: { ...body, notes: "other" }, headers });
    expect(await problem(changed)).toMatchObject({ status: 409, code: "idempotency_key_reused" });
  });
});

describe("List orders and Order Details (MM5)", () => {
  it("the customer's own meal orders with what they bought; another customer's or store's is a 404", async () => {
    const b = await buyMealPlan(shop, { versionId: shop.versions.balanced30 });
    await depositCashback(shop.store, b.shopper.id, 1);
    const res = await b.shopper.as(ORDERS);
    const page = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("listMyMealOrders", page)).toEqual([]);
    expect(page).toMatchObject({ count: 1, next: null, previous: null });
    expect(page.results[0]).toMatchObject({
      id: b.orderId,
      app_id: A,
      type: "subscription",
      status: "completed",
      payment_status: "paid",
      payment_method: "wallet",
      channel_app_id: null,
      customer_profile: { id: b.shopper.id, mobile_number: b.shopper.row.mobileNumber },
      subscription: { id: b.subscriptionId, name_en: "Balanced 30", name_ar: "المتوازن ٣٠", num_of_days: 30 },
      branch: null,
      start_date: "2026-03-04",
      end_date: b.subscription.end_date,
      num_of_days: 30,
      is_pickup: false,
      delivery_window_id: shop.windows.morning,
      primary_location_id: b.locationId,
      cart_amount: 2249.1,
      voucher_code: null,
      delivery_fee: 0,
      total_discounts: 0,
      total_amount: 2249.1,
      wallet_discounts: 2249.1,
      total_amount_with_redeem: 0,
      add_ons: [],
    });
    const details = await b.shopper.as(`${ORDERS}${b.orderId}/`);
    expect(details.status).toBe(200);
    expect(await json(details)).toEqual(page.results[0]);

    const stranger = await mealCustomerOf(shop);
    expect(await problem(await stranger.shopper.as(`${ORDERS}${b.orderId}/`))).toMatchObject({
      status: 404,
      code: "meal_order_not_found",
    });
    expect((await json(await stranger.shopper.as(ORDERS))).count).toBe(0);
    const elsewhere = await mealCustomerOf(other);
    expect((await elsewhere.shopper.as(`${ORDERS}${b.orderId}/`)).status).toBe(404);
    // The token of this store's customer with another store's app-id.
    expect(await problem(await call(ORDERS, { token: b.shopper.token, appId: B }))).toMatchObject({
      status: 403,
      code: "wrong_tenant",
    });
    // A filter and an unknown one.
    expect((await json(await b.shopper.as(`${ORDERS}?type=add_on`))).count).toBe(0);
    expect((await b.shopper.as(`${ORDERS}?colour=red`)).status).toBe(400);
  });
});

describe("who may call the customer routes", () => {
  it("no token is a 401; a merchant token a 403 wrong_principal", async () => {
    for (const [method, path] of [
      ["POST", ORDERS],
      ["POST", `${ORDERS}discounted-cart/`],
      ["POST", `${ORDERS}add-on/`],
      ["GET", ORDERS],
      ["GET", `${ORDERS}1/`],
      ["POST", "/api/v1/subscriptions/1/renew/"],
    ] as const) {
      expect(
        await problem(await call(path, { method, appId: A, body: method === "POST" ? {} : undefined })),
      ).toMatchObject({
        status: 401,
        code: "not_authenticated",
      });
      const res = await shop.store.as(path, { method, body: method === "POST" ? {} : undefined });
      expect(await problem(res), path).toMatchObject({ status: 403, code: "wrong_principal" });
    }
  });
});

describe("Place Order's D1 round trips", () => {
  it("waits for D1 at most twice beyond the token check: every read at once, then the order's batch", async () => {
    const c = await mealCustomerOf(shop);
    const { term, body } = await orderBody(shop, c.locationId);
    const voucher = await voucherOf(shop.store);
    await depositCashback(shop.store, c.shopper.id, (term.priceMinor + term.deliveryMinor) / 100);
    // A customer's first request in an isolate checks that the store exists, once per isolate, as
    // the token check is cached: the isolate sees one before the request counted here.
    expect((await c.shopper.as(ORDERS)).status).toBe(200);
    const { res, waits } = await callWaits(ORDERS, {
      method: "POST",
      body: { ...body, voucher: voucher.code },
      token: c.shopper.token,
      appId: A,
    });
    const result = await json(res);
    expect(res.status, JSON.stringify(result)).toBe(201);
    expect(result.vouchers).toMatchObject([{ code: voucher.code, is_success: true }]);
    expect(result.order).toMatchObject({ kind: "meal", status: "completed", payment_provider: "wallet" });
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
  });
});
