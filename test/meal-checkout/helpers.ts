import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { makeServiceContext } from "../../src/core/context";
import { todayIn } from "../../src/core/time";
import { versionPriceMinor } from "../../src/modules/meal-orders/checkout/pricing";
import { deliveryDates, planDayFor } from "../../src/modules/meal-orders/schedule";
import { earliestStartDate, planVersionForOrder } from "../../src/modules/meals";
import { APP_1, db, shardFor } from "../helpers/factories";
import { seedMealsFor } from "../helpers/meals";
import { call, json } from "../helpers/request";
import {
  depositCashback,
  locationOf,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  storeFor,
} from "../orders/helpers";

/**
 * Meal plans bought the way customers buy them (Place Order, then paid by the wallet or the
 * development card gateway), for any test that needs real meal subscriptions and suborders.
 *
 *   const shop = await mealShopFor(APP, BASE);          // the demo meals data, a zone over Riyadh
 *   const bought = await buyMealPlan(shop);              // Keto week, wallet, delivered
 *   bought.subscription, bought.suborders                // the rows Place Order's payment made
 *
 * `BASE` keeps the demo rows' ids apart between test files (ids are global): give each file its own.
 */

export const ORDERS = "/api/v1/orders/";

/** A point inside the zone `mealShopFor` gives Green Bowl, where `locationOf` puts customers. */
export const RIYADH_POINT = { latitude: 24.7, longitude: 46.7 };

export type MealShop = Awaited<ReturnType<typeof mealShopFor>>;

/**
 * A store with the demo meals data (Green Bowl's plans: Balanced 30 in 30 and 20 days, Keto week),
 * a merchant token, and a delivery zone of Green Bowl over central Riyadh (the demo delivers by
 * radius only) so that its windows serve customers at `RIYADH_POINT`.
 */
export async function mealShopFor(appId: number, base: number) {
  const meals = await seedMealsFor(appId, base);
  const store: Store = await storeFor(appId);
  await shardFor(APP_1)
    .prepare(
      `INSERT OR IGNORE INTO delivery_zones (id, app_id, restaurant_id, city_id, name_en, polygon, created_at, modified_at)
     VALUES (?, ?, ?, 1, 'Riyadh', '[[24.6,46.6],[24.6,46.8],[24.8,46.8],[24.8,46.6]]', '2026-01-01T00:00:00.000Z',
       '2026-01-01T00:00:00.000Z')`,
    )
    .bind(meals.id(900), appId, meals.green)
    .run();
  const id = meals.id;
  return {
    appId,
    store,
    meals,
    zone: id(900),
    restaurant: meals.green,
    /** Green Bowl's windows (06-09, 12-15) and Kabsa House's (another restaurant's). */
    windows: { morning: id(1), noon: id(2), kabsa: id(3) },
    /** Olaya (Riyadh, pickup) and Tahlia (Jeddah); Malaz is Kabsa House's. */
    branches: { olaya: id(1), tahlia: id(2), malaz: id(3) },
    /** Versions: Balanced 30 (30 days, 10% off), Balanced 20 (delivery 15), Keto week (7 days). */
    versions: { balanced30: id(1), balanced20: id(2), keto: id(3) },
    plans: { balanced: meals.balanced, keto: meals.keto },
  };
}

/** A customer of the shop with a location at `RIYADH_POINT`. */
export async function mealCustomerOf(shop: MealShop): Promise<{ shopper: Shopper; locationId: number }> {
  const shopper = await shopperOf(shop.appId);
  const location = await locationOf(shop.appId, shopper.id);
  return { shopper, locationId: location.id };
}

const contextOf = (appId: number) => makeServiceContext(db(appId), appId, env, () => undefined);

/**
 * The term of `versionId` from `startDate` (the earliest allowed by default): its delivery dates,
 * the plan day of each, and a full choice of meals (each category's first option, or its first
 * `perCategory` options), as Place Order's `dates` takes it.
 */
