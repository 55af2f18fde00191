import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { openDates } from "../../src/modules/meals/dates";
import { APP_1, shardFor, tokenFor } from "../helpers/factories";
import { missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, callWaits, pageIds as ids, json, problem } from "../helpers/request";

/** Plans v3 (MM4): public reads under /api/v3/plans/, cached in KV. */

const A = 4401;
const B = 4402;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let tokenA: string;

// Monday 2 March 2026, 09:00 in Riyadh: Balanced 30 (start_after 2) first delivers on Wednesday the 4th.
const NOW = "2026-03-02T06:00:00.000Z";

beforeAll(async () => {
  setClock(NOW);
  a = await seedMealsFor(A, 4_410_000);
  b = await seedMealsFor(B, 4_420_000);
  tokenA = await tokenFor(A, ["can_write_item"]);
});
afterAll(() => setClock(null));

const V3 = "/api/v3/plans/";
const get = (path: string, headers: Record<string, string> = {}, appId = A) => call(V3 + path, { appId, headers });

describe("Plan Tag", () => {
  it("lists the store's plan tags, paginated, never another store's", async () => {
    const res = await get("tags/");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listPlanTagsV3", page)).toEqual([]);
    expect(page.count).toBe(3);
    expect(ids(page)).toEqual(a.tags);
    expect(page.results[2]).toMatchObject({ tag_en: "Keto", type_en: "Diet", color: null });
    const paged = await json(await get("tags/?page_size=2&page=2"));
    expect(paged).toMatchObject({ count: 3, next: null });
    expect(paged.previous).toContain("page=1");
    expect(ids(paged)).toEqual([a.tags[2]]);
    expect(ids(await json(await get("tags/", {}, B)))).toEqual(b.tags);
  });

  it("is a 400 naming the parameter for an unknown filter or a page out of range", async () => {
    const unknown = await problem(await get("tags/?colour=red"));
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.errors!)).toEqual(["colour"]);
    const far = await problem(await get("tags/?page=9"));
    expect(far.errors!.page![0]).toContain("1 page");
  });
});

describe("List Feature Plan Tags", () => {
  it("lists only the tags of featured plans", async () => {
    const page = await json(await get("featured-tags/"));
    expect(schemaErrors("listFeaturedPlanTags", page)).toEqual([]);
    // Balanced 30 is featured (Weight loss, Muscle gain); Keto week is not.
    expect(ids(page)).toEqual([a.tags[0], a.tags[1]]);
  });
});

describe("List Featured Plans", () => {
  it("lists the featured plans in the List Plans shape", async () => {
    const page = await json(await get("featured/"));
    expect(schemaErrors("listFeaturedPlans", page)).toEqual([]);
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({ id: a.balanced, is_featured: true, featured_title_en: "Most popular" });
    expect(ids(await json(await get("featured/", {}, B)))).toEqual([b.balanced]);
  });
});

describe("List Super Plans and Super Plan Details", () => {
  it("groups each plan's versions, tags and restaurants", async () => {
    const res = await get("super-plans/");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listSuperPlans", page)).toEqual([]);
    expect(ids(page)).toEqual([a.balanced, a.keto]);
    const balanced = page.results[0];
    expect(missingKeys(balanced, ["id", "plan_tags", "versions", "restaurants", "size", "menu_id"])).toEqual([]);
    expect(balanced).not.toHaveProperty("restaurant");
    expect(balanced.restaurants).toEqual([
      {
        id: a.green,
        name_en: "Green Bowl",
        name_ar: "الوعاء الأخضر",
        logo: "/media/restaurants/green-bowl.png",
        supports_pickup: true,
        supports_delivery: true,
        closed_dates: ["2026-12-31"],
        off_days: ["friday"],
        time_zone: "Asia/Riyadh",
      },
    ]);
    expect(balanced.versions.map((v: { id: number }) => v.id)).toEqual([a.balancedMonth, a.balanced20]);
    expect(balanced.versions[0]).toMatchObject({ original_price: 2499, discount_percentage: 10, num_of_days: 30 });
    expect(balanced.plan_tags.map((t: { tag_en: string }) => t.tag_en)).toEqual(["Weight loss", "Muscle gain"]);
    expect(page.results[1].versions.map((v: { id: number }) => v.id)).toEqual([a.ketoWeek]);
  });

  it("filters, searches and orders", async () => {
    expect(ids(await json(await get("super-plans/?is_featured=false")))).toEqual([a.keto]);
    expect(ids(await json(await get("super-plans/?subscription_type=weekly")))).toEqual([a.keto]);
    expect(ids(await json(await get("super-plans/?search=balanced")))).toEqual([a.balanced]);
    expect(ids(await json(await get("super-plans/?order_by=avg_daily_meal_calories")))).toEqual([a.keto, a.balanced]);
    expect(ids(await json(await get(`super-plans/?restaurant_id=${a.kabsa}`)))).toEqual([]);
    const bad = await problem(await get("super-plans/?subscription_type=yearly"));
    expect(bad.errors!.subscription_type![0]).toContain("daily, weekly, monthly, custom");
  });

  it("serves one plan in the same shape; another store's plan is a 404", async () => {
    const res = await get(`super-plans/${a.keto}/`);
    expect(res.status).toBe(200);
    const plan = await json(res);
    expect(schemaErrors("getSuperPlan", plan)).toEqual([]);
    const listed = (await json(await get("super-plans/"))).results[1];
    expect(plan).toEqual(listed);
    for (const id of [b.keto, 999_999_999]) {
      const p = await problem(await get(`super-plans/${id}/`));
      expect(p).toMatchObject({ status: 404, code: "plan_not_found" });
    }
    expect((await problem(await get("super-plans/abc/"))).errors).toHaveProperty("plan_id");
  });
});

