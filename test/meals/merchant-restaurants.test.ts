import { describe, expect, it } from "vitest";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";
import { MERCHANT_MEALS, mealsMerchantOf, rowOf } from "./helpers";

const A = 55;
const B = 56;
const M = MERCHANT_MEALS;
const { fx, as, post, patch, del } = mealsMerchantOf(A, B);
const row = rowOf;

describe("restaurants and branches", () => {
  it("creates a restaurant with its delivery areas, served by the public reads at once", async () => {
    const res = await post(`${M}restaurants/`, {
      name_en: "Falafel Corner",
      name_ar: "ركن الفلافل",
      rest_type: "on_demand",
      category_id: fx.a.id(2),
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
      (
        await shardFor(APP_1)
          .prepare("SELECT from_time, to_time FROM delivery_windows WHERE restaurant_id = ?")
          .bind(r.id)
          .all()
      ).results,
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
        await shardFor(APP_1)
          .prepare("SELECT from_time FROM delivery_windows WHERE restaurant_id = ? AND is_deleted = 0")
          .bind(r.id)
          .all()
      ).results,
    ).toEqual([{ from_time: "18:00:00" }]);
  });

  it("refuses bad fields with field errors and stores nothing", async () => {
    const before = await shardFor(A)
      .prepare("SELECT count(*) AS n FROM restaurants WHERE app_id = ?")
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
      [{ name_en: "X", name_ar: "س", rest_type: "both", category_id: fx.b.id(1) }, "category_id"],
      [{ name_en: " ", name_ar: "س", rest_type: "both" }, "name_en"],
      [{ name_en: "X", name_ar: "س", rest_type: "both", menu_id: fx.a.greenMenu }, "menu_id"],
    ] as const) {
      const res = await post(`${M}restaurants/`, body);
      expect(res.status, field).toBe(400);
      expect(Object.keys((await problem(res)).errors ?? {}), field).toContain(field);
    }
    expect(
      await shardFor(A)
        .prepare("SELECT count(*) AS n FROM restaurants WHERE app_id = ?")
        .bind(A)
        .first<{ n: number }>(),
    ).toEqual(before);
    const wrongMenu = await patch(`${M}restaurants/${fx.a.kabsa}/`, { menu_id: fx.a.greenMenu });
    expect(wrongMenu.status).toBe(400);
    expect((await problem(wrongMenu)).errors?.menu_id).toEqual(["Must be a menu of this restaurant."]);
    expect((await patch(`${M}restaurants/${fx.a.kabsa}/`, {})).status).toBe(400);
  });

  it("making a branch main moves the restaurant's main location", async () => {
    const res = await post(`${M}restaurants/${fx.a.green}/branches/`, {
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
    expect(await row("restaurant_branches", fx.a.id(1))).toMatchObject({ is_main: 0 });
    const details = await json(await call(`/api/v1/restaurants/${fx.a.green}/`, { appId: A }));
    expect(details.main_branch_location).toEqual({ address1: "Malqa, Riyadh", lat: "24.8", lng: "46.6" });
    expect(
      (
        await post(`${M}restaurants/${fx.b.green}/branches/`, {
          name_en: "X",
          name_ar: "س",
          city_id: 1,
          lat: 1,
          lng: 1,
        })
      ).status,
    ).toBe(404);
    expect((await del(`${M}branches/${branch.id}/`)).status).toBe(204);
    expect(await row("restaurant_branches", branch.id)).toMatchObject({ is_deleted: 1 });
  });

  it("refuses to delete a restaurant whose plans are live, then deletes it with what it owns", async () => {
    const refused = await del(`${M}restaurants/${fx.a.green}/`);
    expect(refused.status).toBe(409);
    expect(await problem(refused)).toMatchObject({ code: "restaurant_in_use", plans: [fx.a.balanced, fx.a.keto] });
    expect(await row("restaurants", fx.a.green)).toMatchObject({ is_deleted: 0 });

    const res = await del(`${M}restaurants/${fx.a.kabsa}/`);
    expect(res.status).toBe(204);
    expect(await row("restaurants", fx.a.kabsa)).toMatchObject({ is_deleted: 1 });
    expect(
      await shardFor(A)
        .prepare(
          "SELECT count(*) AS n FROM outbox_events WHERE app_id = ? AND type = 'restaurant.deleted' " +
            "AND payload ->> '$.data.id' = ?",
        )
        .bind(A, fx.a.kabsa)
        .first(),
    ).toEqual({ n: 1 });
    expect(await row("meal_products", fx.a.lambKabsa)).toMatchObject({ is_deleted: 1 });
    expect(await row("combos", fx.a.combo)).toMatchObject({ is_deleted: 1 });
    expect((await call(`/api/v1/restaurants/${fx.a.kabsa}/`, { appId: A })).status).toBe(404);
    expect((await del(`${M}restaurants/${fx.a.kabsa}/`)).status).toBe(404);
  });

  it("another tenant's records are 404 and stay unchanged", async () => {
    for (const [method, path, body] of [
      ["PATCH", `${M}restaurants/${fx.b.green}/`, { name_en: "Taken" }],
      ["DELETE", `${M}menus/${fx.b.greenMenu}/`, undefined],
      ["PATCH", `${M}products/${fx.b.oatBowl}/`, { price: 0 }],
      ["DELETE", `${M}plans/${fx.b.balanced}/`, undefined],
      [
        "POST",
        `${M}plans/${fx.b.balanced}/versions/`,
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
    expect(await row("restaurants", fx.b.green)).toMatchObject({ name_en: "Green Bowl", is_deleted: 0 });
    expect(await row("meal_products", fx.b.oatBowl)).toMatchObject({ price_minor: 1800 });
    expect(await row("plans", fx.b.balanced)).toMatchObject({ is_deleted: 0 });
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
      await post(`${M}restaurants/${fx.a.green}/variants/`, { name_en: "Paleo", name_ar: "باليو" }),
    );
    expect(schemaErrors("createRestaurantVariant", variant, "201")).toEqual([]);
    expect(variant).toMatchObject({ restaurant_id: fx.a.green, name_en: "Paleo" });
    expect((await post(`${M}restaurants/${fx.b.green}/variants/`, { name_en: "X", name_ar: "س" })).status).toBe(404);

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
    const category = await del(`${M}restaurant-categories/${fx.a.id(1)}/`);
    expect(category.status).toBe(409);
    expect(await problem(category)).toMatchObject({ code: "restaurant_category_in_use", restaurants: [fx.a.green] });
    const tag = await del(`${M}plan-tags/${fx.a.tags[0]}/`);
    expect(tag.status).toBe(409);
    expect(await problem(tag)).toMatchObject({ code: "plan_tag_in_use", plans: [fx.a.balanced] });
    expect(await row("plan_tags", fx.a.tags[0]!)).toMatchObject({ is_deleted: 0 });
  });
});
