import { expect } from "vitest";
import { setClock } from "../../src/core/clock";
import type { Weekday } from "../../src/core/fields";
import { chunkRows } from "../../src/core/sql";
import { mealOrders, mealSubscriptions, suborders } from "../../src/modules/meal-orders/tables";
import { addDays, isOpen } from "../../src/modules/meals/dates";
import {
  deliveryWindows,
  deliveryZones,
  planCategories,
  planDays,
  planOptions,
  plans,
  planVersions,
  restaurantBranches,
  restaurants,
} from "../../src/modules/meals/tables";
import { APP_1, db, shardFor } from "../helpers/factories";
import { json } from "../helpers/request";
import { locationOf, type Shopper, type Store, shopperOf, storeFor } from "../orders/helpers";

/**
 * A meals store for the subscription tests, inserted directly (until Place Order makes them): a
 * restaurant with its time zone, off days, closed dates and cutoff; a pickup branch, a zone around
 * the customer's location (24.7, 46.7) and two windows serving subscriptions; a plan with a version
 * carrying the pause rules and two plan days of two categories each; a second restaurant (whose
 * window and branch do not serve the first's deliveries). Subscriptions and their suborders are
 * inserted by `subscriptionOf`.
 */

export const SUBS = "/api/v1/subscriptions/";
export const SUBORDERS = "/api/v1/suborders/";

export type MealStoreOptions = {
  timeZone?: string;
  cutoffHours?: number;
  offDays?: Weekday[];
  closedDates?: string[];
  versionOffDays?: Weekday[];
  pauseCredits?: number | null;
  numOfPauseAttempts?: number | null;
  minOfPauseDays?: number | null;
  skipOptionSelection?: boolean;
};

