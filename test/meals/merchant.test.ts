import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { tokenFor } from "../helpers/factories";
import { schemaErrors, seedMealsFor } from "../helpers/meals";
import { type Call, call, json, problem } from "../helpers/request";

const A = 55;
const B = 56;
const M = "/order/v1/merchant/meals/";
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let token: string;

beforeAll(async () => {
  a = await seedMealsFor(A, 550_000);
  b = await seedMealsFor(B, 560_000);
  token = await tokenFor(A, ["can_write_item"]);
});

const as = (path: string, opts: Call = {}) => call(path, { token, appId: A, ...opts });
const post = (path: string, body: unknown) => as(path, { method: "POST", body });
const patch = (path: string, body: unknown) => as(path, { method: "PATCH", body });
const del = (path: string) => as(path, { method: "DELETE" });
const row = (table: string, id: number) =>
  env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first<Record<string, unknown>>();

describe("restaurants and branches", () => {
  it("creates a restaurant with its delivery areas, served by the public reads at once", async () => {
    const res = await post(`${M}restaurants/`, {
      name_en: "Falafel Corner",
      name_ar: "ركن الفلافل",
      rest_type: "on_demand",
      category_id: a.id(2),
      off_days: ["friday"],
      closed_dates: ["2027-01-01"],
      primary_color: "#FFAA00",
      time_zone: "Asia/Riyadh",
      supports_pickup: false,
      delivery_windows: [{ from_time: "11:00", to_time: "14:00" }],
      delivery_zones: [
        {
          city_id: 9,
          polygon: [
            [10, 10],
            [10, 11],
            [11, 11],
            [11, 10],
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    const r = await json(res);
    expect(schemaErrors("createRestaurant", r, "201")).toEqual([]);
    expect(r).toMatchObject({
      name_en: "Falafel Corner",
      off_days: "friday",
      closed_dates: "2027-01-01",
      menu: null,
      app_id: A,
    });
    expect(await row("restaurants", r.id)).toMatchObject({
      app_id: A,
      name_ar: "ركن الفلافل",
      primary_color: "#FFAA00",
      is_deleted: 0,
    });
    expect(
      (await env.DB.prepare("SELECT from_time, to_time FROM delivery_windows WHERE restaurant_id = ?").bind(r.id).all())
        .results,
    ).toEqual([{ from_time: "11:00:00", to_time: "14:00:00" }]);

    const providers = await json(
      await call("/api/v1/sales-channels/providers/", { appId: A, method: "POST", body: { lat: 10.5, lng: 10.5 } }),
    );
    expect(providers.find((p: { id: number }) => p.id === r.id)).toMatchObject({
      is_available_for_user: true,
      delivery_windows: [expect.objectContaining({ from_time: "11:00:00" })],
    });

    // Replacing the windows keeps no old one.
    await patch(`${M}restaurants/${r.id}/`, { delivery_windows: [{ from_time: "18:00:00", to_time: "21:00:00" }] });
    expect(
      (
        await env.DB.prepare("SELECT from_time FROM delivery_windows WHERE restaurant_id = ? AND is_deleted = 0")
          .bind(r.id)
          .all()
      ).results,
    ).toEqual([{ from_time: "18:00:00" }]);
  });

  it("refuses bad fields with field errors and stores nothing", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM restaurants WHERE app_id = ?")
      .bind(A)
      .first<{ n: number }>();
    for (const [body, field] of [
      [{ name_en: "X", name_ar: "س", rest_type: "buffet" }, "rest_type"],
      [{ name_en: "X", name_ar: "س", rest_type: "both", primary_color: "green" }, "primary_color"],
      [{ name_en: "X", name_ar: "س", rest_type: "both", time_zone: "Mars/Olympus" }, "time_zone"],
      [
        {
          name_en: "X",
          name_ar: "س",
          rest_type: "both",
          off_days: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
        },
        "off_days",
      ],
      [{ name_en: "X", name_ar: "س", rest_type: "both", closed_dates: ["2026-02-30"] }, "closed_dates.0"],
      [
        {
          name_en: "X",
          name_ar: "س",
          rest_type: "both",
          delivery_zones: [
            {
              city_id: 1,
              polygon: [
                [1, 1],
                [2, 2],
              ],
            },
          ],
        },
        "delivery_zones.0.polygon",
      ],
      [
        { name_en: "X", name_ar: "س", rest_type: "both", delivery_windows: [{ from_time: "15:00", to_time: "14:00" }] },
        "delivery_windows.0.to_time",
      ],
      [{ name_en: "X", name_ar: "س", rest_type: "both", category_id: b.id(1) }, "category_id"],
      [{ name_en: " ", name_ar: "س", rest_type: "both" }, "name_en"],
      [{ name_en: "X", name_ar: "س", rest_type: "both", menu_id: a.greenMenu }, "menu_id"],
    ] as const) {
      const res = await post(`${M}restaurants/`, body);
      expect(res.status, field).toBe(400);
      expect(Object.keys((await problem(res)).errors ?? {}), field).toContain(field);
    }
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM restaurants WHERE app_id = ?").bind(A).first<{ n: number }>(),
    ).toEqual(before);
    const wrongMenu = await patch(`${M}restaurants/${a.kabsa}/`, { menu_id: a.greenMenu });
    expect(wrongMenu.status).toBe(400);
    expect((await problem(wrongMenu)).errors?.menu_id).toEqual(["Must be a menu of this restaurant."]);
    expect((await patch(`${M}restaurants/${a.kabsa}/`, {})).status).toBe(400);
  });

  it("making a branch main moves the restaurant's main location", async () => {
    const res = await post(`${M}restaurants/${a.green}/branches/`, {
      name_en: "Malqa",
      name_ar: "الملقا",
      city_id: 1,
      lat: 24.8,
      lng: 46.6,
      address1: "Malqa, Riyadh",
      is_main: true,
    });
    expect(res.status).toBe(201);
    const branch = await json(res);
    expect(schemaErrors("createRestaurantBranch", branch, "201")).toEqual([]);
    expect(await row("restaurant_branches", a.id(1))).toMatchObject({ is_main: 0 });
    const details = await json(await call(`/api/v1/restaurants/${a.green}/`, { appId: A }));
    expect(details.main_branch_location).toEqual({ address1: "Malqa, Riyadh", lat: "24.8", lng: "46.6" });
    expect(
      (await post(`${M}restaurants/${b.green}/branches/`, { name_en: "X", name_ar: "س", city_id: 1, lat: 1, lng: 1 }))
        .status,
    ).toBe(404);
    expect((await del(`${M}branches/${branch.id}/`)).status).toBe(204);
    expect(await row("restaurant_branches", branch.id)).toMatchObject({ is_deleted: 1 });
  });

  it("refuses to delete a restaurant whose plans are live, then deletes it with what it owns", async () => {
    const refused = await del(`${M}restaurants/${a.green}/`);
    expect(refused.status).toBe(409);
    expect(await problem(refused)).toMatchObject({ code: "restaurant_in_use", plans: [a.balanced, a.keto] });
    expect(await row("restaurants", a.green)).toMatchObject({ is_deleted: 0 });

    const res = await del(`${M}restaurants/${a.kabsa}/`);
    expect(res.status).toBe(204);
    expect(await row("restaurants", a.kabsa)).toMatchObject({ is_deleted: 1 });
    expect(
      await env.DB.prepare(
        "SELECT count(*) AS n FROM outbox_events WHERE app_id = ? AND type = 'restaurant.deleted' " +
          "AND payload ->> '$.data.id' = ?",
      )
        .bind(A, a.kabsa)
        .first(),
    ).toEqual({ n: 1 });
    expect(await row("meal_products", a.lambKabsa)).toMatchObject({ is_deleted: 1 });
    expect(await row("combos", a.combo)).toMatchObject({ is_deleted: 1 });
    expect((await call(`/api/v1/restaurants/${a.kabsa}/`, { appId: A })).status).toBe(404);
    expect((await del(`${M}restaurants/${a.kabsa}/`)).status).toBe(404);
  });

  it("another tenant's records are 404 and stay unchanged", async () => {
    for (const [method, path, body] of [
      ["PATCH", `${M}restaurants/${b.green}/`, { name_en: "Taken" }],
      ["DELETE", `${M}menus/${b.greenMenu}/`, undefined],
      ["PATCH", `${M}products/${b.oatBowl}/`, { price: 0 }],
      ["DELETE", `${M}plans/${b.balanced}/`, undefined],
      [
        "POST",
        `${M}plans/${b.balanced}/versions/`,
        {
          min_start_date: "2027-01-01",
          max_start_date: "2027-02-01",
          num_of_days: 5,
          total_num_of_items: 5,
          original_price: 1,
        },
      ],
    ] as const) {
      expect((await as(path, { method, body })).status, `${method} ${path}`).toBe(404);
    }
    expect(await row("restaurants", b.green)).toMatchObject({ name_en: "Green Bowl", is_deleted: 0 });
    expect(await row("meal_products", b.oatBowl)).toMatchObject({ price_minor: 1800 });
    expect(await row("plans", b.balanced)).toMatchObject({ is_deleted: 0 });
  });
});

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
      (await env.DB.prepare("SELECT count(*) AS n FROM nutritions WHERE product_id = ? AND is_deleted = 0")
        .bind(product.id)
        .first())!.n,
    ).toBe(1);

    // A category of another restaurant's menu is refused.
    const wrong = await patch(`${M}products/${product.id}/`, { category_id: a.id(1) });
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
    const lunch = a.id(2);
    const res = await post(`${M}menu-categories/${lunch}/combos/`, {
      name_en: "Lunch for two",
      name_ar: "غداء لشخصين",
      price: 60,
      product_ids: [a.id(11), a.id(11), a.id(12)],
    });
    expect(res.status).toBe(201);
    const combo = await json(res);
    expect(schemaErrors("createCombo", combo, "201")).toEqual([]);
    expect(combo).toMatchObject({ restaurant_id: a.green, category_id: lunch, original_price: 60 });
    expect(combo.products.map((p: { name_en: string }) => p.name_en)).toEqual([
      "Chicken kabsa",
      "Chicken kabsa",
      "Beef kofta",
    ]);
    const foreign = await post(`${M}menu-categories/${lunch}/combos/`, {
      name_en: "X",
      name_ar: "س",
      price: 1,
      product_ids: [b.oatBowl],
    });
    expect(foreign.status).toBe(400);
    expect((await problem(foreign)).errors?.product_ids?.[0]).toContain(String(b.oatBowl));
    const combosOnMenu = async () =>
      (await json(await call(`/api/v1/restaurants/menus/${a.green}/`, { appId: A }))).categories[1].combos.map(
        (k: { name_en: string }) => k.name_en,
      );
    expect(await combosOnMenu()).toEqual(["Lunch for two"]);
    expect((await patch(`${M}combos/${combo.id}/`, { is_active: false })).status).toBe(200);
    expect(await combosOnMenu()).toEqual([]);
    expect((await del(`${M}combos/${combo.id}/`)).status).toBe(204);
    expect((await del(`${M}combos/${combo.id}/`)).status).toBe(404);
  });

  it("refuses to delete a product that plans offer, naming the plans", async () => {
    const res = await del(`${M}products/${a.oatBowl}/`);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "product_in_use", plans: [a.balanced] });
  });
});

