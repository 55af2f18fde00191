import { beforeAll, describe, expect, it } from "vitest";
import { tokenFor } from "../helpers/factories";
import { missingKeys, schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, callWaits, pageIds as ids, json, problem } from "../helpers/request";

/** Menus (MM6): public reads under /api/v1/menus/, cached in KV. */

const A = 4405;
const B = 4406;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let tokenA: string;

beforeAll(async () => {
  a = await seedMealsFor(A, 4_450_000);
  b = await seedMealsFor(B, 4_460_000);
  tokenA = await tokenFor(A, ["can_write_item"]);
});

const get = (path: string, headers: Record<string, string> = {}, appId = A) =>
  call(`/api/v1/menus/${path}`, { appId, headers });
const write = (path: string, body: unknown) =>
  call(`/order/v1/merchant/meals/${path}`, { method: "PATCH", token: tokenA, appId: A, body });

describe("List Menus", () => {
  it("lists the store's menus with their restaurants, paginated and filtered", async () => {
    const res = await get("");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listMealMenus", page)).toEqual([]);
    expect(ids(page)).toEqual([a.greenMenu, a.kabsaMenu]);
    expect(page.results[1]).toMatchObject({
      id: a.kabsaMenu,
      name_en: "Kabsa House menu",
      restaurant_id: a.kabsa,
      app_id: A,
      restaurant: {
        id: a.kabsa,
        name_en: "Kabsa House",
        name_ar: "بيت الكبسة",
        logo: "/media/restaurants/kabsa-house.png",
      },
    });
    expect(ids(await json(await get(`?restaurant_id=${a.kabsa}`)))).toEqual([a.kabsaMenu]);
    expect(ids(await json(await get("?search=kabsa")))).toEqual([a.kabsaMenu]);
    const second = await json(await get("?page_size=1&page=2"));
    expect(second).toMatchObject({ count: 2, next: null });
    expect(ids(second)).toEqual([a.kabsaMenu]);
    expect(ids(await json(await get("", {}, B)))).toEqual([b.greenMenu, b.kabsaMenu]);
    expect((await problem(await get("?restaurant=1"))).errors).toHaveProperty("restaurant");
  });
});

describe("Menu Details", () => {
  it("is the plans' Menu Details body; another store's menu is a 404", async () => {
    const res = await get(`${a.kabsaMenu}/`);
    expect(res.status).toBe(200);
    const menu = await json(res);
    expect(schemaErrors("getMealMenu", menu)).toEqual([]);
    expect(menu).toEqual(await json(await call(`/public-api/v1/menus/${a.kabsaMenu}/`, { appId: A })));
    expect(menu.categories.map((c: { name_en: string }) => c.name_en)).toEqual(["Mains", "Drinks"]);
    expect((await problem(await get(`${b.kabsaMenu}/`))).code).toBe("menu_not_found");
    expect((await problem(await get("0/"))).errors).toHaveProperty("menu_id");
  });
});