export async function mealStoreOf(appId: number, o: MealStoreOptions = {}) {
  const store = await storeFor(appId);
  const d = db(appId);
  const [r, other] = await d
    .insert(restaurants)
    .values([
      {
        appId,
        nameEn: "Green Bowl",
        nameAr: "الوعاء الأخضر",
        restType: "subscription" as const,
        timeZone: o.timeZone ?? "Asia/Riyadh",
        cutoffHours: o.cutoffHours ?? 24,
        offDays: o.offDays ?? ["friday"],
        closedDates: o.closedDates ?? [],
        supportsPickup: true,
      },
      { appId, nameEn: "Other", nameAr: "آخر", restType: "subscription" as const, supportsPickup: true },
    ])
    .returning();
  const [pickup, pickup2, otherBranch] = await d
    .insert(restaurantBranches)
    .values([
      { appId, restaurantId: r!.id, nameEn: "Olaya", nameAr: "العليا", cityId: 1, lat: 24.69, lng: 46.68 },
      { appId, restaurantId: r!.id, nameEn: "Malaz", nameAr: "الملز", cityId: 1, lat: 24.66, lng: 46.73 },
      { appId, restaurantId: other!.id, nameEn: "Far", nameAr: "بعيد", cityId: 1, lat: 21.5, lng: 39.2 },
    ])
    .returning();
  await d.insert(deliveryZones).values({
    appId,
    restaurantId: r!.id,
    cityId: 1,
    nameEn: "Central",
    polygon: [
      [24.6, 46.6],
      [24.6, 46.8],
      [24.8, 46.8],
      [24.8, 46.6],
    ],
  });
  const [morning, evening, onDemand, otherWindow] = await d
    .insert(deliveryWindows)
    .values([
      { appId, restaurantId: r!.id, fromTime: "06:00:00", toTime: "09:00:00", type: "subscription" as const },
      { appId, restaurantId: r!.id, fromTime: "18:00:00", toTime: "21:00:00", type: "both" as const },
      { appId, restaurantId: r!.id, fromTime: "12:00:00", toTime: "13:00:00", type: "on_demand" as const },
      { appId, restaurantId: other!.id, fromTime: "06:00:00", toTime: "09:00:00", type: "both" as const },
    ])
    .returning();
  const [plan] = await d
    .insert(plans)
    .values({
      appId,
      restaurantId: r!.id,
      menuId: 0,
      nameEn: "Balanced",
      nameAr: "متوازن",
      dailyNumOfItems: 2,
      subscriptionType: "monthly",
      repetition: 2,
      sizeTitle: "M",
      sizeProteinAmount: 150,
      skipOptionSelection: o.skipOptionSelection ?? false,
    })
    .returning();
  const [version] = await d
    .insert(planVersions)
    .values({
      appId,
      planId: plan!.id,
      minStartDate: "2026-01-01",
      maxStartDate: "2027-12-31",
      offDays: o.versionOffDays ?? [],
      numOfDays: 20,
      totalNumOfItems: 40,
      originalPriceMinor: 100_000,
      pauseCredits: o.pauseCredits === undefined ? 10 : o.pauseCredits,
      numOfPauseAttempts: o.numOfPauseAttempts === undefined ? 2 : o.numOfPauseAttempts,
      minOfPauseDays: o.minOfPauseDays === undefined ? 3 : o.minOfPauseDays,
    })
    .returning();
  const days = [];
  for (const counter of [1, 2]) {
    const [day] = await d
      .insert(planDays)
      .values({ appId, planId: plan!.id, restaurantId: r!.id, day: `Day ${counter}`, repetitionCounter: counter })
      .returning();
    const cats = await d
      .insert(planCategories)
      .values([
        { appId, planId: plan!.id, planDayId: day!.id, nameEn: "Breakfast", nameAr: "فطور", maxSelectedOptions: 1 },
        { appId, planId: plan!.id, planDayId: day!.id, nameEn: "Lunch", nameAr: "غداء", maxSelectedOptions: 2 },
      ])
      .returning();
    const categories = [];
    for (const c of cats) {
      const opts = await d
        .insert(planOptions)
        .values(
          [1, 2, 3].map((n) => ({ appId, planId: plan!.id, planCategoryId: c.id, productId: n, isActive: n < 3 })),
        )
        .returning();
      categories.push({
        id: c.id,
        max: c.maxSelectedOptions,
        options: opts.filter((x) => x.isActive).map((x) => x.id),
        inactive: opts.filter((x) => !x.isActive).map((x) => x.id),
      });
    }
    days.push({ id: day!.id, categories });
  }
  return {
    ...store,
    restaurant: r!,
    other: other!,
    branches: { pickup: pickup!, pickup2: pickup2!, other: otherBranch! },
    windows: { morning: morning!, evening: evening!, onDemand: onDemand!, other: otherWindow! },
    plan: plan!,
    version: version!,
    days,
  };
}

export type MealStore = Awaited<ReturnType<typeof mealStoreOf>>;

/** A customer of the store with a location inside the restaurant's zone. */
export async function customerOf(m: Store) {
  const s = await shopperOf(m.appId);
  const location = await locationOf(m.appId, s.id);
  return { ...s, location };
}

export type MealCustomer = Shopper & { location: Awaited<ReturnType<typeof locationOf>> };

/** The restaurant's delivery dates from `start`: its off days and closed dates skipped. */
export function deliveryDates(m: MealStore, start: string, count: number): string[] {
  const closures = { offDays: [...m.restaurant.offDays, ...m.version.offDays], closedDates: m.restaurant.closedDates };
  const out: string[] = [];
  for (let d = start; out.length < count; d = addDays(d, 1)) if (isOpen(d, closures)) out.push(d);
  return out;
}

/**
 * A meal subscription of the customer with one suborder per delivery date from `start` (plan days
 * alternating), and its meal order; `orderId` names an order of the orders module when given.
 */