export async function termOf(appId: number, versionId: number, startDate?: string, perCategory = 1) {
  const p = await planVersionForOrder(contextOf(appId), versionId);
  if (!p) throw new Error(`version ${versionId} is not on sale in store ${appId}`);
  const start = startDate ?? earliestStartDate(p, todayIn(p.restaurant.timeZone));
  if (!start) throw new Error(`version ${versionId} cannot start`);
  const dates = deliveryDates(p, start);
  const days = dates.map((date, n) => {
    const planDayId = planDayFor(p, n);
    const options = p.categories
      .filter((c) => c.planDayId === planDayId)
      .map((c) => ({
        plan_category_id: c.id,
        option_ids: p.options
          .filter((o) => o.planCategoryId === c.id)
          .slice(0, c.isMultiSelect ? perCategory : 1)
          .map((o) => o.id),
      }));
    return { date, planDayId, options };
  });
  return {
    start,
    dates,
    days,
    body: days.map((d) => ({ date: d.date, options: d.options })),
    priceMinor: versionPriceMinor(p.version),
    deliveryMinor: p.version.deliveryPriceMinor,
  };
}

/** The body of Place Order for a delivery of `versionId` to the customer's location in the morning window. */
export async function orderBody(
  shop: MealShop,
  locationId: number,
  opts: { versionId?: number; startDate?: string; provider?: string; pickup?: boolean } = {},
) {
  const versionId = opts.versionId ?? shop.versions.keto;
  const term = await termOf(shop.appId, versionId, opts.startDate);
  const handOver = opts.pickup
    ? { is_pickup: true, pickup_branch_id: shop.branches.olaya }
    : { delivery_window_id: shop.windows.morning, primary_location_id: locationId };
  return {
    term,
    body: {
      plan_version_id: versionId,
      start_date: term.start,
      dates: term.body,
      ...handOver,
      payment_provider: opts.provider ?? "wallet",
    } as Record<string, unknown>,
  };
}

const ORIGIN = "https://api.test";
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** A browser following a link: no token, no app-id. */
const browse = (url: string, method = "GET") => call(pathOf(url), { appId: null, method });

/** Pays a pending card order as the customer would: the pay link, the development gateway's page, its Pay button. */
export async function payByCard(paymentUrl: string, outcome: "pay" | "fail" = "pay") {
  const link = await browse(paymentUrl);
  expect(link.status, await link.clone().text()).toBe(303);
  const html = await (await browse(link.headers.get("location")!)).text();
  const m = new RegExp(`<form method="post" action="([^"]+)"><button class="${outcome}"`).exec(html);
  expect(m, html).toBeTruthy();
  const res = await browse(`${ORIGIN}${m![1]!.replaceAll("&amp;", "&")}`, "POST");
  expect([200, 303]).toContain(res.status);
}

export type Bought = Awaited<ReturnType<typeof buyMealPlan>>;

/**
 * A meal plan bought and paid: Place Order for the customer (a new one with a Riyadh location by
 * default), paid by `wallet` (the price deposited as cashback first) or `card` (through the
 * development gateway). Returns the checkout result, the meal subscription row and its suborders
 * (by date). `body` overrides fields of Place Order's body.
 */
export async function buyMealPlan(
  shop: MealShop,
  opts: {
    customer?: { shopper: Shopper; locationId: number };
    versionId?: number;
    startDate?: string;
    provider?: "wallet" | "card";
    pickup?: boolean;
    body?: Record<string, unknown>;
  } = {},
) {
  const customer = opts.customer ?? (await mealCustomerOf(shop));
  const provider = opts.provider ?? "wallet";
  const { term, body } = await orderBody(shop, customer.locationId, { ...opts, provider });
  if (provider === "wallet") {
    const owed = term.priceMinor + (opts.pickup ? 0 : term.deliveryMinor);
    await depositCashback(shop.store, customer.shopper.id, owed / 100);
  }
  const res = await customer.shopper.as(ORDERS, { method: "POST", body: { ...body, ...opts.body } });
  const result = await json(res);
  expect(res.status, JSON.stringify(result)).toBe(201);
  if (provider === "card") await payByCard(result.payment_url);
  const orderId = result.order.id as number;
  const subscription = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", orderId);
  expect(subscription, `order ${orderId} started no subscription`).toBeTruthy();
  const suborders = await rowsOf("SELECT * FROM suborders WHERE subscription_id = ? ORDER BY date", subscription.id);
  return {
    ...customer,
    result,
    orderId,
    term,
    subscription,
    subscriptionId: subscription.id as number,
    suborders,
  };
}
