import { afterAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { scaled } from "../helpers/depth";
import { APP_1, shardFor } from "../helpers/factories";
import { json } from "../helpers/request";
import { type Bought, buyMealPlan, type MealShop, mealCustomerOf, mealShopFor } from "../meal-checkout/helpers";
import { rowOf, rowsOf } from "../orders/helpers";

const A = 4391;
const START = "2026-11-30";
const DAY = "2026-12-01";
/**
 * SIZE: every run plays 20 subscriptions, each kind of change below at least once (the sizes do not
 * meet a bound: Bulk Update's 100 ids are played by test/meal-logistics/bulk.test.ts); `npm run
 * test:deep` plays the full 200. N stays a multiple of 20: the kinds are shares of it in twentieths.
 */
const N = scaled(20, 200);

/**
 * A day in the kitchen, through the operations clients use: N meal plans bought, then changed by
 * their customers two days ahead (pauses, postponements, other dishes, cancellations) and again after
 * the kitchen's cutoff (refused, nothing moves); the dispatcher gives the day's deliveries to captains;
 * the kitchen's day holds exactly the suborders a model of those changes predicts, with their captains.
 */
type Kind = "paused" | "postponed" | "new_meals" | "pickup" | "cancelled" | "late_postpone" | "late_meals" | "kept";
/** Each kind's share of the N subscriptions, in twentieths, cumulative (at 200: 30, 60, 90, 110, …). */
const SHARES: [Kind, number][] = [
  ["paused", 3],
  ["postponed", 6],
  ["new_meals", 9],
  ["pickup", 11],
  ["cancelled", 13],
  ["late_postpone", 15],
  ["late_meals", 16],
  ["kept", 20],
];
const kindOf = (i: number): Kind => SHARES.find(([, upTo]) => i * 20 < upTo * N)![0];

afterAll(() => setClock(null));

describe("A day in the kitchen", () => {
  it(`${N} subscriptions changed before and after the cutoff give exactly the next day's suborders and captains`, async () => {
    // Two days ahead, 09:00 in Riyadh: 1 December is still open to changes (cutoff 24 hours).
    setClock("2026-11-28T06:00:00.000Z");
    const shop: MealShop = await mealShopFor(A, 4_391_000);
    const bought: Bought[] = [];
    for (let i = 0; i < N; i++) {
      // A customer's saved location in Riyadh, as the app saves it (with its city): the kitchen's day
      // gives a delivery to the branch of its city.
      const customer = await mealCustomerOf(shop);
      await shardFor(APP_1)
        .prepare("UPDATE customer_locations SET city_id = 1 WHERE id = ?")
        .bind(customer.locationId)
        .run();
      bought.push(
        await buyMealPlan(shop, {
          customer,
          versionId: shop.versions.balanced30,
          startDate: START,
          pickup: kindOf(i) === "pickup",
        }),
      );
    }
    const dayOf = (b: Bought) => b.suborders.find((s) => s.date === DAY)!;
    for (const b of bought) expect(dayOf(b), `subscription ${b.subscriptionId} delivers on ${DAY}`).toBeTruthy();

    const act = (b: Bought, path: string, method: string, body: unknown) => b.shopper.as(path, { method, body });
    const otherDish = async (b: Bought) => {
      const meals = JSON.parse(dayOf(b).meals) as { plan_category_id: number; option_ids: number[] }[];
      const c = meals[0]!;
      const other = await rowOf(
        "SELECT id FROM plan_options WHERE plan_category_id = ? AND id <> ? AND is_deleted = 0 ORDER BY id LIMIT 1",
        c.plan_category_id,
        c.option_ids[0],
      );
      return { plan_category_id: c.plan_category_id, option_ids: [other.id as number] };
    };
    const chosen = new Map<number, { plan_category_id: number; option_ids: number[] }>();
    for (const [i, b] of bought.entries()) {
      const kind = kindOf(i);
      const actions = `/api/v1/subscriptions/${b.subscriptionId}/suborders/actions/`;
      let res: Response | null = null;
      if (kind === "paused") res = await act(b, actions, "POST", { action: "pause", from_date: DAY });
      if (kind === "postponed") res = await act(b, actions, "POST", { action: "postpone", dates: [DAY] });
      if (kind === "cancelled")
        res = await act(b, `/api/v1/subscriptions/${b.subscriptionId}/cancel/`, "POST", { from_date: DAY });
      if (kind === "new_meals") {
        const meal = await otherDish(b);
        chosen.set(dayOf(b).id, meal);
        res = await act(b, `/api/v1/suborders/${dayOf(b).id}/meals/`, "PATCH", { meals: [meal] });
      }
      if (res) expect(res.status, `${kind}: ${JSON.stringify(await json(res))}`).toBe(200);
    }

    // The evening before, past the cutoff: the day can no longer be moved or changed.
    setClock("2026-11-30T15:00:00.000Z");
    for (const [i, b] of bought.entries()) {
      const kind = kindOf(i);
      if (kind !== "late_postpone" && kind !== "late_meals") continue;
      const res =
        kind === "late_postpone"
          ? await act(b, `/api/v1/subscriptions/${b.subscriptionId}/suborders/actions/`, "POST", {
              action: "postpone",
              dates: [DAY],
            })
          : await act(b, `/api/v1/suborders/${dayOf(b).id}/meals/`, "PATCH", { meals: [await otherDish(b)] });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(body.code).toBe("suborder_past_cutoff");
    }

    // The dispatcher: the morning's deliveries of the day to one captain, confirmed at once.
    const captainRes = await shop.store.as("/api/v1/logistics/captains/", {
      method: "POST",
      body: { name: "Faisal", mobile_number: "0551000001", city_id: 1, branch_id: shop.branches.olaya },
    });
    const captain = await json(captainRes);
    expect(captainRes.status, JSON.stringify(captain)).toBe(201);
    const kitchenKinds: Kind[] = ["new_meals", "pickup", "late_postpone", "late_meals", "kept"];
    const expected = bought.filter((_, i) => kitchenKinds.includes(kindOf(i))).map((b) => dayOf(b).id);
    const deliveries = bought.filter((_, i) => kitchenKinds.includes(kindOf(i)) && kindOf(i) !== "pickup");
    const assign = await json(
      await shop.store.as("/api/v1/logistics/suborders/bulk-update/", {
        method: "POST",
        body: { suborder_ids: deliveries.map((b) => dayOf(b).id), captain_id: captain.id, status: "confirmed" },
      }),
    );
    expect(assign.failed_count).toBe(0);
    // The day's suborders the kitchen does not cook are refused by the same bulk update, one result each.
    const frozen = bought.filter((_, i) => kindOf(i) === "paused").map((b) => dayOf(b).id);
    const refused = await json(
      await shop.store.as("/api/v1/logistics/suborders/bulk-update/", {
        method: "POST",
        body: { suborder_ids: frozen, status: "confirmed" },
      }),
    );
    expect(refused.failed_count).toBe(frozen.length);

    const res = await shop.store.as(`/api/v1/logistics/kitchen-day/?date=${DAY}&branch_id=${shop.branches.olaya}`);
    const day = await json(res);
    expect(res.status, JSON.stringify(day)).toBe(200);
    type Entry = { id: number; captain: { id: number } | null };
    const entries: Entry[] = day.groups.flatMap((g: { suborders: Entry[] }) => g.suborders);
    expect(entries.map((e) => e.id).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    expect(day.suborders_count).toBe(expected.length);
    const delivered = new Set(deliveries.map((b) => dayOf(b).id));
    for (const e of entries) expect(e.captain?.id ?? null).toBe(delivered.has(e.id) ? captain.id : null);

    // What the model says of each kind, in the rows themselves.
    for (const [i, b] of bought.entries()) {
      const row = await rowOf(
        "SELECT date, status, is_frozen, is_postponed, meals FROM suborders WHERE id = ?",
        dayOf(b).id,
      );
      const kind = kindOf(i);
      if (kind === "paused") expect(row.is_frozen).toBe(1);
      if (kind === "postponed") expect([row.date > DAY, row.is_postponed]).toEqual([true, 1]);
      if (kind === "cancelled") expect(row.status).toBe("cancelled_by_customer");
      if (kind === "new_meals") expect(JSON.parse(row.meals)).toContainEqual(chosen.get(dayOf(b).id));
      if (kind === "late_meals" || kind === "late_postpone" || kind === "kept")
        expect([row.date, row.status, JSON.parse(row.meals)]).toEqual([DAY, "confirmed", JSON.parse(dayOf(b).meals)]);
    }
    // No subscription lost or gained a delivery: a postponed one still has all 30, at a later end date.
    const counts = await rowsOf(
      `SELECT subscription_id, count(*) AS n FROM suborders WHERE app_id = ? GROUP BY subscription_id`,
      A,
    );
    expect(counts).toHaveLength(N);
    for (const c of counts) expect(c.n).toBe(30);
  });
});
