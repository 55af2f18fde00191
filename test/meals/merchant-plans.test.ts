import { describe, expect, it } from "vitest";
import { shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";
import { MERCHANT_MEALS, mealsMerchantOf, rowOf } from "./helpers";

// Stores and meals ids of this file's own (the other merchant files have stores 55, 56 and 65, 66).
const A = 67;
const B = 68;
const M = MERCHANT_MEALS;
const { fx, post, patch, del } = mealsMerchantOf(A, B);
const row = rowOf;

describe("plans with versions, days, categories and options", () => {
  it("builds a plan that Plan Details serves, level by level", async () => {
    const created = await post(`${M}plans/`, {
      restaurant_id: fx.a.green,
      menu_id: fx.a.greenMenu,
      name_en: "Two-day trial",
      name_ar: "تجربة يومين",
      daily_num_of_items: 1,
      subscription_type: "custom",
      repetition: 2,
      tag_ids: [fx.a.tags[0]],
      size: { title: "Small", protein_amount: 90 },
    });
    expect(created.status).toBe(201);
    const plan = await json(created);
    expect(schemaErrors("createPlan", plan, "201")).toEqual([]);
    expect(plan).toMatchObject({
      name_en: "Two-day trial",
      size: { id: plan.id, title: "Small", protein_amount: 90, carb_amount: null, unit: "g" },
      versions: [],
    });
    expect(plan.plan_tags.map((t: { id: number }) => t.id)).toEqual([fx.a.tags[0]]);

    const announced = await shardFor(A)
      .prepare(
        "SELECT payload FROM outbox_events WHERE app_id = ? AND type = 'plan.created' ORDER BY rowid DESC LIMIT 1",
      )
      .bind(A)
      .first<{ payload: string }>();
    expect(JSON.parse(announced!.payload)).toMatchObject({ type: "plan.created", app_id: A, data: { id: plan.id } });

    const version = await json(
      await post(`${M}plans/${plan.id}/versions/`, {
        min_start_date: "2026-01-01",
        max_start_date: "2030-01-01",
        num_of_days: 2,
        total_num_of_items: 2,
        original_price: 49.99,
        off_days: [],
      }),
    );
    expect(schemaErrors("createPlanVersion", version, "201")).toEqual([]);
    expect(version).toMatchObject({ plan: plan.id, original_price: 49.99 });
    // A change below the plan is announced as the plan's.
    const updated = await shardFor(A)
      .prepare("SELECT payload FROM outbox_events WHERE app_id = ? ORDER BY rowid DESC LIMIT 1")
      .bind(A)
      .first<{ payload: string }>();
    expect(JSON.parse(updated!.payload)).toMatchObject({ type: "plan.updated", data: { id: plan.id } });
    const day1 = await json(await post(`${M}plans/${plan.id}/days/`, { day: "Day 1", repetition_counter: 1 }));
    expect(schemaErrors("createPlanDay", day1, "201")).toEqual([]);
    const taken = await post(`${M}plans/${plan.id}/days/`, { day: "Again", repetition_counter: 1 });
    expect(taken.status).toBe(409);
    expect((await problem(taken)).code).toBe("plan_day_taken");
    const beyond = await post(`${M}plans/${plan.id}/days/`, { day: "Day 3", repetition_counter: 3 });
    expect(beyond.status).toBe(400);
    expect((await problem(beyond)).errors?.repetition_counter?.[0]).toContain("1 to 2");

    const category = await json(
      await post(`${M}plan-days/${day1.id}/categories/`, { name_en: "Lunch", name_ar: "الغداء" }),
    );
    expect(schemaErrors("createPlanCategory", category, "201")).toEqual([]);
    expect(category.plan_date).toBe(day1.id);
    const option = await json(
      await post(`${M}plan-categories/${category.id}/options/`, { product_id: fx.a.oatBowl, is_recommended: true }),
    );
    expect(schemaErrors("createPlanOption", option, "201")).toEqual([]);
    expect(option).toMatchObject({ product: fx.a.oatBowl, plan_category: category.id, is_recommended: true });
    const twice = await post(`${M}plan-categories/${category.id}/options/`, { product_id: fx.a.oatBowl });
    expect(twice.status).toBe(409);
    const foreign = await post(`${M}plan-categories/${category.id}/options/`, { product_id: fx.b.oatBowl });
    expect(foreign.status).toBe(400);
    expect((await problem(foreign)).errors).toHaveProperty("product_id");

    const details = await json(await call(`/public-api/v1/plans/${plan.id}/`, { appId: A }));
    expect(details.plan_version_id).toBe(version.id);
    expect(details.dates).toHaveLength(2);
    expect(details.masters).toHaveLength(1);
    expect(details.masters[0].plan_categories[0].options[0].product).toMatchObject({
      id: fx.a.oatBowl,
      name_en: "Oat bowl",
    });

    const lower = await patch(`${M}plans/${plan.id}/`, { repetition: 1, tag_ids: [] });
    expect(lower.status).toBe(200);
    expect((await post(`${M}plans/${plan.id}/days/`, { day: "Day 2", repetition_counter: 2 })).status).toBe(400);

    const badRange = await patch(`${M}plan-versions/${version.id}/`, { min_start_date: "2031-01-01" });
    expect(badRange.status).toBe(400);
    expect((await problem(badRange)).errors).toHaveProperty("min_start_date");

    // Deleting the day takes its categories and options with it.
    expect((await del(`${M}plan-days/${day1.id}/`)).status).toBe(204);
    expect(await row("plan_options", option.id)).toMatchObject({ is_deleted: 1 });
    expect((await json(await call(`/public-api/v1/plans/${plan.id}/`, { appId: A }))).masters).toEqual([]);

    expect((await del(`${M}plans/${plan.id}/`)).status).toBe(204);
    expect(await row("plan_versions", version.id)).toMatchObject({ is_deleted: 1 });
    expect((await call(`/public-api/v1/plans/${plan.id}/`, { appId: A })).status).toBe(404);
  });

  it("refuses a repetition below a day's place in the cycle", async () => {
    const res = await patch(`${M}plans/${fx.a.keto}/`, { repetition: 5 });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("plan_days_beyond_repetition");
    expect(await row("plans", fx.a.keto)).toMatchObject({ repetition: 7 });
  });

  it("refuses a menu of another restaurant and unknown tags", async () => {
    const base = {
      restaurant_id: fx.a.green,
      name_en: "X",
      name_ar: "س",
      daily_num_of_items: 1,
      subscription_type: "daily",
      repetition: 1,
      size: { title: "S", protein_amount: 1 },
    };
    const wrongMenu = await post(`${M}plans/`, { ...base, menu_id: fx.a.kabsaMenu });
    expect(wrongMenu.status).toBe(400);
    expect((await problem(wrongMenu)).errors).toHaveProperty("menu_id");
    const tags = await post(`${M}plans/`, { ...base, menu_id: fx.a.greenMenu, tag_ids: [fx.b.tags[0]] });
    expect(tags.status).toBe(400);
    expect((await problem(tags)).errors?.tag_ids?.[0]).toContain(String(fx.b.tags[0]));
  });
});