describe("Menu Add-Ons Details", () => {
  it("lists the menu's products that are not plan meals, with their price after discount", async () => {
    const res = await get(`${a.kabsaMenu}/add-ons/`);
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listMealMenuAddOns", page)).toEqual([]);
    expect(ids(page)).toEqual([71, 72, 73, 74, 75].map(a.id));
    const jareesh = page.results[2];
    expect(missingKeys(jareesh, ["price", "original_price", "discount_percentage", "nutritions", "off_days"])).toEqual(
      [],
    );
    expect(jareesh).toMatchObject({ name_en: "Jareesh", price: 22, original_price: 22, is_sub: false });
    expect(jareesh.off_days).toEqual(["friday"]);
    expect(jareesh.nutritions).toMatchObject({ calories: 520 });
    // Green Bowl's products are all plan meals: it has no add-ons.
    expect(await json(await get(`${a.greenMenu}/add-ons/`))).toMatchObject({ count: 0, results: [] });
    expect(ids(await json(await get(`${a.kabsaMenu}/add-ons/?original_price__lte=9`)))).toEqual([74, 75].map(a.id));
  });

  it("shows a merchant's write at once: a discount rounded half up, an item out of stock gone", async () => {
    const path = `${a.kabsaMenu}/add-ons/`;
    await get(path);
    const hit = await get(path);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect((await get(path, { "If-None-Match": hit.headers.get("etag")! })).status).toBe(304);
    // 12.5% of 5.00 is 0.625: 0.63 off.
    expect((await write(`products/${a.id(74)}/`, { discount_percentage: 12.5 })).status).toBe(200);
    expect((await write(`products/${a.id(73)}/`, { in_stock: false })).status).toBe(200);
    const after = await get(path, { "If-None-Match": hit.headers.get("etag")! });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    const page = await json(after);
    expect(ids(page)).toEqual([71, 72, 74, 75].map(a.id));
    expect(page.results[2]).toMatchObject({ original_price: 5, discount_percentage: 12.5, price: 4.37 });
  });

  it("is a 404 for another store's menu", async () => {
    expect((await problem(await get(`${b.kabsaMenu}/add-ons/`))).code).toBe("menu_not_found");
  });
});

describe("Menu Options", () => {
  it("lists the menu's active categories with their products", async () => {
    const res = await get(`${a.greenMenu}/options/?page_size=4`);
    const page = await json(res);
    expect(schemaErrors("listMealMenuOptions", page)).toEqual([]);
    expect(page.count).toBe(5);
    expect(page.results.map((c: { name_en: string }) => c.name_en)).toEqual(["Breakfast", "Lunch", "Dinner", "Snacks"]);
    expect(page.results[1].products.map((p: { name_en: string }) => p.name_en).slice(0, 2)).toEqual([
      "Chicken kabsa",
      "Beef kofta",
    ]);
    expect(page.next).toContain("page=2");
    expect((await json(await get(`${a.greenMenu}/options/?is_sub=true`))).count).toBe(0);
    expect((await json(await get(`${a.greenMenu}/options/?is_sub=false`))).count).toBe(5);
    const kabsa = await json(await get(`${a.kabsaMenu}/options/`));
    expect(kabsa.results.map((c: { products: unknown[] }) => c.products.length)).toEqual([3, 2]);
  });

  it("leaves out an inactive category and inactive products", async () => {
    expect((await write(`menu-categories/${a.id(7)}/`, { is_active: false })).status).toBe(200);
    expect((await write(`products/${a.id(72)}/`, { is_active: false })).status).toBe(200);
    const kabsa = await json(await get(`${a.kabsaMenu}/options/`));
    expect(ids(kabsa)).toEqual([a.id(6)]);
    expect(ids({ results: kabsa.results[0].products })).toEqual([71, 73].map(a.id));
    expect((await problem(await get(`${b.greenMenu}/options/`))).code).toBe("menu_not_found");
  });
});

describe("the menu's lists", () => {
  it("check the menu and read the page in one round trip beyond the token check", async () => {
    for (const path of [`${a.greenMenu}/add-ons/`, `${a.greenMenu}/options/`]) {
      const { res, waits } = await callWaits(`/api/v1/menus/${path}?page_size=2`, { appId: A });
      expect(res.status, path).toBe(200);
      expect(waits.beyondAuth, path).toBe(1);
    }
  });
});

describe("a menu of an inactive restaurant", () => {
  it("is neither listed nor served", async () => {
    expect((await write(`restaurants/${a.kabsa}/`, { is_active: false })).status).toBe(200);
    expect(ids(await json(await get("")))).toEqual([a.greenMenu]);
    for (const path of [`${a.kabsaMenu}/`, `${a.kabsaMenu}/add-ons/`, `${a.kabsaMenu}/options/`])
      expect((await problem(await get(path))).code, path).toBe("menu_not_found");
  });
});
