import { beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/client";
import { addDays, weekdayOf } from "../../src/modules/meals/dates";
import { HELD_CHECKS } from "../helpers/d1-waits";
import { APP_1, shardFor } from "../helpers/factories";
import { AUDIT, missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";
import { firstOpen, today } from "./helpers";

// Stores and meals ids of this file's own (other meals files have stores 51 to 56).
const A = 57;
const B = 58;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;

beforeAll(async () => {
  a = await seedMealsFor(A, 570_000);
  b = await seedMealsFor(B, 580_000);
});

const get = (path: string, headers: Record<string, string> = {}) => call(path, { appId: A, headers });

describe("Plan Details (2.3, 4.3)", () => {
  const plan = (id: number, q = "") => get(`/public-api/v1/plans/${id}/${q}`);

  it("serves every field of the meal plan with the first version and the earliest start by default", async () => {
    const res = await plan(a.balanced);
    expect(res.status).toBe(200);
    const p = await json(res);
    expect(schemaErrors("getPlan", p)).toEqual([]);
    expect(
      missingKeys(p, [
        "id",
        "name_en",
        "name_ar",
        "subtitle_en",
        "subtitle_ar",
        "description_en",
        "description_ar",
        "plan_tags",
        "image",
        "image_ar",
        "daily_num_of_items",
        "avg_daily_meal_calories",
        "start_after",
        "special_product_selection_limit",
        "featured_title_en",
        "featured_title_ar",
        "is_featured",
        "is_marketplace_featured",
        "is_marketplace_active",
        "supported_service",
        "gender",
        "subscription_type",
        "menu_id",
        "repetition",
        "start_date",
        "skip_option_selection",
        "size",
        "versions",
        "restaurant",
        "dates",
        "masters",
      ]),
    ).toEqual([]);
    expect(p.plan_tags.map((t: { tag_en: string }) => t.tag_en)).toEqual(["Weight loss", "Muscle gain"]);
    expect(
      missingKeys(p.plan_tags[0], [
        "id",
        "ordering",
        "type_en",
        "type_ar",
        "tag_en",
        "tag_ar",
        "description_en",
        "description_ar",
        "image",
        "color",
      ]),
    ).toEqual([]);
    expect(p.size).toEqual({ id: a.balanced, title: "Regular", protein_amount: 150, carb_amount: 200, unit: "g" });
    expect(p.restaurant).toEqual({
      id: a.green,
      name_en: "Green Bowl",
      name_ar: "الوعاء الأخضر",
      logo: "/media/restaurants/green-bowl.png",
    });
    expect(p.versions.map((v: { id: number }) => v.id)).toEqual([a.balancedMonth, a.balanced20]);
    expect(
      missingKeys(p.versions[0], [
        "id",
        "custom_fields",
        "min_start_date",
        "max_start_date",
        "off_days",
        "ordering",
        "num_of_days",
        "total_num_of_items",
        "delivery_price",
        "original_price",
        "discount_percentage",
        "duration",
        "pause_credits",
        "num_of_pause_attempts",
        "min_of_pause_days",
      ]),
    ).toEqual([]);
    expect(p.versions[0]).toMatchObject({
      num_of_days: 30,
      original_price: 2499,
      discount_percentage: 10,
      off_days: ["friday"],
    });
    expect(p.plan_version_id).toBe(a.balancedMonth);
    // Plan start_after is 2 days; the version and the restaurant are off on Fridays; 2026-12-31 is closed.
    expect(p.start_date).toBe(firstOpen(addDays(today(), 2), ["2026-12-31"]));

    expect(p.masters).toHaveLength(30);
    const master = p.masters[0];
    expect(
      missingKeys(master, [
        ...AUDIT,
        "id",
        "restaurant_name",
        "day",
        "repetition_counter",
        "master_id",
        "plan",
        "restaurant",
        "plan_categories",
      ]),
    ).toEqual([]);
    expect(master).toMatchObject({
      day: "Day 1",
      repetition_counter: 1,
      plan: a.balanced,
      restaurant: a.green,
      restaurant_name: "Green Bowl",
    });
    expect(master.plan_categories).toHaveLength(5);
    const category = master.plan_categories[3];
    expect(
      missingKeys(category, [
        ...AUDIT,
        "id",
        "name_en",
        "name_ar",
        "is_multi_select",
        "max_selected_options",
        "category_master_id",
        "plan_date",
        "options",
      ]),
    ).toEqual([]);
    expect(category).toMatchObject({
      name_en: "Snacks",
      is_multi_select: true,
      max_selected_options: 2,
      plan_date: master.id,
    });
    expect(category.options).toHaveLength(10);
    const option = category.options[0];
    expect(missingKeys(option, [...AUDIT, "id", "is_recommended", "is_active", "plan_category", "product"])).toEqual(
      [],
    );
    expect(option).toMatchObject({ is_recommended: true, plan_category: category.id });
    expect(
      missingKeys(option.product, [
        ...AUDIT,
        "id",
        "name_ar",
        "name_en",
        "original_price",
        "discount_percentage",
        "original_image",
        "image",
        "nutritions",
        "restaurant_id",
        "is_sub",
        "description_ar",
        "description_en",
        "category_id",
        "is_active",
        "is_special",
        "in_stock",
        "allergies",
        "tags",
        "allergens_dislikes",
        "variant",
      ]),
    ).toEqual([]);
    expect(
      missingKeys(option.product.nutritions, [...AUDIT, "id", "calories", "carbs", "fat", "protein", "product"]),
    ).toEqual([]);
  });

  it("dates: num_of_days delivery days from start_date, skipping the off days and the closed dates", async () => {
    const start = firstOpen(addDays(today(), 3), ["2026-12-31"]);
    const p = await json(await plan(a.balanced, `?start_date=${start}`));
    expect(p.start_date).toBe(start);
    expect(p.dates).toHaveLength(30);
    expect(p.dates[0]).toBe(start);
    let expected = start;
    for (const d of p.dates) {
      expect(d).toBe(expected);
      expected = firstOpen(addDays(d, 1), ["2026-12-31"]);
    }
    // The 20-day version is also off on Saturdays.
    const v2 = await json(await plan(a.balanced, `?plan_version_id=${a.balanced20}`));
    expect(v2.plan_version_id).toBe(a.balanced20);
    expect(v2.dates).toHaveLength(20);
    expect(v2.dates.map(weekdayOf)).not.toContain("saturday");
    expect(v2.dates.map(weekdayOf)).not.toContain("friday");
  });

  it("refuses a version of another plan, and a start date too early, after the last one or on an off day", async () => {
    let friday = addDays(today(), 3);
    while (weekdayOf(friday) !== "friday") friday = addDays(friday, 1);
    const first = firstOpen(addDays(today(), 2), ["2026-12-31"]);
    for (const [q, field, words] of [
      [`?plan_version_id=${a.ketoWeek}`, "plan_version_id", `its versions are ${a.balancedMonth}, ${a.balanced20}`],
      [`?plan_version_id=${b.balancedMonth}`, "plan_version_id", "Not a version of plan"],
      ["?plan_version_id=x", "plan_version_id", "positive integer"],
      [`?start_date=${today()}`, "start_date", `first start date is ${first}`],
      ["?start_date=2031-01-06", "start_date", "last start date"],
      [`?start_date=${friday}`, "start_date", "Not a delivery day (friday)"],
      ["?start_date=2026-13-01", "start_date", "real calendar date"],
    ] as const) {
      const res = await plan(a.balanced, q);
      expect(res.status, q).toBe(400);
      expect((await problem(res)).errors?.[field]?.join(" "), q).toContain(words);
    }
  });

  it(
    "is 404 for an unknown plan and another tenant's, 409 for a plan without a version or " + "past its last start",
    async () => {
      expect((await plan(999_999)).status).toBe(404);
      expect((await plan(b.balanced)).status).toBe(404);
      await shardFor(APP_1)
        .prepare("UPDATE plan_versions SET max_start_date = '2026-01-31' WHERE id = ?")
        .bind(b.ketoWeek)
        .run();
      const closed = await call(`/public-api/v1/plans/${b.keto}/`, { appId: B });
      expect(closed.status).toBe(409);
      expect((await problem(closed)).code).toBe("plan_version_closed");
      await shardFor(APP_1).prepare("UPDATE plan_versions SET is_deleted = 1 WHERE id = ?").bind(b.ketoWeek).run();
      const none = await call(`/public-api/v1/plans/${b.keto}/`, { appId: B });
      expect(none.status).toBe(409);
      expect((await problem(none)).code).toBe("plan_has_no_versions");
    },
  );

  it("runs the same number of D1 statements for 30 days × 5 × 10 options as for 7 days × 3 × 3", async () => {
    const counts: number[] = [];
    for (const id of [a.balanced, a.keto]) {
      let n = 0;
      // The store's check (knownApp) is held for a second only: on a busy machine it may run again.
      const stop = observeStatements((q) => {
        if (!HELD_CHECKS.test(q)) n++;
      });
      // Another start date each time, so that the cache misses and the plan is read from D1.
      const res = await plan(id, `?start_date=${firstOpen(addDays(today(), 10))}`);
      stop();
      expect(res.status).toBe(200);
      expect(res.headers.get("x-cache")).toBe("MISS");
      counts.push(n);
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeLessThanOrEqual(9);
  });
});

describe("Plan tags and List Plans", () => {
  it("List Plan Tags and List Plans with filters", async () => {
    const tags = await json(await get("/public-api/v1/plans/tags/"));
    expect(schemaErrors("listPlanTags", tags)).toEqual([]);
    expect(tags.results.map((t: { tag_en: string }) => t.tag_en)).toEqual(["Weight loss", "Muscle gain", "Keto"]);

    const list = (body: unknown, q = "") => call(`/public-api/v1/plans/${q}`, { appId: A, method: "POST", body });
    const all = await json(await list({}));
    expect(schemaErrors("listPlans", all)).toEqual([]);
    expect(all.results.map((p: { id: number }) => p.id)).toEqual([a.balanced, a.keto]);
    expect(all.results[0]).not.toHaveProperty("masters");
    expect((await json(await list({ tag_ids: [a.tags[2]] }))).results.map((p: { id: number }) => p.id)).toEqual([
      a.keto,
    ]);
    expect((await json(await list({ min_calories: 1600 }))).results.map((p: { id: number }) => p.id)).toEqual([
      a.balanced,
    ]);
    expect((await json(await list({ search: "كيتو" }))).results.map((p: { id: number }) => p.id)).toEqual([a.keto]);
    const paged = await json(await list({}, "?page_size=1&order_by=-avg_daily_meal_calories"));
    expect(paged.results.map((p: { id: number }) => p.id)).toEqual([a.balanced]);
    expect(paged.next).toContain("page=2");
    const bad = await list({ min_calories: 2000, max_calories: 1000 });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("min_calories");
    expect((await list({ tag_ids: "keto" })).status).toBe(400);
    // Paging goes in the query, as on every list: in the body it is an unknown field.
    const inBody = await list({ page: 2 });
    expect(inBody.status).toBe(400);
    expect((await problem(inBody)).errors).toHaveProperty("page");
  });
});