describe("Plan Date Details", () => {
  const dates = openDates("2026-03-04", 30, { offDays: ["friday"], closedDates: ["2026-12-31"] });

  it("serves the day of the menu cycle that delivers on the date, with its categories and products", async () => {
    const res = await get(`${a.balanced}/dates/2026-03-05/`);
    expect(res.status).toBe(200);
    const day = await json(res);
    expect(schemaErrors("getPlanDate", day)).toEqual([]);
    expect(day).toMatchObject({
      plan_id: a.balanced,
      plan_version_id: a.balancedMonth,
      start_date: "2026-03-04",
      date: "2026-03-05",
      weekday: "thursday",
      day_number: 2,
      repetition_counter: 2,
    });
    expect(day.master).toMatchObject({ id: a.id(2), day: "Day 2", repetition_counter: 2, plan: a.balanced });
    expect(day.master.plan_categories.map((c: { name_en: string }) => c.name_en)).toEqual([
      "Breakfast",
      "Lunch",
      "Dinner",
      "Snacks",
      "Salads",
    ]);
    const options = day.master.plan_categories[0].options;
    expect(options).toHaveLength(10);
    // Day 2 offers the course's dishes rotated by 2: Labneh toast first, and recommended.
    expect(options[0]).toMatchObject({ is_recommended: true, product: { name_en: "Labneh toast" } });
  });

  it("counts the cycle over delivery dates only: Friday is skipped, the last date is day 30", async () => {
    // Saturday the 7th is the 3rd delivery (Friday the 6th is off).
    expect((await json(await get(`${a.balanced}/dates/2026-03-07/`))).day_number).toBe(3);
    const last = await json(await get(`${a.balanced}/dates/${dates[29]}/`));
    expect(last).toMatchObject({ day_number: 30, repetition_counter: 30 });
    expect(last.master.day).toBe("Day 30");
    // Keto week repeats a 7-day cycle over its 7 dates; from a later start the counting starts again.
    const keto = await json(await get(`${a.keto}/dates/2026-03-14/?start_date=2026-03-14`));
    expect(keto).toMatchObject({ start_date: "2026-03-14", day_number: 1, repetition_counter: 1 });
  });

  it("follows the version and start date asked for", async () => {
    const day = await json(await get(`${a.balanced}/dates/2026-03-09/?plan_version_id=${a.balanced20}`));
    // Version 20 days is off on Fridays and Saturdays: 4, 5, 8, 9 March.
    expect(day).toMatchObject({ plan_version_id: a.balanced20, day_number: 4, repetition_counter: 4 });
  });

  it("is a 409 naming why and the next delivery date when the plan delivers nothing that day", async () => {
    const cases = [
      ["2026-03-06", "not_a_delivery_day", "2026-03-07"],
      ["2026-03-03", "before_start", "2026-03-04"],
      ["2026-06-30", "after_end", null],
    ] as const;
    for (const [date, reason, first] of cases) {
      const res = await get(`${a.balanced}/dates/${date}/`);
      expect(res.status, date).toBe(409);
      expect(res.headers.get("x-cache")).toBeNull();
      const p = await problem(res);
      expect(p).toMatchObject({
        code: "plan_date_not_served",
        reason,
        first_valid_date: first,
        start_date: "2026-03-04",
        end_date: dates[29],
      });
    }
  });

  it("is a 400 for a bad date, version or start date, and a 404 for another store's plan", async () => {
    expect((await problem(await get(`${a.balanced}/dates/2026-02-30/`))).errors).toHaveProperty("date");
    expect((await problem(await get(`${a.balanced}/dates/tomorrow/`))).errors).toHaveProperty("date");
    const version = await problem(await get(`${a.balanced}/dates/2026-03-05/?plan_version_id=${a.ketoWeek}`));
    expect(version.errors!.plan_version_id![0]).toContain("Not a version");
    const early = await problem(await get(`${a.balanced}/dates/2026-03-05/?start_date=2026-03-03`));
    expect(early.errors!.start_date![0]).toContain("2026-03-04");
    expect((await problem(await get(`${b.balanced}/dates/2026-03-05/`))).code).toBe("plan_not_found");
  });
});

