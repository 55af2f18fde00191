import { beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/client";
import { addDays, weekdayOf } from "../../src/modules/meals/dates";
import { HELD_CHECKS } from "../helpers/d1-waits";
import { APP_1, shardFor } from "../helpers/factories";
import { AUDIT, missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, callWaits, json, problem } from "../helpers/request";
import { firstOpen, today } from "./helpers";

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
      await shardFor(APP_1).prepare("UPDATE restaurants SET is_active = 0 WHERE id = ?").bind(b.kabsa).run();
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
      // The store's own check (knownApp) is held for a second only, so it may run again on a busy
      // machine: it is counted apart, as the token check is.
      let statements = 0;
      const stop = observeStatements((q) => {
        if (!HELD_CHECKS.test(q)) statements++;
      });
      const { res, waits } = await callWaits(url, { appId: A, method, ...(method === "POST" && { body: {} }) });
      stop();
      expect(res.status, url).toBe(200);
      expect(res.headers.get("x-cache"), url).not.toBe("HIT");
      expect((await json(res)).results.length, url).toBeGreaterThan(0);
      expect([waits.beyondAuth, statements], url).toEqual([1, 1]);
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
