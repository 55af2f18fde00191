import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { APP_1, countRows, shardFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { locationOf, writtenCounts } from "../orders/helpers";
import { buyMealPlan, type MealShop, mealCustomerOf, mealShopFor, ORDERS, orderBody } from "./helpers";

/**
 * Every rule of a meal cart (CA16-CA19): the start date (notice, version range, off days, closed
 * dates, in the restaurant's time zone), the dates and meals against the plan's menu cycle, the
 * window and location (zones), the pickup branch. Broken rules are 409s naming the rule (dates:
 * with `first_valid_date`); what the body names that is not the store's or the customer's is a 400.
 * Nothing is written by a refused order.
 */

const A = 9921;
const B = 9922;
let shop: MealShop;
let other: MealShop;
const sql = (q: string, ...binds: unknown[]) =>
  shardFor(APP_1)
    .prepare(q)
    .bind(...binds)
    .run();

beforeAll(async () => {
  // Monday 2 March 2026, noon in Riyadh: Keto week (notice 1 day) starts on the 3rd at the earliest.
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_120_000);
  other = await mealShopFor(B, 9_130_000);
});
afterAll(() => setClock(null));

const DISCOUNTED = `${ORDERS}discounted-cart/`;

/** Sends `body` (Keto week to a Riyadh customer by default, with `change` applied) to Place Order. */
async function attempt(change: (b: Record<string, any>) => void = () => {}, s: MealShop = shop, path = ORDERS) {
  const c = await mealCustomerOf(s);
  const { body, term } = await orderBody(s, c.locationId);
  change(body);
  const before = await writtenCounts(s.appId);
  const mealOrders = await countRows("meal_orders", `app_id = ${s.appId}`);
  const res = await c.shopper.as(path, { method: "POST", body });
  if (res.status >= 400) {
    expect(await writtenCounts(s.appId)).toEqual(before);
    expect(await countRows("meal_orders", `app_id = ${s.appId}`)).toBe(mealOrders);
  }
  return { res, term, customer: c, body };
}

