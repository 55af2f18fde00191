import { beforeAll, describe, expect, it } from "vitest";
import { tokenFor } from "../helpers/factories";
import { seedMealsFor } from "../helpers/meals";
import { call, callWaits, json } from "../helpers/request";
import { MERCHANT_MEALS as M } from "./helpers";

/**
 * How long the meals merchant writes keep a client waiting on D1, in round trips one after another
 * beyond the token check (never time): one batch that reads the record and all its body names, then
 * one batch that writes, emits and reads the answer back. A cached public read shows each change at
 * once, as before.
 */

// Stores and meals ids of this file's own (the other merchant files have stores 55, 56, 65 to 68).
const A = 78;
let fx: Awaited<ReturnType<typeof seedMealsFor>>;
let token = "";

beforeAll(async () => {
  fx = await seedMealsFor(A, A * 10_000);
  token = await tokenFor(A, ["can_write_item"]);
});

const send = async (method: string, path: string, body?: unknown) => {
  const { res, waits } = await callWaits(`${M}${path}`, { method, body, token, appId: A });
  const answer = res.status === 204 ? null : await json(res);
  expect(res.status, `${method} ${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
  expect(waits.beyondAuth, `${method} ${path}`).toBeLessThanOrEqual(2);
  return answer;
};
const publicRead = async (path: string) => json(await call(path, { appId: A }));

describe("Meals merchant writes: D1 round trips", () => {
  it("restaurants, their categories, variants and branches: two at most, the public read fresh", async () => {
    const cuisine = await send("POST", "restaurant-categories/", { name_en: "Grill", name_ar: "مشويات" });
    expect(await send("PATCH", `restaurant-categories/${cuisine.id}/`, { name_en: "Grills" })).toMatchObject({
      id: cuisine.id,
      name_en: "Grills",
    });
    const r = await send("POST", "restaurants/", {
      name_en: "Grill House",
      name_ar: "بيت المشويات",
      rest_type: "both",
      category_id: cuisine.id,
      delivery_windows: [{ from_time: "12:00", to_time: "14:00", type: "both" }],
    });
    expect(r).toMatchObject({ name_en: "Grill House", category_id: cuisine.id });
    expect((await publicRead(`/api/v1/restaurants/${fx.green}/`)).name_en).not.toBe("Green Kitchen 2");
    expect(
      await send("PATCH", `restaurants/${fx.green}/`, { name_en: "Green Kitchen 2", menu_id: fx.greenMenu }),
    ).toMatchObject({ id: fx.green, name_en: "Green Kitchen 2" });
    expect((await publicRead(`/api/v1/restaurants/${fx.green}/`)).name_en).toBe("Green Kitchen 2");

    const variant = await send("POST", `restaurants/${fx.green}/variants/`, { name_en: "Paleo", name_ar: "باليو" });
    expect(await send("PATCH", `restaurant-variants/${variant.id}/`, { name_en: "Paleo+" })).toMatchObject({
      name_en: "Paleo+",
    });
    const branch = await send("POST", `restaurants/${r.id}/branches/`, {
      name_en: "Malqa",
      name_ar: "الملقا",
      city_id: 1,
      lat: 24.8,
      lng: 46.6,
    });
    expect(await send("PATCH", `branches/${branch.id}/`, { name_en: "Malqa 2", is_main: true })).toMatchObject({
      id: branch.id,
      name_en: "Malqa 2",
      is_main: true,
    });
    await send("DELETE", `restaurants/${r.id}/`);
  });

  it("menus, categories, products and combos: two at most, the menu served fresh", async () => {
    expect(await send("PATCH", `menus/${fx.greenMenu}/`, { name_en: "Green menu" })).toMatchObject({
      name_en: "Green menu",
    });
    const category = await send("POST", `menus/${fx.greenMenu}/categories/`, { name_en: "Bowls", name_ar: "أطباق" });
    expect(await send("PATCH", `menu-categories/${category.id}/`, { name_en: "Big bowls" })).toMatchObject({
      name_en: "Big bowls",
    });
    const product = await send("POST", "products/", {
      restaurant_id: fx.green,
      category_id: category.id,
      name_en: "Grain bowl",
      name_ar: "طبق الحبوب",
      price: 30,
      nutritions: { calories: 500 },
    });
    expect(product).toMatchObject({ name_en: "Grain bowl", original_price: 30, nutritions: { calories: 500 } });
    expect(await send("PATCH", `products/${product.id}/`, { price: 32, nutritions: { calories: 450 } })).toMatchObject({
      original_price: 32,
      nutritions: { calories: 450 },
    });

    const combo = await send("POST", `menu-categories/${category.id}/combos/`, {
      name_en: "Two bowls",
      name_ar: "طبقان",
      price: 55,
      product_ids: [product.id, fx.oatBowl],
    });
    expect(combo).toMatchObject({ name_en: "Two bowls", original_price: 55 });
    expect(combo.products.map((p: { id: number }) => p.id).sort()).toEqual([product.id, fx.oatBowl].sort());
    const renamed = await send("PATCH", `combos/${combo.id}/`, { name_en: "Bowl pair", product_ids: [product.id] });
    expect(renamed).toMatchObject({ id: combo.id, name_en: "Bowl pair" });
    expect(renamed.products.map((p: { id: number }) => p.id)).toEqual([product.id]);
    await send("DELETE", `combos/${combo.id}/`);

    const allergen = await send("POST", "allergens-dislikes/", { kind: "allergy", name_en: "Soy", name_ar: "صويا" });
    expect(await send("PATCH", `allergens-dislikes/${allergen.id}/`, { name_en: "Soya" })).toMatchObject({
      name_en: "Soya",
    });
  });

  it("plans, versions, tags, days, categories and options: two at most, Plan Details fresh", async () => {
    const plan = await send("POST", "plans/", {
      restaurant_id: fx.green,
      menu_id: fx.greenMenu,
      name_en: "Trial",
      name_ar: "تجربة",
      daily_num_of_items: 1,
      subscription_type: "custom",
      repetition: 2,
      tag_ids: [fx.tags[0]],
      size: { title: "Small", protein_amount: 90 },
    });
    expect(plan).toMatchObject({ name_en: "Trial", versions: [] });
    expect(plan.plan_tags.map((t: { id: number }) => t.id)).toEqual([fx.tags[0]]);
    expect(await send("PATCH", `plans/${plan.id}/`, { name_en: "Trial 2", tag_ids: [fx.tags[1]] })).toMatchObject({
      name_en: "Trial 2",
    });

    const version = await send("POST", `plans/${plan.id}/versions/`, {
      min_start_date: "2026-01-01",
      max_start_date: "2030-01-01",
      num_of_days: 2,
      total_num_of_items: 2,
      original_price: 49.99,
      off_days: [],
    });
    expect(await send("PATCH", `plan-versions/${version.id}/`, { num_of_days: 3 })).toMatchObject({ num_of_days: 3 });
    // Read (and cached) before the days are written; read again after, with them.
    expect((await publicRead(`/public-api/v1/plans/${plan.id}/`)).masters).toEqual([]);

    const tag = await send("POST", "plan-tags/", { type_en: "Goal", type_ar: "هدف", tag_en: "Lean", tag_ar: "رشيق" });
    expect(await send("PATCH", `plan-tags/${tag.id}/`, { tag_en: "Leaner" })).toMatchObject({ tag_en: "Leaner" });
    await send("DELETE", `plan-tags/${tag.id}/`);

    const day = await send("POST", `plans/${plan.id}/days/`, { day: "Day 1", repetition_counter: 1 });
    expect(await send("PATCH", `plan-days/${day.id}/`, { day: "Day one", repetition_counter: 2 })).toMatchObject({
      day: "Day one",
      repetition_counter: 2,
    });
    const category = await send("POST", `plan-days/${day.id}/categories/`, { name_en: "Lunch", name_ar: "الغداء" });
    expect(await send("PATCH", `plan-categories/${category.id}/`, { name_en: "Dinner" })).toMatchObject({
      name_en: "Dinner",
    });
    const option = await send("POST", `plan-categories/${category.id}/options/`, { product_id: fx.oatBowl });
    expect(await send("PATCH", `plan-options/${option.id}/`, { is_recommended: true })).toMatchObject({
      is_recommended: true,
    });
    const details = await publicRead(`/public-api/v1/plans/${plan.id}/`);
    expect(details.masters[0].plan_categories[0].options[0].product).toMatchObject({ id: fx.oatBowl });
  });

  it("corporate locations: two at most", async () => {
    const location = await send("POST", "corporate-locations/", {
      name_en: "Towers",
      name_ar: "الأبراج",
      city_id: 1,
      lat: 24.69,
      lng: 46.685,
      delivery_window_ids: [fx.id(1)],
    });
    expect(location.delivery_windows.map((w: { id: number }) => w.id)).toEqual([fx.id(1)]);
    const moved = await send("PATCH", `corporate-locations/${location.id}/`, { delivery_window_ids: [fx.id(2)] });
    expect(moved.delivery_windows.map((w: { id: number }) => w.id)).toEqual([fx.id(2)]);
  });
});
