import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { addDays, todayIn, weekdayOf } from "../../src/modules/meals/dates";
import { AUDIT, missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { deref, openApiDocument, validate } from "../helpers/openapi";
import { call, json, problem } from "../helpers/request";

const A = 51;
const B = 52;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;

beforeAll(async () => {
  a = await seedMealsFor(A, 510_000);
  b = await seedMealsFor(B, 520_000);
});

const get = (path: string, headers: Record<string, string> = {}) => call(path, { appId: A, headers });
const today = () => todayIn("Asia/Riyadh");

describe("Restaurant Details (2.5)", () => {
  it("serves every field of the spec with its type and the stored values", async () => {
    const res = await get(`/api/v1/restaurants/${a.green}/`);
    expect(res.status).toBe(200);
    const r = await json(res);
    expect(schemaErrors("getRestaurant", r)).toEqual([]);
    expect(
      missingKeys(r, [
        "id",
        "custom_fields",
        ...AUDIT,
        "name_en",
        "name_ar",
        "subtitle_en",
        "subtitle_ar",
        "description_en",
        "description_ar",
        "logo",
        "rest_type",
        "start_after",
        "store_start_after",
        "is_active",
        "primary_color",
        "secondary_color",
        "banner",
        "closed_dates",
        "supports_pickup",
        "supports_delivery",
        "delivery_by_platform",
        "off_days",
        "menu",
        "main_branch_location",
      ]),
    ).toEqual([]);
    expect(r).toMatchObject({
      id: a.green,
      app_id: A,
      name_en: "Green Bowl",
      name_ar: "الوعاء الأخضر",
      rest_type: "both",
      start_after: 1,
      store_start_after: 2,
      closed_dates: "2026-12-31",
      off_days: "friday",
      menu: a.greenMenu,
      main_branch_location: { address1: "Olaya St, Riyadh", lat: "24.6907", lng: "46.6853" },
      is_deleted: false,
      deleted_at: null,
    });
    // Kabsa House has no subtitle in Arabic set to null? It has one; its banner is null.
    expect((await json(await get(`/api/v1/restaurants/${a.kabsa}/`))).banner).toBeNull();
  });

  it(
    "is 404 for an unknown id, another tenant's restaurant, and an inactive one; 400 for a " + "bad id or no app-id",
    async () => {
      for (const id of [999_999, b.green]) {
        const res = await get(`/api/v1/restaurants/${id}/`);
        expect(res.status).toBe(404);
        expect((await problem(res)).code).toBe("restaurant_not_found");
      }
      await env.DB.prepare("UPDATE restaurants SET is_active = 0 WHERE id = ?").bind(b.kabsa).run();
      expect((await call(`/api/v1/restaurants/${b.kabsa}/`, { appId: B })).status).toBe(404);
      const bad = await get("/api/v1/restaurants/abc/");
      expect(bad.status).toBe(400);
      expect((await problem(bad)).errors).toHaveProperty("restaurant_id");
      const noTenant = await call(`/api/v1/restaurants/${a.green}/`, { appId: null });
      expect(noTenant.status).toBe(400);
      expect((await problem(noTenant)).code).toBe("missing_app_id");
    },
  );
});

describe("Restaurant lists and details", () => {
  it("List Restaurant and On-Demand Restaurants page the tenant's active restaurants", async () => {
    const all = await json(await get("/api/v1/restaurants/"));
    expect(schemaErrors("listRestaurants", all)).toEqual([]);
    expect(all.results.map((r: { id: number }) => r.id)).toEqual([a.green, a.kabsa]);
    expect(all.count).toBe(2);
    const onDemand = await json(await get("/api/v1/restaurants/on-demand/?rest_type=on_demand"));
    expect(onDemand.results.map((r: { id: number }) => r.id)).toEqual([a.kabsa]);
    const search = await json(await get(`/api/v1/restaurants/?search=${encodeURIComponent("الكبسة")}`));
    expect(search.results.map((r: { id: number }) => r.id)).toEqual([a.kabsa]);
    const bad = await get("/api/v1/restaurants/?rest_type=fast");
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("rest_type");
  });

  it("branches, categories, allergens, variants and wallet credit products", async () => {
    const branches = await json(await get(`/api/v1/restaurants/${a.green}/branches/`));
    expect(schemaErrors("listRestaurantBranches", branches)).toEqual([]);
    expect(branches.results.map((x: { name_en: string }) => x.name_en)).toEqual(["Olaya", "Tahlia"]);
    expect(branches.results[0]).toMatchObject({
      city_id: 1,
      is_main: true,
      delivery_radius_km: 12,
      location: { lat: "24.6907" },
    });
    expect((await get(`/api/v1/restaurants/${b.green}/branches/`)).status).toBe(404);

    const categories = await json(await get("/api/v1/restaurants/categories/"));
    expect(categories.results.map((x: { name_ar: string }) => x.name_ar)).toEqual(["صحي", "مطبخ سعودي"]);
    const dislikes = await json(await get("/api/v1/restaurants/allergens-dislikes/?kind=dislike"));
    expect(schemaErrors("listAllergensDislikes", dislikes)).toEqual([]);
    expect(dislikes.results.map((x: { name_en: string }) => x.name_en)).toEqual(["Mushroom", "Onion"]);
    const variants = await json(await get(`/api/v1/restaurants/${a.green}/variants/`));
    expect(variants.results.map((x: { name_en: string }) => x.name_en)).toEqual(["Keto", "Low carb", "Vegetarian"]);
    const credit = await json(await get("/api/v1/restaurants/wallet-credit-products/"));
    expect(schemaErrors("listWalletCreditProducts", credit)).toEqual([]);
    expect(credit.results).toHaveLength(1);
    expect(credit.results[0]).toMatchObject({ id: a.walletCredit, wallet_credit: 100, original_price: 90 });
  });

  it("answers every public list, on a cache miss, in one D1 round trip: the count, the page and its nested levels", async () => {
    await get("/api/v1/restaurants/categories/"); // the store is known to the isolate from here on
    const lists: [string, ("GET" | "POST")?][] = [
      ["/api/v1/restaurants/"],
      ["/api/v1/restaurants/on-demand/?rest_type=on_demand"],
      [`/api/v1/restaurants/${a.green}/branches/`],
      ["/api/v1/restaurants/categories/"],
      ["/api/v1/restaurants/allergens-dislikes/"],
      [`/api/v1/restaurants/${a.green}/variants/`],
      ["/api/v1/restaurants/wallet-credit-products/"],
      [`/api/v1/restaurants/products/${a.oatBowl}/variants/`],
      ["/public-api/v1/plans/tags/"],
      ["/public-api/v1/plans/", "POST"],
    ];
    for (const [path, method = "GET"] of lists) {
      // A page size no other test asks for: the read misses the cache and goes to D1.
      const url = `${path}${path.includes("?") ? "&" : "?"}page_size=19`;
      let trips = 0;
      let statements = 0;
      const stopTrips = observeRoundTrips(() => trips++);
      const stop = observeStatements(() => statements++);
      const res = await call(url, { appId: A, method, ...(method === "POST" && { body: {} }) });
      stop();
      stopTrips();
      expect(res.status, url).toBe(200);
      expect(res.headers.get("x-cache"), url).not.toBe("HIT");
      expect((await json(res)).results.length, url).toBeGreaterThan(0);
      expect([trips, statements], url).toEqual([1, 1]);
    }
    // A list's parent is checked in the same statement: another store's restaurant is still a 404, before the page.
    const other = await call(`/api/v1/restaurants/${b.green}/branches/?page=9&page_size=17`, { appId: A });
    expect(other.status).toBe(404);
    expect((await problem(other)).code).toBe("restaurant_not_found");
  });

  it("Product Details, Product Variants List and Combo Details", async () => {
    const p = await json(await get(`/api/v1/restaurants/products/${a.oatBowl}/`));
    expect(schemaErrors("getProduct", p)).toEqual([]);
    expect(p).toMatchObject({
      id: a.oatBowl,
      name_en: "Oat bowl",
      original_price: 18,
      discount_percentage: 10,
      variant: ["Low carb"],
      allergies: ["Gluten"],
    });
    expect(p.nutritions).toMatchObject({ product: a.oatBowl, size: null, calories: 180 });
    expect(p.nutrition_options).toEqual([expect.objectContaining({ size: "large", calories: 270 })]);
    const v = await json(await get(`/api/v1/restaurants/products/${a.oatBowl}/variants/`));
    expect(v.results.map((x: { name_en: string }) => x.name_en)).toEqual(["Low carb"]);
    // The product is checked in the list's statement: another store's is a 404, before a page out of range.
    const hidden = await get(`/api/v1/restaurants/products/${b.oatBowl}/variants/?page=9`);
    expect(hidden.status).toBe(404);
    expect((await problem(hidden)).code).toBe("product_not_found");
    expect((await get(`/api/v1/restaurants/products/${b.oatBowl}/`)).status).toBe(404);

    const combo = await json(await get(`/api/v1/restaurants/combos/${a.combo}/`));
    expect(schemaErrors("getCombo", combo)).toEqual([]);
    expect(combo).toMatchObject({ name_en: "Family kabsa meal", original_price: 59, discount_percentage: 5 });
    expect(combo.products.map((x: { name_en: string }) => x.name_en)).toEqual(["Lamb kabsa", "Laban"]);
    expect((await get(`/api/v1/restaurants/combos/${b.combo}/`)).status).toBe(404);
  });
});

/** The first date on or after `from` that is not a Friday nor in `closed`. */
function firstOpen(from: string, closed: string[] = []) {
  let d = from;
  while (weekdayOf(d) === "friday" || closed.includes(d)) d = addDays(d, 1);
  return d;
}

describe("Restaurant Menu (2.4, 4.4)", () => {
  const menu = (id: number, q = "") => get(`/api/v1/restaurants/menus/${id}/${q}`);

  it("serves the menu with every field, for the first orderable date by default", async () => {
    const res = await menu(a.green);
    expect(res.status).toBe(200);
    const m = await json(res);
    expect(schemaErrors("getRestaurantMenu", m)).toEqual([]);
    expect(missingKeys(m, ["id", "custom_fields", "categories", ...AUDIT, "name_ar", "name_en", "image"])).toEqual([]);
    // Green Bowl needs a day's notice and is closed on Fridays and on 2026-12-31.
    expect(m.order_date).toBe(firstOpen(addDays(today(), 1), ["2026-12-31"]));
    expect(m.categories.map((c: { name_en: string }) => c.name_en)).toEqual([
      "Breakfast",
      "Lunch",
      "Dinner",
      "Snacks",
      "Salads",
    ]);
    const category = m.categories[1];
    expect(
      missingKeys(category, [
        "id",
        "custom_fields",
        "products",
        "combos",
        ...AUDIT,
        "name_ar",
        "name_en",
        "image",
        "is_sub",
        "is_active",
        "menu",
      ]),
    ).toEqual([]);
    expect(category.menu).toBe(a.greenMenu);
    expect(category.products).toHaveLength(10);
    const product = category.products[0];
    expect(
      missingKeys(product, [
        "id",
        "created_at",
        "modified_at",
        "deleted_at",
        "is_deleted",
        "name_ar",
        "name_en",
        "original_price",
        "discount_percentage",
        "image",
        "nutritions",
        "nutrition_options",
        "restaurant_id",
        "is_sub",
        "description_ar",
        "description_en",
        "is_active",
        "in_stock",
        "category_id",
        "allergies",
        "variant",
        "allergens_dislikes",
      ]),
    ).toEqual([]);
    expect(
      missingKeys(product.nutritions, [
        "id",
        "custom_fields",
        ...AUDIT,
        "calories",
        "carbs",
        "protein",
        "fat",
        "product",
        "size",
      ]),
    ).toEqual([]);
  });

  it(
    "leaves out products that are off on the order date's weekday, and offers a combo only " +
      "when all its products are served",
    async () => {
      let saturday = addDays(today(), 2);
      while (weekdayOf(saturday) !== "saturday" || saturday === "2026-12-31") saturday = addDays(saturday, 1);
      const m = await json(await menu(a.green, `?order_date=${saturday}`));
      expect(m.order_date).toBe(saturday);
      expect(m.categories[0].products.map((p: { name_en: string }) => p.name_en)).not.toContain("Oat bowl");
      expect(m.categories[0].products).toHaveLength(8);

      const kabsa = await json(await menu(a.kabsa));
      const mains = kabsa.categories.find((c: { name_en: string }) => c.name_en === "Mains");
      expect(mains.combos.map((k: { name_en: string }) => k.name_en)).toEqual(["Family kabsa meal"]);
      let friday = addDays(today(), 1);
      while (weekdayOf(friday) !== "friday") friday = addDays(friday, 1);
      const onFriday = await json(await menu(a.kabsa, `?order_date=${friday}`));
      expect(onFriday.categories[0].products.map((p: { name_en: string }) => p.name_en)).toEqual([
        "Chicken kabsa",
        "Lamb kabsa",
      ]);
    },
  );

  it(
    "refuses a malformed date, one in the past, one before the notice, one too far ahead and " +
      "a closed day, naming the first good date",
    async () => {
      const first = firstOpen(addDays(today(), 1), ["2026-12-31"]);
      let friday = addDays(today(), 2);
      while (weekdayOf(friday) !== "friday") friday = addDays(friday, 1);
      for (const [q, words] of [
        ["2026-02-30", "real calendar date"],
        ["tomorrow", "YYYY-MM-DD"],
        [addDays(today(), -1), "In the past"],
        [today(), `first date is ${first}`],
        [addDays(today(), 120), "at most 90 days"],
        [friday, `closed on ${friday} (friday)`],
      ] as const) {
        const res = await menu(a.green, `?order_date=${q}`);
        expect(res.status, q).toBe(400);
        expect((await problem(res)).errors?.order_date?.join(" "), q).toContain(words);
      }
    },
  );

  it("is 404 for another tenant's restaurant, and Menu Details serves a whole menu by id", async () => {
    expect((await menu(b.green)).status).toBe(404);
    const details = await json(await get(`/public-api/v1/menus/${a.greenMenu}/`));
    expect(schemaErrors("getMenu", details)).toEqual([]);
    expect(details.order_date).toBeNull();
    expect(details.categories[0].products).toHaveLength(10);
    expect((await get(`/public-api/v1/menus/${b.greenMenu}/`)).status).toBe(404);
  });
});

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
      await env.DB.prepare("UPDATE plan_versions SET max_start_date = '2026-01-31' WHERE id = ?")
        .bind(b.ketoWeek)
        .run();
      const closed = await call(`/public-api/v1/plans/${b.keto}/`, { appId: B });
      expect(closed.status).toBe(409);
      expect((await problem(closed)).code).toBe("plan_version_closed");
      await env.DB.prepare("UPDATE plan_versions SET is_deleted = 1 WHERE id = ?").bind(b.ketoWeek).run();
      const none = await call(`/public-api/v1/plans/${b.keto}/`, { appId: B });
      expect(none.status).toBe(409);
      expect((await problem(none)).code).toBe("plan_has_no_versions");
    },
  );

  it("runs the same number of D1 statements for 30 days × 5 × 10 options as for 7 days × 3 × 3", async () => {
    const counts: number[] = [];
    for (const id of [a.balanced, a.keto]) {
      let n = 0;
      const stop = observeStatements(() => n++);
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

describe("List Channel Providers (2.6, 4.6)", () => {
  const providers = (body: unknown) => call("/api/v1/sales-channels/providers/", { appId: A, method: "POST", body });
  const byName = (list: { name_en: string }[], name: string) =>
    list.find((p) => p.name_en === name) as Record<string, any>;

  // The server took numbers the document refused (`"lng": 0`): the document now says both.
  it("takes lat and lng as strings or numbers, as the document declares them", async () => {
    const doc = openApiDocument();
    const schema = deref(
      doc,
      doc.paths["/api/v1/sales-channels/providers/"]!.post!.requestBody!.content["application/json"]!.schema,
    );
    for (const body of [
      { lat: 0, lng: 0 },
      { lat: "24.7136", lng: "46.6753" },
      { lat: " 24.7", lng: -180 },
    ]) {
      expect(validate(schema, body), JSON.stringify(body)).toEqual([]);
      expect((await providers(body)).status, JSON.stringify(body)).toBe(200);
    }
    for (const body of [
      { lat: 91, lng: 0 },
      { lat: "north", lng: "0" },
      { lat: true, lng: 0 },
    ]) {
      expect(validate(schema, body), JSON.stringify(body)).not.toEqual([]);
      expect((await providers(body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("serves every field, and availability from zones, radius and pickup city", async () => {
    // Central Riyadh: inside Kabsa House's zone and within 12 km of Green Bowl's Olaya branch.
    const res = await providers({ lat: "24.7136", lng: "46.6753", city_id: 1 });
    expect(res.status).toBe(200);
    const list = await json(res);
    expect(schemaErrors("listChannelProviders", list)).toEqual([]);
    expect(list.map((p: { id: number }) => p.id)).toEqual([a.green, a.kabsa]);
    expect(
      missingKeys(list[0], [
        "id",
        "name_en",
        "name_ar",
        "subtitle_en",
        "subtitle_ar",
        "logo",
        "banner",
        "start_after",
        "store_start_after",
        "primary_color",
        "secondary_color",
        "closed_dates",
        "supports_pickup",
        "supports_delivery",
        "off_days",
        "is_available_for_user",
        "delivery_windows",
        "pickup_branches",
      ]),
    ).toEqual([]);
    expect(list[0]).toMatchObject({ is_available_for_user: true, closed_dates: ["2026-12-31"], off_days: ["friday"] });
    expect(list[0].delivery_windows).toEqual([
      expect.objectContaining({ from_time: "06:00:00", to_time: "09:00:00" }),
      expect.objectContaining({ from_time: "12:00:00" }),
    ]);
    expect(list[0].pickup_branches).toEqual([
      {
        id: a.id(1),
        name_en: "Olaya",
        name_ar: "العليا",
        location: { address1: "Olaya St, Riyadh", lat: "24.6907", lng: "46.6853" },
      },
    ]);
    expect(list[1].is_available_for_user).toBe(true);
    expect(list[0]).not.toHaveProperty("debug");

    // North of Riyadh, 30 km out: outside the zone and the radius; with a city, pickup still serves.
    const far = await json(await providers({ lat: 24.98, lng: 46.7, debug: true }));
    expect(byName(far, "Green Bowl")).toMatchObject({
      is_available_for_user: false,
      debug: { reason: "outside_delivery_area", nearest_branch_id: a.id(1) },
    });
    expect(byName(far, "Kabsa House")).toMatchObject({
      is_available_for_user: false,
      debug: { reason: "outside_delivery_area", zone_id: null },
    });
    const inRiyadh = await json(await providers({ lat: 24.98, lng: 46.7, city_id: 1, debug: true }));
    expect(byName(inRiyadh, "Green Bowl").debug.reason).toBe("pickup_in_city");

    // Jeddah (city 2): Green Bowl has a pickup branch there; Kabsa House nothing.
    const jeddah = await json(await providers({ city_id: 2, debug: true }));
    expect(byName(jeddah, "Green Bowl")).toMatchObject({
      is_available_for_user: true,
      pickup_branches: [expect.objectContaining({ name_en: "Tahlia" })],
    });
    expect(byName(jeddah, "Kabsa House").is_available_for_user).toBe(false);
    const inside = await json(await providers({ lat: "24.70", lng: "46.75", debug: true }));
    expect(byName(inside, "Kabsa House").debug).toMatchObject({ reason: "inside_delivery_zone", zone_id: a.id(1) });
  });

  it("refuses bad coordinates and a request without a location", async () => {
    for (const [body, field] of [
      [{ lat: "91", lng: "46" }, "lat"],
      [{ lat: "24.7", lng: "-181" }, "lng"],
      [{ lat: "north", lng: "46" }, "lat"],
      [{ lat: "24.7" }, "lat"],
      [{}, "body"],
      [{ city_id: "one" }, "city_id"],
      [{ city_id: 1, radius: 5 }, "radius"],
    ] as const) {
      const res = await providers(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await problem(res)).errors ?? {}), JSON.stringify(body)).toContain(field);
    }
  });

  it("never lists another tenant's providers", async () => {
    const list = await json(
      await call("/api/v1/sales-channels/providers/", { appId: B, method: "POST", body: { city_id: 1 } }),
    );
    expect(list.map((p: { id: number }) => p.id)).toEqual([b.green]);
  });
});