export async function subscriptionOf(
  m: MealStore,
  c: MealCustomer,
  o: {
    start: string;
    count?: number;
    isPickup?: boolean;
    orderId?: number;
    subscription?: Partial<typeof mealSubscriptions.$inferInsert>;
  },
) {
  const dates = deliveryDates(m, o.start, o.count ?? 6);
  const d = db(m.appId);
  const location = { id: c.location.id, latitude: "24.7", longitude: "46.7", address1: "King Fahd Rd" };
  const [sub] = await d
    .insert(mealSubscriptions)
    .values({
      appId: m.appId,
      customerId: c.id,
      orderId: o.orderId ?? 0,
      restaurantId: m.restaurant.id,
      planId: m.plan.id,
      planVersionId: m.version.id,
      status: "active",
      startDate: dates[0]!,
      endDate: dates.at(-1)!,
      numOfDays: dates.length,
      isPickup: o.isPickup ?? false,
      pickupBranchId: o.isPickup ? m.branches.pickup.id : null,
      deliveryWindowId: o.isPickup ? null : m.windows.morning.id,
      primaryLocationId: o.isPickup ? null : c.location.id,
      location: o.isPickup ? null : location,
      pauseAttemptsCredits: m.version.numOfPauseAttempts ?? 0,
      pauseCredits: m.version.pauseCredits ?? 0,
      ...o.subscription,
    })
    .returning();
  const values = dates.map((date, i) => ({
    appId: m.appId,
    subscriptionId: sub!.id,
    customerId: c.id,
    restaurantId: m.restaurant.id,
    date,
    originalDate: date,
    planDayId: m.days[i % 2]!.id,
    isPickup: sub!.isPickup,
    pickupBranchId: sub!.pickupBranchId,
    deliveryWindowId: sub!.deliveryWindowId,
    locationId: sub!.primaryLocationId,
    location: sub!.location,
    meals: [
      { plan_category_id: m.days[i % 2]!.categories[0]!.id, option_ids: [m.days[i % 2]!.categories[0]!.options[0]!] },
    ],
  }));
  const rows = [];
  for (const chunk of chunkRows(suborders, values)) rows.push(...(await d.insert(suborders).values(chunk).returning()));
  if (o.orderId)
    await d.insert(mealOrders).values({
      appId: m.appId,
      orderId: o.orderId,
      type: "subscription",
      customerId: c.id,
      restaurantId: m.restaurant.id,
      planId: m.plan.id,
      planVersionId: m.version.id,
      subscriptionId: sub!.id,
      startDate: dates[0]!,
      endDate: dates.at(-1)!,
    });
  return { ...sub!, suborders: rows, dates };
}

/** Sets the clock to `iso` (UTC). Riyadh is UTC+3: 2026-03-02T09:00Z is noon there. */
export const clockAt = (iso: string) => setClock(iso);

export async function ok<T = any>(res: Response, status = 200): Promise<T> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body as T;
}

export async function rowsOfSub(subscriptionId: number) {
  return (
    await shardFor(APP_1)
      .prepare("SELECT * FROM suborders WHERE subscription_id = ? ORDER BY id")
      .bind(subscriptionId)
      .all<Record<string, any>>()
  ).results;
}

export async function subRow(id: number) {
  return (await shardFor(APP_1)
    .prepare("SELECT * FROM meal_subscriptions WHERE id = ?")
    .bind(id)
    .first<Record<string, any>>())!;
}

/** The store's outbox events of `types` oldest first (type and data). */
export async function eventsOf(appId: number, types: string[]) {
  const rows = await shardFor(appId)
    .prepare(
      "SELECT type, payload FROM outbox_events WHERE app_id = ? AND type IN (SELECT value FROM json_each(?)) ORDER BY rowid",
    )
    .bind(appId, JSON.stringify(types))
    .all<{ type: string; payload: string }>();
  return rows.results.map((r) => ({ type: r.type, data: JSON.parse(r.payload).data as Record<string, any> }));
}

/** Events of `types` written since `since` (a count from `eventCount`). */
export async function eventCount(appId: number) {
  return (await shardFor(appId)
    .prepare("SELECT count(*) AS n FROM outbox_events WHERE app_id = ?")
    .bind(appId)
    .first<{ n: number }>())!.n;
}
