import { beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/client";
import { itemReservations } from "../../src/modules/items/tables";
import { HELD_CHECKS } from "../helpers/d1-waits";
import { createFullItem, customerTokenFor, db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, pageIds as ids, json, problem } from "../helpers/request";
import { ALWAYS, type Catalogue, catalogueOf } from "./helpers";

/** The customer app's catalogue (CA10): public, cached reads that catalogue writes make fresh. */

const A = 7101;
const B = 7102;
const ITEMS = "/order/v1/items/";
const CATEGORIES = "/order/v1/categories/";

let full: Catalogue["full"];
let plain: Catalogue["plain"];
let bItem: Catalogue["bItem"];
let bFull: Catalogue["bFull"];
let hidden: Catalogue["hidden"];

const get = (path: string, headers: Record<string, string> = {}, appId: number = A) => call(path, { appId, headers });

beforeAll(async () => {
  ({ full, plain, bItem, bFull, hidden } = await catalogueOf(A, B));
});

describe("List Items and Item Details (customer app)", () => {
  it("serve active items without a token, shaped as the document says, variants inside their item", async () => {
    const res = await get(`${ITEMS}?page_size=100`);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const page = await json(res);
    expect(schemaErrors("listCatalogueItems", page)).toEqual([]);
    expect(ids(page).sort()).toEqual([full.item.id, plain.id].sort());
    expect(page.count).toBe(2);
    const item = page.results.find((r: { id: number }) => r.id === full.item.id);
    expect(item.variants.map((v: { id: number }) => v.id).sort()).toEqual(full.variants.map((v) => v.id).sort());
    expect(item.modifiers.map((m: { id: number }) => m.id)).toEqual([full.size.id, full.extras.id]);
    expect(item.bundle_categories.map((b: { id: number }) => b.id)).toEqual([full.bundle.id]);
    expect(item.categories).toEqual([full.category.id]);
    expect(item.images).toHaveLength(1);
    expect(item).toMatchObject({
      price: 100,
      stock: { in_stock: true, qty: 7 },
      // 10% off, and a fixed 50 off as the first-purchase price.
      discount: { is_applied: true, price_after_discount_no_trial: 90, price_after_discount: 50 },
    });
  });

  it("serves one active item; a deleted, plan-only, out-of-dates, variant, unknown or other store's item is a 404", async () => {
    const res = await get(`${ITEMS}${full.item.id}/`);
    expect(res.status).toBe(200);
    const item = await json(res);
    expect(schemaErrors("getCatalogueItem", item)).toEqual([]);
    expect(item).toMatchObject({ id: full.item.id, name_en: "Cooking class", price: 100 });
    for (const id of [...Object.values(hidden), bItem.id, 999_999_999]) {
      const miss = await get(`${ITEMS}${id}/`);
      expect(miss.status, String(id)).toBe(404);
      expect((await problem(miss)).code).toBe("item_not_found");
      expect(miss.headers.get("x-cache")).toBeNull();
    }
  });

  it("needs only app-id: an unknown store is 404 app_not_found, a missing one 400, a token changes nothing", async () => {
    const unknown = await get(ITEMS, {}, 999_123);
    expect(unknown.status).toBe(404);
    expect((await problem(unknown)).code).toBe("app_not_found");
    const missing = await call(ITEMS, { appId: null });
    expect(missing.status).toBe(400);
    expect((await problem(missing)).code).toBe("missing_app_id");
    const customer = await customerTokenFor(A, 1);
    const withToken = await call(`${ITEMS}${full.item.id}/`, { appId: A, token: customer });
    expect(withToken.status).toBe(200);
  });

  it("keeps stores apart: another store's items, categories and cache entries never show", async () => {
    const a = await json(await get(`${ITEMS}?page_size=100`));
    const b = await json(await get(`${ITEMS}?page_size=100`, {}, B));
    expect(ids(b).sort()).toEqual([bItem.id, bFull.item.id].sort());
    expect(ids(a)).not.toContain(bItem.id);
    const byOtherCategory = await json(await get(`${ITEMS}?category_id=${bFull.category.id}`));
    expect(byOtherCategory).toMatchObject({ count: 0, results: [] });
    const cat = await get(`${CATEGORIES}${bFull.category.id}/`);
    expect(cat.status).toBe(404);
    expect((await problem(cat)).code).toBe("item_category_not_found");
  });

  it("loads a page in a fixed number of statements, whatever its size", async () => {
    const counts: number[] = [];
    for (const size of [1, 2]) {
      let n = 0;
      // The store's check (knownApp) is held for a second only: on a busy machine it may run again.
      const stop = observeStatements((q) => {
        if (!HELD_CHECKS.test(q)) n++;
      });
      // A query of its own each time (a cache hit would run none) that finds both items.
      const res = await get(`${ITEMS}?page_size=${size}&min_price=0.0${size}`);
      stop();
      expect(res.status).toBe(200);
      counts.push(n);
    }
    expect(new Set(counts).size).toBe(1);
  });
});

describe("filters, search and order", () => {
  const list = async (query: string, appId = A) => {
    const res = await get(`${ITEMS}?${query}`, {}, appId);
    expect(res.status, `${query}: ${await res.clone().text()}`).toBe(200);
    return json(res);
  };

  it("filters on category, type, price range (major units) and stock", async () => {
    expect(ids(await list(`category_id=${full.category.id}`)).sort()).toEqual([full.item.id, plain.id].sort());
    expect(ids(await list("type=ticket"))).toEqual([full.item.id]);
    expect(ids(await list("type=product"))).toEqual([plain.id]);
    expect(ids(await list("min_price=15.5&max_price=15.5"))).toEqual([plain.id]);
    expect(ids(await list("min_price=15.51"))).toEqual([full.item.id]);
    expect(ids(await list("max_price=99.99"))).toEqual([plain.id]);
    expect(ids(await list("in_stock=true"))).toEqual([full.item.id]);
    expect(ids(await list("in_stock=false"))).toEqual([plain.id]);
  });

  it("counts an item in stock when only one of its variants has units", async () => {
    const parent = await createFullItem(B, { ...ALWAYS, stockQty: 0 });
    // The second variant has 1 unit; the first none.
    expect(ids(await list("in_stock=true", B))).toContain(parent.item.id);
    await db(B)
      .insert(itemReservations)
      .values({
        appId: B,
        itemId: parent.variants[1]!.id,
        qty: 1,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
        createdAt: new Date().toISOString(),
      });
    // A fresh query (the reservation was written behind the API's back, so no invalidation).
    expect(ids(await list("in_stock=false&page_size=99", B))).toContain(parent.item.id);
  });

  it("searches names in both languages and the SKU, literally", async () => {
    expect(ids(await list("search=FLAT"))).toEqual([plain.id]);
    expect(ids(await list(`search=${encodeURIComponent("وايت")}`))).toEqual([plain.id]);
    expect(ids(await list(`search=${encodeURIComponent(full.item.sku.toLowerCase())}`))).toEqual([full.item.id]);
    expect(ids(await list("search=%25"))).toEqual([]);
    expect(ids(await list("search=_"))).toEqual([]);
  });

  it("takes a search term of the declared maximum, however it is written, and refuses a longer one", async () => {
    for (const term of ["%".repeat(100), "_\\".repeat(50), "ب".repeat(100), "😀".repeat(100)]) {
      const res = await get(`${ITEMS}?search=${encodeURIComponent(term)}`);
      expect(res.status, term).toBe(200);
      expect((await json(res)).count).toBe(0);
    }
    const long = await get(`${ITEMS}?search=${"a".repeat(101)}`);
    expect(long.status).toBe(400);
    expect((await problem(long)).errors).toHaveProperty("search");
  });

  it("orders on price, name and ordering, and pages with the standard envelope", async () => {
    expect(ids(await list("order_by=price"))).toEqual([plain.id, full.item.id]);
    expect(ids(await list("order_by=-price"))).toEqual([full.item.id, plain.id]);
    expect(ids(await list("order_by=name_en"))).toEqual([full.item.id, plain.id]);
    expect(ids(await list("order_by=-name_en"))).toEqual([plain.id, full.item.id]);
    const first = await list("order_by=price&page_size=1");
    expect(first).toMatchObject({ count: 2, previous: null });
    expect(first.next).toContain("page=2");
    const second = await list("order_by=price&page_size=1&page=2");
    expect(ids(second)).toEqual([full.item.id]);
    expect(second.next).toBeNull();
  });

  it("refuses unknown parameters, bad values and an inverted price range with a 400 naming them", async () => {
    for (const [query, field] of [
      ["colour=red", "colour"],
      ["search=a&search=b", "search"],
      ["type=car", "type"],
      ["in_stock=yes", "in_stock"],
      ["min_price=1.234", "min_price"],
      ["min_price=1e12", "min_price"],
      ["max_price=-1", "max_price"],
      ["min_price=10&max_price=5", "min_price"],
      ["order_by=sku", "order_by"],
      ["category_id=0", "category_id"],
      ["page_size=101", "page_size"],
      ["page=9", "page"],
    ] as const) {
      const res = await get(`${ITEMS}?${query}`);
      expect(res.status, query).toBe(400);
      const body = await problem(res);
      expect(body.code).toBe("validation_error");
      expect(body.errors, query).toHaveProperty(field);
    }
  });
});

describe("List Item Categories and Category Details", () => {
  it("count only active items, shaped as the document says", async () => {
    const res = await get(`${CATEGORIES}?page_size=100`);
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(schemaErrors("listCatalogueCategories", page)).toEqual([]);
    expect(page.results).toEqual([
      expect.objectContaining({ id: full.category.id, name_en: "Classes", items_count: 2 }),
    ]);
    const one = await get(`${CATEGORIES}${full.category.id}/`);
    const body = await json(one);
    expect(schemaErrors("getCatalogueCategory", body)).toEqual([]);
    expect(body).toMatchObject({ id: full.category.id, items_count: 2 });
    expect((await get(`${CATEGORIES}999999999/`)).status).toBe(404);
  });
});
