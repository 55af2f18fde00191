import { expect } from "vitest";
import { captains } from "../../src/modules/meal-orders/logistics/tables";
import { mealSubscriptions, suborders } from "../../src/modules/meal-orders/tables";
import { deliveryZones } from "../../src/modules/meals/tables";
import { APP_1, createCustomerFor, db, shardFor, tokenFor } from "../helpers/factories";
import { seedMealsFor } from "../helpers/meals";
import { call, json } from "../helpers/request";

/**
 * A store for logistics tests: the demo meals data (Green Bowl with branches Olaya in Riyadh, the
 * main one, and Tahlia in Jeddah; Kabsa House with Malaz in Riyadh and a zone over central Riyadh),
 * a merchant token, and meal subscriptions and suborders inserted directly (until place-order
 * makes them).
 */

export const L = "/api/v1/logistics/";
export const RIYADH = 1;
export const JEDDAH = 2;

export async function logisticsStore(appId: number, base: number) {
  const meals = await seedMealsFor(appId, base);
  const token = await tokenFor(appId);
  const as = (path: string, opts: { method?: string; body?: unknown } = {}) => call(path, { ...opts, token, appId });
  const id = meals.id;
  return {
    appId,
    token,
    as,
    meals,
    green: meals.green,
    kabsa: meals.kabsa,
    olaya: id(1),
    tahlia: id(2),
    malaz: id(3),
    kabsaZone: id(1),
    /** Green Bowl's windows (06-09, 12-15) and Kabsa House's (18-23). */
    windows: { greenMorning: id(1), greenNoon: id(2), kabsaEvening: id(3) },
    /** Day 1 of Balanced 30: Breakfast (options id(1..10)) and Lunch (options id(11..20)). */
    breakfast: id(1),
    lunch: id(2),
    option: (n: number) => id(n),
    product: (n: number) => id(n),
  };
}

export type LStore = Awaited<ReturnType<typeof logisticsStore>>;

type SubscriptionInsert = Partial<typeof mealSubscriptions.$inferInsert>;

/** A meal subscription of a new customer (or `customerId`), active by default, delivered in Riyadh. */
export async function seedSubscription(s: LStore, overrides: SubscriptionInsert & { customerName?: string } = {}) {
  const { customerName, ...rest } = overrides;
  const customerId = rest.customerId ?? (await createCustomerFor(s.appId, { name: customerName ?? "Sara" })).id;
  const [row] = await db(s.appId)
    .insert(mealSubscriptions)
    .values({
      appId: s.appId,
      customerId,
      orderId: 0,
      restaurantId: s.green,
      planId: s.meals.balanced,
      planVersionId: s.meals.balancedMonth,
      status: "active",
      startDate: "2026-12-01",
      endDate: "2026-12-31",
      numOfDays: 26,
      deliveryWindowId: s.windows.greenMorning,
      location: { city_id: RIYADH, address1: "King Fahd Rd", latitude: "24.7", longitude: "46.7" },
      ...rest,
    })
    .returning();
  return row!;
}

export type SubscriptionRow = Awaited<ReturnType<typeof seedSubscription>>;

/** A suborder of `sub` on `date` (new, in the subscription's window, breakfast option 1 and lunch option 11). */
export async function seedSuborder(
  s: LStore,
  sub: SubscriptionRow,
  overrides: Partial<typeof suborders.$inferInsert> = {},
) {
  const date = overrides.date ?? "2026-12-02";
  const [row] = await db(s.appId)
    .insert(suborders)
    .values({
      appId: s.appId,
      subscriptionId: sub.id,
      customerId: sub.customerId,
      restaurantId: sub.restaurantId,
      date,
      originalDate: date,
      isPickup: sub.isPickup,
      pickupBranchId: sub.pickupBranchId,
      deliveryWindowId: sub.isPickup ? null : sub.deliveryWindowId,
      location: sub.isPickup ? null : sub.location,
      meals: [
        { plan_category_id: s.breakfast, option_ids: [s.option(1)] },
        { plan_category_id: s.lunch, option_ids: [s.option(11)] },
      ],
      ...overrides,
    })
    .returning();
  return row!;
}

/** A captain inserted directly (the API's own create is tested on its own). */
export async function seedCaptain(s: LStore, overrides: Partial<typeof captains.$inferInsert> = {}) {
  const [row] = await db(s.appId)
    .insert(captains)
    .values({
      appId: s.appId,
      name: "Khalid",
      countryCode: "966",
      mobileNumber: `9665${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
      cityId: RIYADH,
      branchId: s.olaya,
      ...overrides,
    })
    .returning();
  return row!;
}

/** A delivery zone inserted directly: a rectangle of [lat, lng] corners. */
export async function seedZone(
  s: LStore,
  restaurantId: number,
  cityId: number,
  box: [number, number, number, number],
  ordering = 1000,
) {
  const [lat1, lng1, lat2, lng2] = box;
  const [row] = await db(s.appId)
    .insert(deliveryZones)
    .values({
      appId: s.appId,
      restaurantId,
      cityId,
      nameEn: `Zone ${lat1},${lng1}`,
      ordering,
      polygon: [
        [lat1, lng1],
        [lat1, lng2],
        [lat2, lng2],
        [lat2, lng1],
      ],
    })
    .returning();
  return row!;
}

/** The body of a response of status `status`, checked. */
export async function ok<T = any>(res: Response, status = 200): Promise<T> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body as T;
}

/** The store's outbox events of `type`, oldest first: their data. */
export async function eventsOf(appId: number, type: string): Promise<Record<string, any>[]> {
  const rows = await shardFor(appId)
    .prepare("SELECT payload FROM outbox_events WHERE app_id = ? AND type = ? ORDER BY rowid")
    .bind(appId, type)
    .all<{ payload: string }>();
  return rows.results.map((r) => JSON.parse(r.payload).data);
}

export async function suborderRow(id: number) {
  return shardFor(APP_1).prepare("SELECT * FROM suborders WHERE id = ?").bind(id).first<Record<string, any>>();
}
