import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { APP_1, countRows, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { json, problem } from "../helpers/request";
import { depositCashback, eventsWhere, rowsOf, writtenCounts } from "../orders/helpers";
import { type Bought, buyMealPlan, type MealShop, mealCustomerOf, mealShopFor, ORDERS, payByCard } from "./helpers";

/**
 * Add-On Order and Redeemed Add-Ons Cart (MM5): menu products of the subscription's restaurant for
 * some of its deliveries, before the provider's cutoff; they reach the suborders' `add_ons` when
 * the order is paid.
 */

const A = 9941;
let shop: MealShop;
let bought: Bought;

const ADD_ON = `${ORDERS}add-on/`;
const CART = `${ORDERS}add-on/redeemed-cart/`;

beforeAll(async () => {
  // Monday noon in Riyadh, cutoff 24 h: the 3rd's deliveries are fixed, the 4th's still open.
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_160_000);
  bought = await buyMealPlan(shop);
});
afterAll(() => setClock(null));

const on = (date: string) => bought.suborders.find((s) => s.date === date)!.id as number;
/** Oat bowl (18.00 less 10%: 16.20) and Shakshuka (20.50), of Green Bowl's menu. */
const oat = () => shop.meals.id(1);
const shakshuka = () => shop.meals.id(2);

const body = (extra: Record<string, unknown> = {}) => ({
  subscription_id: bought.subscriptionId,
  add_ons: [
    { suborder_id: on("2026-03-04"), product_id: oat(), qty: 2 },
    { suborder_id: on("2026-03-05"), product_id: shakshuka(), qty: 1 },
  ],
  payment_provider: "wallet",
  ...extra,
});

describe("Redeemed Add-Ons Cart", () => {
  it("prices the products at their price after their discount, with the cashback when asked", async () => {
    await depositCashback(shop.store, bought.shopper.id, 10);
    const res = await bought.shopper.as(CART, { method: "POST", body: body({ is_redeeming: true }) });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(schemaErrors("getMealAddOnRedeemedCart", out)).toEqual([]);
    expect(out).toMatchObject({
      subscription_id: bought.subscriptionId,
      delivery_dates: ["2026-03-04", "2026-03-05"],
      cart_amount: 52.9,
      delivery_fee: 0,
      total_amount: 52.9,
      wallet_balance: 10,
      wallet_discounts: 10,
      total_amount_with_redeem: 42.9,
    });
    expect(
      out.lines.map((l: { name_en: string; qty: number; unit_price: number }) => [l.name_en, l.qty, l.unit_price]),
    ).toEqual([
      ["Oat bowl (2026-03-04)", 2, 16.2],
      ["Shakshuka (2026-03-05)", 1, 20.5],
    ]);
  });
});