describe("restaurant categories, variants, allergens and plan tags", () => {
  it("are created, updated and deleted, shown by the public lists at once", async () => {
    const category = await post(`${M}restaurant-categories/`, { name_en: "Seafood", name_ar: "مأكولات بحرية" });
    expect(category.status).toBe(201);
    const c = await json(category);
    expect(schemaErrors("createRestaurantCategory", c, "201")).toEqual([]);
    const listed = await json(await call("/api/v1/restaurants/categories/", { appId: A }));
    expect(listed.results.map((x: { name_en: string }) => x.name_en)).toContain("Seafood");

    const variant = await json(
      await post(`${M}restaurants/${a.green}/variants/`, { name_en: "Paleo", name_ar: "باليو" }),
    );
    expect(schemaErrors("createRestaurantVariant", variant, "201")).toEqual([]);
    expect(variant).toMatchObject({ restaurant_id: a.green, name_en: "Paleo" });
    expect((await post(`${M}restaurants/${b.green}/variants/`, { name_en: "X", name_ar: "س" })).status).toBe(404);

    const allergen = await json(
      await post(`${M}allergens-dislikes/`, { kind: "allergy", name_en: "Sesame", name_ar: "سمسم" }),
    );
    expect(schemaErrors("createAllergenDislike", allergen, "201")).toEqual([]);
    expect((await patch(`${M}allergens-dislikes/${allergen.id}/`, { kind: "dislike" })).status).toBe(200);
    const dislikes = await json(await call("/api/v1/restaurants/allergens-dislikes/?kind=dislike", { appId: A }));
    expect(dislikes.results.map((x: { name_en: string }) => x.name_en)).toContain("Sesame");
    expect((await del(`${M}allergens-dislikes/${allergen.id}/`)).status).toBe(204);
    expect(await row("allergens", allergen.id)).toMatchObject({ is_deleted: 1 });

    const tag = await json(
      await post(`${M}plan-tags/`, {
        type_en: "Goal",
        type_ar: "الهدف",
        tag_en: "Energy",
        tag_ar: "طاقة",
        color: "#FFAA00",
      }),
    );
    expect(schemaErrors("createPlanTag", tag, "201")).toEqual([]);
    expect(
      (await json(await call("/public-api/v1/plans/tags/", { appId: A }))).results.map(
        (t: { tag_en: string }) => t.tag_en,
      ),
    ).toContain("Energy");
    expect((await patch(`${M}plan-tags/${tag.id}/`, { color: "orange" })).status).toBe(400);
    expect((await del(`${M}plan-tags/${tag.id}/`)).status).toBe(204);
  });

  it("refuses to delete a category restaurants are filed under, or a tag plans carry, naming them", async () => {
    const category = await del(`${M}restaurant-categories/${a.id(1)}/`);
    expect(category.status).toBe(409);
    expect(await problem(category)).toMatchObject({ code: "restaurant_category_in_use", restaurants: [a.green] });
    const tag = await del(`${M}plan-tags/${a.tags[0]}/`);
    expect(tag.status).toBe(409);
    expect(await problem(tag)).toMatchObject({ code: "plan_tag_in_use", plans: [a.balanced] });
    expect(await row("plan_tags", a.tags[0]!)).toMatchObject({ is_deleted: 0 });
  });
});

