import { describe, expect, it } from "vitest";
import { chunkRows } from "../../src/core/sql";
import { mealSubscriptions, suborders } from "../../src/modules/meal-orders/tables";
import { scaled } from "../helpers/depth";
import { createCustomerFor, db } from "../helpers/factories";
import { JEDDAH, L, logisticsStore, ok, RIYADH, seedCaptain } from "./seed";

const A = 4341;
const DAY = "2026-12-02";

/*
 * SIZE: every run plays 40 subscriptions, each kind below at least once, the inserts still in several
 * chunks of D1's bound parameters; `npm run test:deep` plays the full 200. N stays a multiple of 40:
 * the kinds are shares of it in fortieths.
 */
const N = scaled(40, 200);
type Kind = "delivery" | "pickup" | "paused" | "postponed" | "jeddah" | "cancelled" | "unpaid";
/** Each kind's share of the N subscriptions, in fortieths, cumulative (at 200: 25, 45, 60, 70, …). */
const SHARES: [Kind, number][] = [
  ["paused", 5],
  ["postponed", 9],
  ["jeddah", 12],
  ["cancelled", 14],
  ["unpaid", 15],
  ["pickup", 21],
  ["delivery", 40],
];
const kinds: Kind[] = Array.from({ length: N }, (_, i) => SHARES.find(([, upTo]) => i * 40 < upTo * N)![0]);
const countOf = (...of: Kind[]) => kinds.filter((k) => of.includes(k)).length;

/**
 * N subscriptions whose suborders of the day were paused, postponed, moved to another city,
 * cancelled or left unpaid (as the customer's management operations leave them), then the day's
 * deliveries given captains through Bulk Update: the kitchen's day holds exactly the rest, each with
 * its captain.
 */
describe("Kitchen day at scale", () => {
  it(`${N} subscriptions: exactly the day's suborders for each kitchen, with the captains assigned in bulk`, async () => {
    const s = await logisticsStore(A, 4_710_500);
    const customer = await createCustomerFor(A, { name: "Many" });
    const subscriptionValues = kinds.map((k, i) => ({
      appId: A,
      customerId: customer.id,
      orderId: 0,
      restaurantId: s.green,
      planId: s.meals.balanced,
      planVersionId: s.meals.balancedMonth,
      status: k === "unpaid" ? ("pending" as const) : k === "paused" ? ("paused" as const) : ("active" as const),
      startDate: "2026-12-01",
      endDate: "2026-12-31",
      numOfDays: 26,
      isPickup: k === "pickup",
      pickupBranchId: k === "pickup" ? s.olaya : null,
      deliveryWindowId: k === "pickup" ? null : i % 2 ? s.windows.greenNoon : s.windows.greenMorning,
      location: { city_id: k === "jeddah" ? JEDDAH : RIYADH },
    }));
    const subs: (typeof mealSubscriptions.$inferSelect)[] = [];
    for (const chunk of chunkRows(mealSubscriptions, subscriptionValues))
      subs.push(...(await db().insert(mealSubscriptions).values(chunk).returning()));
    const suborderValues = subs.map((sub, i) => {
      const k = kinds[i]!;
      return {
        appId: A,
        subscriptionId: sub.id,
        customerId: customer.id,
        restaurantId: s.green,
        date: k === "postponed" ? "2026-12-10" : DAY,
        originalDate: DAY,
        status: k === "cancelled" ? ("cancelled_by_customer" as const) : ("new" as const),
        isFrozen: k === "paused",
        isPostponed: k === "postponed",
        isPickup: sub.isPickup,
        pickupBranchId: sub.pickupBranchId,
        deliveryWindowId: sub.deliveryWindowId,
        location: sub.isPickup ? null : sub.location,
        meals: [{ plan_category_id: s.breakfast, option_ids: [s.option(1 + (i % 3))] }],
      };
    });
    const rows: (typeof suborders.$inferSelect)[] = [];
    for (const chunk of chunkRows(suborders, suborderValues))
      rows.push(...(await db().insert(suborders).values(chunk).returning()));

    // The dispatcher gives the morning's deliveries to one captain and the noon's to another.
    const morning = await seedCaptain(s, { name: "Morning" });
    const noon = await seedCaptain(s, { name: "Noon" });
    const deliveries = rows.filter((_, i) => kinds[i] === "delivery");
    const byWindow = (w: number) => deliveries.filter((r) => r.deliveryWindowId === w).map((r) => r.id);
    for (const [captain, ids] of [
      [morning, byWindow(s.windows.greenMorning)],
      [noon, byWindow(s.windows.greenNoon)],
    ] as const) {
      const out = await ok(
        await s.as(`${L}suborders/bulk-update/`, {
          method: "POST",
          body: { suborder_ids: ids, captain_id: captain.id, status: "confirmed" },
        }),
      );
      expect(out.failed_count).toBe(0);
    }
    // Bulk updates of the day also reach the suborders the kitchen does not cook: they are refused.
    const refused = await ok(
      await s.as(`${L}suborders/bulk-update/`, {
        method: "POST",
        body: { suborder_ids: rows.filter((_, i) => kinds[i] === "paused").map((r) => r.id), status: "confirmed" },
      }),
    );
    expect(refused.failed_count).toBe(countOf("paused"));

    const day = await ok(await s.as(`${L}kitchen-day/?date=${DAY}&branch_id=${s.olaya}`));
    const all = day.groups.flatMap((g: { suborders: { id: number; captain: { id: number } | null }[] }) => g.suborders);
    const expected = rows.filter((_, i) => kinds[i] === "delivery" || kinds[i] === "pickup").map((r) => r.id);
    expect(day.suborders_count).toBe(countOf("delivery", "pickup"));
    expect(all.map((x: { id: number }) => x.id).sort()).toEqual(expected.sort());
    const [first, second, pickup] = day.groups;
    expect([first.delivery_window.id, second.delivery_window.id, pickup.is_pickup]).toEqual([
      s.windows.greenMorning,
      s.windows.greenNoon,
      true,
    ]);
    expect(first.suborders.every((x: { captain: { id: number } }) => x.captain.id === morning.id)).toBe(true);
    expect(second.suborders.every((x: { captain: { id: number } }) => x.captain.id === noon.id)).toBe(true);
    expect(pickup.suborders).toHaveLength(countOf("pickup"));
    expect(pickup.suborders.every((x: { captain: unknown }) => x.captain === null)).toBe(true);
    expect(day.totals.reduce((n: number, t: { qty: number }) => n + t.qty, 0)).toBe(countOf("delivery", "pickup"));

    const jeddah = await ok(await s.as(`${L}kitchen-day/?date=${DAY}&branch_id=${s.tahlia}`));
    expect(jeddah.suborders_count).toBe(countOf("jeddah"));
    const later = await ok(await s.as(`${L}kitchen-day/?date=2026-12-10&branch_id=${s.olaya}`));
    expect(later.suborders_count).toBe(countOf("postponed"));
  });
});
