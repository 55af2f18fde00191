import { beforeAll, describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { restaurantBranches } from "../../src/modules/meals/tables";
import { sharedAuthCases } from "../helpers/auth-cases";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { problem } from "../helpers/request";
import {
  JEDDAH,
  L,
  type LStore,
  logisticsStore,
  ok,
  RIYADH,
  seedCaptain,
  seedSuborder,
  seedSubscription,
} from "./seed";

const A = 4331;
const B = 4332;
const DAY = "2026-12-02";
let s: LStore;
let other: LStore;
/** A second Green Bowl branch in Riyadh: not its main one there, so it cooks only its own pickups. */
let sulay: number;
const ids: Record<string, number> = {};
let captain: { id: number; name: string; mobileNumber: string };
let sara: { customerId: number; id: number };

const dayOf = (branchId: number, date = DAY, store = s) =>
  store.as(`${L}kitchen-day/?date=${date}&branch_id=${branchId}`);

sharedAuthCases({ method: "GET", path: `${L}kitchen-day/?date=${DAY}&branch_id=1`, permission: "can_read_order" });

beforeAll(async () => {
  s = await logisticsStore(A, 4_610_500);
  other = await logisticsStore(B, 4_620_500);
  const [branch] = await db(A)
    .insert(restaurantBranches)
    .values({ appId: A, restaurantId: s.green, nameEn: "Sulay", nameAr: "السلي", cityId: RIYADH, lat: 24.6, lng: 46.8 })
    .returning();
  sulay = branch!.id;
  captain = await seedCaptain(s, { name: "Khalid" });

  const green = await seedSubscription(s, { customerName: "Sara" });
  sara = { customerId: green.customerId, id: green.id };
  const noon = await seedSubscription(s, { deliveryWindowId: s.windows.greenNoon });
  const noWindow = await seedSubscription(s, { deliveryWindowId: null });
  const pickup = await seedSubscription(s, { isPickup: true, pickupBranchId: s.olaya, deliveryWindowId: null });
  const pickupSulay = await seedSubscription(s, { isPickup: true, pickupBranchId: sulay, deliveryWindowId: null });
  const jeddah = await seedSubscription(s, { location: { city_id: JEDDAH, address1: "Tahlia St" } });
  const kabsa = await seedSubscription(s, { restaurantId: s.kabsa, deliveryWindowId: s.windows.kabsaEvening });
  const pending = await seedSubscription(s, { status: "pending" });
  const cancelled = await seedSubscription(s, { status: "cancelled" });
  const paused = await seedSubscription(s, { status: "paused" });

  ids.morning = (
    await seedSuborder(s, green, {
      captainId: captain.id,
      addOns: [{ product_id: s.product(5), qty: 2, order_id: 1 }],
      notes: "Ring twice",
      operationNote: "Gate 3",
    })
  ).id;
  // No address of its own: the subscription's says Riyadh.
  ids.morningNoAddress = (await seedSuborder(s, paused, { location: null })).id;
  ids.noon = (await seedSuborder(s, noon, { status: "delivered" })).id;
  // Its last delivery was today's: completed, it stays on the day.
  const finished = await seedSubscription(s, { status: "completed", deliveryWindowId: s.windows.greenNoon });
  ids.finished = (await seedSuborder(s, finished, { status: "delivered", meals: [] })).id;
  ids.noWindow = (await seedSuborder(s, noWindow)).id;
  ids.pickup = (await seedSuborder(s, pickup)).id;
  ids.pickupSulay = (await seedSuborder(s, pickupSulay)).id;
  ids.jeddah = (await seedSuborder(s, jeddah)).id;
  ids.kabsa = (await seedSuborder(s, kabsa, { meals: [] })).id;
  // Left out of every kitchen's day.
  await seedSuborder(s, paused, { date: "2026-12-03", isFrozen: true });
  // Held by a pause: it keeps its date, and is not cooked.
  await seedSuborder(s, green, { date: DAY, isFrozen: true });
  await seedSuborder(s, noon, { date: DAY, status: "cancelled_by_customer", originalDate: "2026-11-30" });
  await seedSuborder(s, noWindow, { date: DAY, status: "cancelled_by_operation", originalDate: "2026-11-29" });
  await seedSuborder(s, green, { date: "2026-12-03" });
  await seedSuborder(s, pending);
  await seedSuborder(s, cancelled);
  await seedSuborder(s, await seedSubscription(s, { status: "expired" }));
  await seedSuborder(s, await seedSubscription(s), { isDeleted: true });
  // Another store's suborder that names our branch ids: not ours.
  await seedSuborder(other, await seedSubscription(other, { isPickup: true, pickupBranchId: s.olaya }));
});

describe("Kitchen day", () => {
  it("groups the branch's suborders of the day by window, pickup last, with names and totals", async () => {
    const day = await ok(await dayOf(s.olaya));
    expect(schemaErrors("kitchenDay", day)).toEqual([]);
    expect(day.date).toBe(DAY);
    expect(day.branch).toMatchObject({ id: s.olaya, name_en: "Olaya", restaurant_id: s.green });
    expect(day.suborders_count).toBe(6);
    const shape = day.groups.map(
      (g: { is_pickup: boolean; delivery_window: { id: number } | null; suborders: { id: number }[] }) => [
        g.is_pickup,
        g.delivery_window?.id ?? null,
        g.suborders.map((x) => x.id),
      ],
    );
    expect(shape).toEqual([
      [false, s.windows.greenMorning, [ids.morning, ids.morningNoAddress]],
      [false, s.windows.greenNoon, [ids.noon, ids.finished]],
      [false, null, [ids.noWindow]],
      [true, null, [ids.pickup]],
    ]);
    expect(day.groups[0].delivery_window).toMatchObject({ from_time: "06:00:00", to_time: "09:00:00", type: "both" });
    const first = day.groups[0].suborders[0];
    expect(first).toEqual({
      id: ids.morning,
      subscription_id: sara.id,
      status: "new",
      is_pickup: false,
      customer: {
        id: sara.customerId,
        name: "Sara",
        mobile_number: expect.stringMatching(/^9665/),
        lang: expect.any(String),
      },
      location: { city_id: RIYADH, address1: "King Fahd Rd", latitude: "24.7", longitude: "46.7" },
      captain: { id: captain.id, name: "Khalid", mobile_number: captain.mobileNumber },
      meals: [
        {
          plan_category_id: s.breakfast,
          name_en: "Breakfast",
          name_ar: "الفطور",
          options: [{ id: s.option(1), product_id: s.product(2), name_en: "Shakshuka", name_ar: "شكشوكة" }],
        },
        {
          plan_category_id: s.lunch,
          name_en: "Lunch",
          name_ar: "الغداء",
          options: [{ id: s.option(11), product_id: s.product(12), name_en: "Beef kofta", name_ar: "كفتة لحم" }],
        },
      ],
      add_ons: [{ product_id: s.product(5), name_en: "Foul medames", name_ar: "فول مدمس", qty: 2 }],
      notes: "Ring twice",
      operation_note: "Gate 3",
    });
    expect(day.groups[3].suborders[0]).toMatchObject({ is_pickup: true, location: null, captain: null });
    expect(day.totals).toEqual([
      { product_id: s.product(2), name_en: "Shakshuka", name_ar: "شكشوكة", qty: 5 },
      { product_id: s.product(12), name_en: "Beef kofta", name_ar: "كفتة لحم", qty: 5 },
      { product_id: s.product(5), name_en: "Foul medames", name_ar: "فول مدمس", qty: 2 },
    ]);
  });

  it("reads the whole day in one round trip (besides the token's lookup)", async () => {
    const sqls: string[] = [];
    let trips = 0;
    const stop = observeStatements((q) => sqls.push(q));
    const stopTrips = observeRoundTrips(() => trips++);
    expect((await dayOf(s.olaya)).status).toBe(200);
    stop();
    stopTrips();
    const lookups = sqls.filter((q) => q.includes("merchant_api_tokens")).length;
    expect([trips - lookups, sqls.length - lookups]).toEqual([1, 1]);
  });

  it("gives each delivery one kitchen: its restaurant's main branch in its city; other branches their own pickups", async () => {
    const idsOf = async (branchId: number) =>
      (await ok(await dayOf(branchId))).groups.flatMap((g: { suborders: { id: number }[] }) =>
        g.suborders.map((x) => x.id),
      );
    expect(await idsOf(sulay)).toEqual([ids.pickupSulay]);
    expect(await idsOf(s.tahlia)).toEqual([ids.jeddah]);
    const malaz = await ok(await dayOf(s.malaz));
    expect(malaz.groups.flatMap((g: { suborders: { id: number }[] }) => g.suborders.map((x) => x.id))).toEqual([
      ids.kabsa,
    ]);
    expect(malaz.totals).toEqual([]);
    expect(await ok(await dayOf(s.olaya, "2026-12-04"))).toMatchObject({ suborders_count: 0, groups: [], totals: [] });
  });

  it("is the store's own: another store's branch is a 404, and bad parameters are 400s", async () => {
    expect((await problem(await dayOf(other.olaya))).code).toBe("branch_not_found");
    expect((await problem(await dayOf(999_999_999))).code).toBe("branch_not_found");
    // The other store sees none of ours through its own branch of the same restaurant data.
    expect((await ok(await dayOf(other.olaya, DAY, other))).suborders_count).toBe(0);
    for (const [q, field] of [
      [`date=2026-13-01&branch_id=${s.olaya}`, "date"],
      [`branch_id=${s.olaya}`, "date"],
      [`date=${DAY}`, "branch_id"],
      [`date=${DAY}&branch_id=abc`, "branch_id"],
      [`date=${DAY}&branch_id=${s.olaya}&page=2`, "query.page"],
    ] as const) {
      const p = await problem(await s.as(`${L}kitchen-day/?${q}`));
      expect(p.status, q).toBe(400);
      expect(p.errors, q).toHaveProperty(field);
    }
  });
});