describe("Add-On Order", () => {
  it("paid: the products join the suborders' add_ons in the paying batch (suborder.updated)", async () => {
    await depositCashback(shop.store, bought.shopper.id, 42.9);
    const res = await bought.shopper.as(ADD_ON, { method: "POST", body: body() });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(out.order).toMatchObject({ kind: "meal", status: "completed", total_amount: 52.9 });
    const rows = await rowsOf(
      "SELECT id, date, add_ons FROM suborders WHERE subscription_id = ? ORDER BY date",
      bought.subscriptionId,
    );
    expect(rows.map((r) => [r.date, JSON.parse(r.add_ons)])).toEqual([
      ["2026-03-03", []],
      ["2026-03-04", [{ product_id: oat(), qty: 2, order_id: out.order.id }]],
      ["2026-03-05", [{ product_id: shakshuka(), qty: 1, order_id: out.order.id }]],
      ["2026-03-07", []],
      ["2026-03-08", []],
      ["2026-03-09", []],
      ["2026-03-10", []],
    ]);
    for (const date of ["2026-03-04", "2026-03-05"])
      expect((await eventsWhere(A, ["suborder.updated"], "id", on(date))).map((e) => e.data)).toEqual([
        { id: on(date), subscription_id: bought.subscriptionId, date, fields: ["add_ons"] },
      ]);
    const listed = await json(await bought.shopper.as(`${ORDERS}?type=add_on`));
    expect(listed.results).toEqual([
      expect.objectContaining({
        id: out.order.id,
        type: "add_on",
        subscription: { id: bought.subscriptionId, name_en: "Keto week", name_ar: "أسبوع الكيتو", num_of_days: 7 },
        num_of_days: 0,
        add_ons: body().add_ons,
      }),
    ]);
  });

  it("by card: nothing added until it is paid; a second order adds to what is there", async () => {
    const res = await bought.shopper.as(ADD_ON, {
      method: "POST",
      body: body({
        payment_provider: "card",
        add_ons: [{ suborder_id: on("2026-03-04"), product_id: shakshuka(), qty: 1 }],
      }),
    });
    const out = await json(res);
    expect(res.status).toBe(201);
    const addOns = async () =>
      JSON.parse((await rowsOf("SELECT add_ons FROM suborders WHERE id = ?", on("2026-03-04")))[0]!.add_ons);
    expect(await addOns()).toHaveLength(1);
    await payByCard(out.payment_url);
    expect(await addOns()).toEqual([
      expect.objectContaining({ product_id: oat(), qty: 2 }),
      { product_id: shakshuka(), qty: 1, order_id: out.order.id },
    ]);
  });

  it("a delivery past the cutoff: 409 suborder_past_cutoff with the first date still open; nothing written", async () => {
    const before = await writtenCounts(A);
    const res = await bought.shopper.as(ADD_ON, {
      method: "POST",
      body: body({ add_ons: [{ suborder_id: on("2026-03-03"), product_id: oat(), qty: 1 }] }),
    });
    expect(await problem(res)).toMatchObject({
      status: 409,
      code: "suborder_past_cutoff",
      suborder_id: on("2026-03-03"),
      first_valid_date: "2026-03-04",
    });
    expect(await writtenCounts(A)).toEqual(before);
  });

  it("another restaurant's product, another subscription's suborder: 400 naming each", async () => {
    const mine = await buyMealPlan(shop);
    const res = await bought.shopper.as(CART, {
      method: "POST",
      body: body({
        add_ons: [
          { suborder_id: on("2026-03-04"), product_id: shop.meals.lambKabsa, qty: 1 },
          { suborder_id: mine.suborders[3]!.id, product_id: oat(), qty: 1 },
        ],
      }),
    });
    expect((await problem(res)).errors).toEqual({
      "add_ons.0.product_id": [`Not a product of restaurant ${shop.restaurant}'s menu that is in stock.`],
      "add_ons.1.suborder_id": [`Not a suborder of subscription ${bought.subscriptionId} still to be delivered.`],
    });
  });

  it("another customer's subscription is a 404; one not active a 409", async () => {
    const stranger = await mealCustomerOf(shop);
    const res = await stranger.shopper.as(ADD_ON, { method: "POST", body: body() });
    expect(await problem(res)).toMatchObject({ status: 404, code: "meal_subscription_not_found" });
    const paused = await buyMealPlan(shop);
    await shardFor(APP_1)
      .prepare("UPDATE meal_subscriptions SET status = 'paused' WHERE id = ?")
      .bind(paused.subscriptionId)
      .run();
    const refused = await paused.shopper.as(ADD_ON, {
      method: "POST",
      body: {
        subscription_id: paused.subscriptionId,
        add_ons: [{ suborder_id: paused.suborders[3]!.id, product_id: oat(), qty: 1 }],
        payment_provider: "card",
      },
    });
    expect(await problem(refused)).toMatchObject({
      status: 409,
      code: "meal_subscription_not_active",
      subscription_status: "paused",
    });
    expect(await countRows("meal_orders", `customer_id = ${paused.shopper.id} AND type = 'add_on'`)).toBe(0);
  });
});