describe("plans with versions, days, categories and options", () => {
  it("builds a plan that Plan Details serves, level by level", async () => {
    const created = await post(`${M}plans/`, {
      restaurant_id: a.green,
      menu_id: a.greenMenu,
      name_en: "Two-day trial",
      name_ar: "تجربة يومين",
      daily_num_of_items: 1,
      subscription_type: "custom",
      repetition: 2,
      tag_ids: [a.tags[0]],
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
    expect(plan.plan_tags.map((t: { id: number }) => t.id)).toEqual([a.tags[0]]);

    const announced = await env.DB.prepare(
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
    const updated = await env.DB.prepare(
      "SELECT payload FROM outbox_events WHERE app_id = ? ORDER BY rowid DESC LIMIT 1",
    )
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
      await post(`${M}plan-categories/${category.id}/options/`, { product_id: a.oatBowl, is_recommended: true }),
    );
    expect(schemaErrors("createPlanOption", option, "201")).toEqual([]);
    expect(option).toMatchObject({ product: a.oatBowl, plan_category: category.id, is_recommended: true });
    const twice = await post(`${M}plan-categories/${category.id}/options/`, { product_id: a.oatBowl });
    expect(twice.status).toBe(409);
    const foreign = await post(`${M}plan-categories/${category.id}/options/`, { product_id: b.oatBowl });
    expect(foreign.status).toBe(400);
    expect((await problem(foreign)).errors).toHaveProperty("product_id");

    const details = await json(await call(`/public-api/v1/plans/${plan.id}/`, { appId: A }));
    expect(details.plan_version_id).toBe(version.id);
    expect(details.dates).toHaveLength(2);
    expect(details.masters).toHaveLength(1);
    expect(details.masters[0].plan_categories[0].options[0].product).toMatchObject({
      id: a.oatBowl,
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
    const res = await patch(`${M}plans/${a.keto}/`, { repetition: 5 });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("plan_days_beyond_repetition");
    expect(await row("plans", a.keto)).toMatchObject({ repetition: 7 });
  });

  it("refuses a menu of another restaurant and unknown tags", async () => {
    const base = {
      restaurant_id: a.green,
      name_en: "X",
      name_ar: "س",
      daily_num_of_items: 1,
      subscription_type: "daily",
      repetition: 1,
      size: { title: "S", protein_amount: 1 },
    };
    const wrongMenu = await post(`${M}plans/`, { ...base, menu_id: a.kabsaMenu });
    expect(wrongMenu.status).toBe(400);
    expect((await problem(wrongMenu)).errors).toHaveProperty("menu_id");
    const tags = await post(`${M}plans/`, { ...base, menu_id: a.greenMenu, tag_ids: [b.tags[0]] });
    expect(tags.status).toBe(400);
    expect((await problem(tags)).errors?.tag_ids?.[0]).toContain(String(b.tags[0]));
  });
});