describe("Plan Menu Categories", () => {
  it("lists the categories of the plan's menu with their products", async () => {
    const page = await json(await get(`${a.balanced}/menu-categories/?page_size=2`));
    expect(schemaErrors("listPlanMenuCategories", page)).toEqual([]);
    expect(page.count).toBe(5);
    expect(page.results.map((c: { name_en: string }) => c.name_en)).toEqual(["Breakfast", "Lunch"]);
    expect(page.results[0].products).toHaveLength(10);
    expect(page.results[0].products[0]).toMatchObject({ name_en: "Oat bowl", is_sub: true, original_price: 18 });
    expect(page.results[0].products[0].nutritions).toMatchObject({ calories: 180 });
    expect((await problem(await get(`${b.balanced}/menu-categories/`))).code).toBe("plan_not_found");
  });

  it("reads the plan, its menu and the page in one round trip beyond the token check", async () => {
    const { res, waits } = await callWaits(`${V3}${a.keto}/menu-categories/?page_size=2`, { appId: A });
    expect(res.status).toBe(200);
    expect(waits.beyondAuth).toBe(1);
  });

  it("is a 404 naming the menu when the plan is shown but its menu is not", async () => {
    const { menuId } = (await shardFor(APP_1)
      .prepare("SELECT menu_id AS menuId FROM plans WHERE id = ?")
      .bind(b.balanced)
      .first<{ menuId: number }>())!;
    await shardFor(APP_1).prepare("UPDATE menus SET is_deleted = 1 WHERE id = ?").bind(menuId).run();
    const p = await problem(await get(`${b.balanced}/menu-categories/?page=3`, {}, B));
    expect(p).toMatchObject({ status: 404, code: "menu_not_found" });
    expect(p.detail).toContain(`Menu ${menuId}`);
    expect((await problem(await get(`${a.balanced}/menu-categories/`, {}, B))).code).toBe("plan_not_found");
  });
});

describe("the cache of the v3 reads", () => {
  it("answers If-None-Match with 304, and a merchant write makes every read fresh", async () => {
    const paths = ["super-plans/", `${a.balanced}/dates/2026-03-05/`, "featured-tags/"];
    const etags: string[] = [];
    for (const path of paths) {
      await get(path);
      const hit = await get(path);
      expect(hit.headers.get("x-cache"), path).toBe("HIT");
      etags.push(hit.headers.get("etag")!);
      expect((await get(path, { "If-None-Match": etags.at(-1)! })).status).toBe(304);
    }
    const write = await call(`/order/v1/merchant/meals/plans/${a.keto}/`, {
      method: "PATCH",
      token: tokenA,
      appId: A,
      body: { is_featured: true },
    });
    expect(write.status).toBe(200);
    for (const [i, path] of paths.entries()) {
      const after = await get(path, { "If-None-Match": etags[i]! });
      expect(after.headers.get("x-cache"), path).toBe("MISS");
    }
    // The write shows: Keto week is featured now, and so is its tag.
    expect(ids(await json(await get("featured-tags/")))).toEqual(a.tags);
    expect(ids(await json(await get("featured/")))).toEqual([a.balanced, a.keto]);
  });
});