async function refused(status: number, change: (b: Record<string, any>) => void, s: MealShop = shop) {
  const { res, term } = await attempt(change, s);
  const body = await problem(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return { ...body, term } as Awaited<ReturnType<typeof problem>> & Record<string, any>;
}

describe("the start date", () => {
  it("before the notice: 409 start_date_too_early with the first valid date (calculators too)", async () => {
    const p = await refused(409, (b) => (b.start_date = "2026-03-02"));
    expect(p).toMatchObject({ code: "start_date_too_early", first_valid_date: "2026-03-03" });
    const { res } = await attempt((b) => (b.start_date = "2026-03-02"), shop, DISCOUNTED);
    expect(await problem(res)).toMatchObject({ status: 409, code: "start_date_too_early" });
  });

  it("on an off day (Friday) or a closed date: 409 start_date_closed with the next delivery day", async () => {
    expect(await refused(409, (b) => (b.start_date = "2026-03-06"))).toMatchObject({
      code: "start_date_closed",
      first_valid_date: "2026-03-07",
    });
    expect(await refused(409, (b) => (b.start_date = "2026-12-31"))).toMatchObject({
      code: "start_date_closed",
      // 1 January 2027 is a Friday.
      first_valid_date: "2027-01-02",
    });
  });

  it("after the version's max_start_date: 409 start_date_too_late; none possible: plan_version_closed", async () => {
    const c = await mealCustomerOf(other);
    const { body } = await orderBody(other, c.locationId);
    const send = async (start: string) =>
      problem(await c.shopper.as(ORDERS, { method: "POST", body: { ...body, start_date: start } }));
    try {
      await sql("UPDATE plan_versions SET max_start_date = '2026-04-30' WHERE id = ?", other.versions.keto);
      expect(await send("2026-05-04")).toMatchObject({
        status: 409,
        code: "start_date_too_late",
        first_valid_date: "2026-03-03",
      });
      await sql("UPDATE plan_versions SET max_start_date = '2026-03-02' WHERE id = ?", other.versions.keto);
      expect(await send("2026-03-03")).toMatchObject({ status: 409, code: "plan_version_closed" });
    } finally {
      await sql("UPDATE plan_versions SET max_start_date = '2030-12-31' WHERE id = ?", other.versions.keto);
    }
  });

  it("counts days where the restaurant is: at UTC+14 it is already the 3rd, so the 3rd is too early", async () => {
    // 11:00 UTC on the 2nd is 01:00 on the 3rd in Kiritimati (and 14:00 on the 2nd in Riyadh).
    setClock("2026-03-02T11:00:00.000Z");
    await sql("UPDATE restaurants SET time_zone = 'Pacific/Kiritimati' WHERE id = ?", other.restaurant);
    try {
      expect(await refused(409, (b) => (b.start_date = "2026-03-03"), other)).toMatchObject({
        code: "start_date_too_early",
        first_valid_date: "2026-03-04",
      });
    } finally {
      await sql("UPDATE restaurants SET time_zone = 'Asia/Riyadh' WHERE id = ?", other.restaurant);
      setClock("2026-03-02T09:00:00.000Z");
    }
  });

  it("Plan Details offers the first date Place Order accepts: the restaurant's notice counts when longer than the plan's", async () => {
    const details = (q = "") => call(`/public-api/v1/plans/${other.plans.keto}/${q}`, { appId: B });
    const setNotice = async (days: number) => {
      const res = await other.store.as(`/order/v1/merchant/meals/restaurants/${other.restaurant}/`, {
        method: "PATCH",
        body: { start_after: days },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    // Both notices 1 day: the 3rd. The public read is cached from here on.
    expect((await json(await details())).start_date).toBe("2026-03-03");
    expect((await details()).headers.get("x-cache")).toBe("HIT");
    try {
      // Keto's plan asks 1 day, the restaurant now 3: Thursday the 5th. The write makes the cached read a miss.
      await setNotice(3);
      const res = await details();
      expect(res.headers.get("x-cache")).toBe("MISS");
      const offered = await json(res);
      expect(offered).toMatchObject({ start_after: 1, start_date: "2026-03-05" });
      expect(offered.dates[0]).toBe("2026-03-05");
      expect((await problem(await details("?start_date=2026-03-04"))).errors).toEqual({
        start_date: ["Too early: the first start date is 2026-03-05."],
      });

      const c = await mealCustomerOf(other);
      const { body, term } = await orderBody(other, c.locationId, { startDate: offered.start_date, provider: "card" });
      expect(term.dates).toEqual(offered.dates);
      const early = await orderBody(other, c.locationId, { startDate: "2026-03-04", provider: "card" });
      const before = await writtenCounts(B);
      expect(await problem(await c.shopper.as(ORDERS, { method: "POST", body: early.body }))).toMatchObject({
        status: 409,
        code: "start_date_too_early",
        first_valid_date: "2026-03-05",
      });
      expect(await writtenCounts(B)).toEqual(before);
      const placed = await c.shopper.as(ORDERS, { method: "POST", body });
      expect(placed.status, await placed.clone().text()).toBe(201);
    } finally {
      await setNotice(1);
    }
  });

  it("a version of another store, or unknown, is a 400 on plan_version_id", async () => {
    const p = await refused(400, (b) => (b.plan_version_id = other.versions.keto));
    expect(p.errors).toEqual({
      plan_version_id: [`Plan version ${other.versions.keto} is not on sale in this store.`],
    });
  });
});

describe("the dates and meals", () => {
  it("a date that is not a delivery date: 409 date_not_in_schedule (an off day, beyond the term)", async () => {
    const friday = await refused(409, (b) => (b.dates[3].date = "2026-03-06"));
    expect(friday).toMatchObject({ code: "date_not_in_schedule", first_valid_date: "2026-03-07" });
    expect(friday.delivery_dates).toEqual([
      "2026-03-03",
      "2026-03-04",
      "2026-03-05",
      "2026-03-07",
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
    ]);
    const beyond = await refused(409, (b) => (b.dates[6].date = "2026-03-11"));
    expect(beyond).toMatchObject({ code: "date_not_in_schedule", first_valid_date: null });
  });

  it("a category not of the day's plan day, an option not of its category, too many options: 400 naming each", async () => {
    const p = await refused(400, (b) => {
      const [day0, day1] = [b.dates[0], b.dates[1]];
      // Day 1's category on day 2, an option of day 2's first category in day 2's second.
      day1.options[0].plan_category_id = day0.options[0].plan_category_id;
      day1.options[1].option_ids = [day1.options[2].option_ids[0]];
      day1.options[2].option_ids = [...day1.options[2].option_ids, day0.options[2].option_ids[0]];
    });
    expect(Object.keys(p.errors!).sort()).toEqual([
      "dates",
      "dates.1.options.0.plan_category_id",
      "dates.1.options.1.option_ids",
      "dates.1.options.2.option_ids",
    ]);
    expect(p.errors!["dates.1.options.2.option_ids"]).toEqual([
      expect.stringMatching(/^Not options of category \d+ on 2026-03-04: \d+\.$/),
      expect.stringMatching(/takes at most 1 option\(s\); 2 given\.$/),
    ]);
  });

  it("a plan that does not skip selection needs every date's meals: 400 naming the date", async () => {
    const p = await refused(400, (b) => b.dates.splice(6, 1));
    expect(p.errors!.dates).toEqual([
      expect.stringMatching(/^Choose the meals of 2026-03-10: categories \d+, \d+, \d+ have none\.$/),
    ]);
  });

  it("the same date twice is a 400", async () => {
    const p = await refused(400, (b) => (b.dates[1].date = b.dates[0].date));
    expect(p.errors).toEqual({ "dates.1.date": ["2026-03-03 is given twice."] });
  });

  it("a plan with skip_option_selection takes no dates: each category gets its recommended option", async () => {
    await sql("UPDATE plans SET skip_option_selection = 1 WHERE id = ?", other.plans.keto);
    const bought = await buyMealPlan(other, { body: { dates: undefined } });
    const recommended = await shardFor(APP_1)
      .prepare(
        `SELECT c.id AS category, o.id AS option FROM plan_categories c JOIN plan_options o ON o.plan_category_id = c.id
       WHERE c.plan_day_id = ? AND o.is_recommended = 1 ORDER BY c.ordering, c.id`,
      )
      .bind(bought.suborders[0]!.plan_day_id)
      .all<{ category: number; option: number }>();
    expect(JSON.parse(bought.suborders[0]!.meals)).toEqual(
      recommended.results.map((r) => ({ plan_category_id: r.category, option_ids: [r.option] })),
    );
    await sql("UPDATE plans SET skip_option_selection = 0 WHERE id = ?", other.plans.keto);
  });
});

describe("delivery and pickup", () => {
  it("a window of another restaurant, or on-demand only: 400 on delivery_window_id", async () => {
    const p = await refused(400, (b) => (b.delivery_window_id = shop.windows.kabsa));
    expect(p.errors).toEqual({
      delivery_window_id: [
        `Not a subscription delivery window of restaurant ${shop.restaurant}; its windows are ${shop.windows.morning}, ${shop.windows.noon}.`,
      ],
    });
    await sql("UPDATE delivery_windows SET type = 'on_demand' WHERE id = ?", other.windows.morning);
    expect((await refused(400, (b) => (b.delivery_window_id = other.windows.morning), other)).errors).toHaveProperty(
      "delivery_window_id",
    );
    await sql("UPDATE delivery_windows SET type = 'both' WHERE id = ?", other.windows.morning);
  });

  it("a location outside the restaurant's zones: 409 location_not_served; another customer's: 400", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId);
    const jeddah = await locationOf(shop.appId, c.shopper.id);
    await sql("UPDATE customer_locations SET latitude = 21.5, longitude = 39.2 WHERE id = ?", jeddah.id);
    const before = await writtenCounts(A);
    for (const field of ["primary_location_id", "secondary_location_id"]) {
      const res = await c.shopper.as(ORDERS, { method: "POST", body: { ...body, [field]: jeddah.id } });
      expect(await problem(res)).toMatchObject({
        status: 409,
        code: "location_not_served",
        location_id: jeddah.id,
        delivery_window_id: shop.windows.morning,
      });
    }
    expect(await writtenCounts(A)).toEqual(before);
    // The same location is another customer's for anyone else.
    expect((await refused(400, (b) => (b.primary_location_id = jeddah.id))).errors).toEqual({
      primary_location_id: [`Location ${jeddah.id} is not one of yours.`],
    });
  });

  it("delivery fields and pickup fields do not mix (400)", async () => {
    expect(
      (
        await refused(400, (b) => {
          delete b.delivery_window_id;
          delete b.primary_location_id;
        })
      ).errors,
    ).toEqual({
      delivery_window_id: ["Required unless is_pickup."],
      primary_location_id: ["Required unless is_pickup."],
    });
    expect(
      (
        await refused(400, (b) => {
          b.is_pickup = true;
        })
      ).errors,
    ).toEqual({
      pickup_branch_id: ["Required with is_pickup."],
      delivery_window_id: ["Not with is_pickup: a pickup has no window."],
    });
    expect((await refused(400, (b) => (b.secondary_location_id = b.primary_location_id))).errors).toEqual({
      secondary_location_id: ["Must differ from primary_location_id."],
    });
    expect((await refused(400, (b) => (b.surprise = 1))).errors).toHaveProperty("surprise");
  });

  const pickup = (branch: number) => (b: Record<string, any>) => {
    delete b.delivery_window_id;
    delete b.primary_location_id;
    b.is_pickup = true;
    b.pickup_branch_id = branch;
  };

  it("a pickup branch of another restaurant is a 400; one without pickup a 409 pickup_not_supported", async () => {
    expect((await refused(400, pickup(shop.branches.malaz))).errors).toEqual({
      pickup_branch_id: [`Branch ${shop.branches.malaz} is not one of restaurant ${shop.restaurant}'s.`],
    });
    await sql("UPDATE restaurant_branches SET supports_pickup = 0 WHERE id = ?", other.branches.tahlia);
    expect(await refused(409, pickup(other.branches.tahlia), other)).toMatchObject({
      code: "pickup_not_supported",
      branch_id: other.branches.tahlia,
    });
  });

  it("a restaurant without pickup or without delivery: 409 pickup_not_supported, delivery_not_supported", async () => {
    await sql("UPDATE restaurants SET supports_pickup = 0, supports_delivery = 0 WHERE id = ?", other.restaurant);
    expect(await refused(409, pickup(other.branches.olaya), other)).toMatchObject({ code: "pickup_not_supported" });
    expect(await refused(409, () => {}, other)).toMatchObject({ code: "delivery_not_supported" });
    await sql("UPDATE restaurants SET supports_pickup = 1, supports_delivery = 1 WHERE id = ?", other.restaurant);
  });
});
