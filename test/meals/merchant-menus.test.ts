import { describe, expect, it } from "vitest";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";
import { MERCHANT_MEALS, mealsMerchantOf, rowOf } from "./helpers";

// Stores and meals ids of this file's own (the other merchant files have stores 55, 56 and 67, 68).
const A = 65;
const B = 66;
const M = MERCHANT_MEALS;
const { fx, post, patch, del } = mealsMerchantOf(A, B);
const row = rowOf;

describe("menus, categories and products", () => {
  it("builds a menu that Restaurant Menu and Menu Details serve", async () => {
    const r = await json(
      await post(`${M}restaurants/`, { name_en: "Juice Bar", name_ar: "بار العصير", rest_type: "on_demand" }),
    );
    const menu = await json(await post(`${M}menus/`, { restaurant_id: r.id, name_en: "Juices", name_ar: "العصائر" }));
    expect(schemaErrors("createMenu", menu, "201")).toEqual([]);
    const category = await json(await post(`${M}menus/${menu.id}/categories/`, { name_en: "Fresh", name_ar: "طازج" }));
    expect(schemaErrors("createMenuCategory", category, "201")).toEqual([]);
    const created = await post(`${M}products/`, {
      restaurant_id: r.id,
      category_id: category.id,
      name_en: "Orange juice",
      name_ar: "عصير برتقال",
      price: 12.5,
      nutritions: { calories: 110, carbs: 26 },
      nutrition_options: [{ size: "large", calories: 180 }],
    });
    expect(created.status).toBe(201);
    const product = await json(created);
    expect(schemaErrors("createMealProduct", product, "201")).toEqual([]);
    expect(product).toMatchObject({
      original_price: 12.5,
      nutritions: { calories: 110, carbs: 26, protein: null },
      nutrition_options: [expect.objectContaining({ size: "large" })],
    });
    expect(await row("meal_products", product.id)).toMatchObject({ price_minor: 1250, restaurant_id: r.id });

    expect((await patch(`${M}restaurants/${r.id}/`, { menu_id: menu.id })).status).toBe(200);
    const served = await json(await call(`/api/v1/restaurants/menus/${r.id}/`, { appId: A }));
    expect(served.categories[0].products.map((p: { name_en: string }) => p.name_en)).toEqual(["Orange juice"]);

    // Facts replaced, not added to.
    const updated = await json(
      await patch(`${M}products/${product.id}/`, { nutritions: { calories: 100 }, nutrition_options: [] }),
    );
    expect(updated.nutritions.calories).toBe(100);
    expect(updated.nutrition_options).toEqual([]);
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT count(*) AS n FROM nutritions WHERE product_id = ? AND is_deleted = 0")
        .bind(product.id)
        .first())!.n,
    ).toBe(1);

    // A category of another restaurant's menu is refused.
    const wrong = await patch(`${M}products/${product.id}/`, { category_id: fx.a.id(1) });
    expect(wrong.status).toBe(400);
    expect((await problem(wrong)).errors).toHaveProperty("category_id");

    const inUse = await del(`${M}menu-categories/${category.id}/`);
    expect(inUse.status).toBe(409);
    expect(await problem(inUse)).toMatchObject({ code: "menu_category_in_use", products: [product.id] });
    const served2 = await del(`${M}menus/${menu.id}/`);
    expect(served2.status).toBe(409);
    expect((await problem(served2)).code).toBe("menu_in_use");
  });

  it("combos: made of the restaurant's products, offered by Restaurant Menu", async () => {
    const lunch = fx.a.id(2);
    const res = await post(`${M}menu-categories/${lunch}/combos/`, {
      name_en: "Lunch for two",
      name_ar: "غداء لشخصين",
      price: 60,
      product_ids: [fx.a.id(11), fx.a.id(11), fx.a.id(12)],
    });
    expect(res.status).toBe(201);
    const combo = await json(res);
    expect(schemaErrors("createCombo", combo, "201")).toEqual([]);
    expect(combo).toMatchObject({ restaurant_id: fx.a.green, category_id: lunch, original_price: 60 });
    expect(combo.products.map((p: { name_en: string }) => p.name_en)).toEqual([
      "Chicken kabsa",
      "Chicken kabsa",
      "Beef kofta",
    ]);
    const foreign = await post(`${M}menu-categories/${lunch}/combos/`, {
      name_en: "X",
      name_ar: "س",
      price: 1,
      product_ids: [fx.b.oatBowl],
    });
    expect(foreign.status).toBe(400);
    expect((await problem(foreign)).errors?.product_ids?.[0]).toContain(String(fx.b.oatBowl));
    const combosOnMenu = async () =>
      (await json(await call(`/api/v1/restaurants/menus/${fx.a.green}/`, { appId: A }))).categories[1].combos.map(
        (k: { name_en: string }) => k.name_en,
      );
    expect(await combosOnMenu()).toEqual(["Lunch for two"]);
    expect((await patch(`${M}combos/${combo.id}/`, { is_active: false })).status).toBe(200);
    expect(await combosOnMenu()).toEqual([]);
    expect((await del(`${M}combos/${combo.id}/`)).status).toBe(204);
    expect((await del(`${M}combos/${combo.id}/`)).status).toBe(404);
  });

  it("refuses to delete a product that plans offer, naming the plans", async () => {
    const res = await del(`${M}products/${fx.a.oatBowl}/`);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "product_in_use", plans: [fx.a.balanced] });
  });
});
