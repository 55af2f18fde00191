import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/client";
import { listActiveItems, storeDay } from "../../src/modules/items/browse/service";
import { itemCategoryLinks, itemDiscounts, itemReservations } from "../../src/modules/items/tables";
import {
  createFullItem,
  createPlainItem,
  customerTokenFor,
  db,
  ensureTenant,
  serviceCtx,
  tokenFor,
} from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";

/** The customer app's catalogue (CA10): public, cached reads that catalogue writes make fresh. */

const A = 7101;
const B = 7102;
const ITEMS = "/order/v1/items/";
const CATEGORIES = "/order/v1/categories/";
const MERCHANT = "/order/v1/merchant/items/";
const ALWAYS = { servedFromDate: "0001-01-01", servedToDate: "9999-12-31" };

let tokenA: string;
type Full = Awaited<ReturnType<typeof createFullItem>>;
let full: Full;
let plain: Awaited<ReturnType<typeof createPlainItem>>;
let bItem: Awaited<ReturnType<typeof createPlainItem>>;
let bFull: Full;
const hidden: Record<string, number> = {};

const get = (path: string, headers: Record<string, string> = {}, appId: number = A) => call(path, { appId, headers });
const merchant = (path: string, method: string, body?: unknown) =>
  call(MERCHANT + path, { method, body, token: tokenA, appId: A });
const ids = (page: { results: { id: number }[] }) => page.results.map((r) => r.id);

beforeAll(async () => {
  await ensureTenant(A);
  await ensureTenant(B);
  tokenA = await tokenFor(A, ["can_read_item", "can_write_item"]);
  full = await createFullItem(A, { ...ALWAYS, nameEn: "Cooking class", sku: `COOK-${Date.now()}`, ordering: 1 });
  plain = await createPlainItem(A, { nameEn: "Flat white", nameAr: "فلات وايت", priceMinor: 1_550, stockQty: 0 });
  // Each of these is not active and must not show.
  hidden.deleted = (await createPlainItem(A, { nameEn: "Gone", isDeleted: true })).id;
  hidden.planOnly = (await createPlainItem(A, { nameEn: "Plan only", isPlanOnly: true })).id;
  hidden.ended = (await createPlainItem(A, { nameEn: "Last year", servedToDate: "2001-12-31" })).id;
  hidden.future = (await createPlainItem(A, { nameEn: "Next season", servedFromDate: "9000-01-01" })).id;
  hidden.variant = full.variants[0]!.id;
  bItem = await createPlainItem(B, { nameEn: "Other store's coffee" });
  bFull = await createFullItem(B, ALWAYS);
  // Plan-only and deleted items in the category must not count.
  const d = db();
  await d.insert(itemCategoryLinks).values([
    { appId: A, itemId: hidden.planOnly, categoryId: full.category.id },
    { appId: A, itemId: hidden.deleted, categoryId: full.category.id },
    { appId: A, itemId: plain.id, categoryId: full.category.id },
  ]);
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
      const stop = observeStatements(() => n++);
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
    await db()
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

describe("the cache", () => {
  it("answers If-None-Match with 304, and a hit with the same ETag", async () => {
    const path = `${ITEMS}${plain.id}/`;
    const first = await get(path);
    const etag = first.headers.get("etag")!;
    const again = await get(path);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.headers.get("etag")).toBe(etag);
    const not = await get(path, { "If-None-Match": etag });
    expect(not.status).toBe(304);
    expect(await not.text()).toBe("");
  });

  /** Reads `path`, then runs `write`, then expects a fresh body (new ETag) that `check` accepts. */
  async function freshAfter(path: string, write: () => Promise<Response>, check: (body: any) => void) {
    await get(path);
    const before = await get(path);
    expect(before.headers.get("x-cache")).toBe("HIT");
    const etag = before.headers.get("etag")!;
    const res = await write();
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    const after = await get(path, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.headers.get("etag")).not.toBe(etag);
    check(await json(after));
  }

  it("a price update, a new discount, a reservation and a delete each make the next read fresh", async () => {
    const item = await createPlainItem(A, { nameEn: "Cortado", priceMinor: 1_200, stockQty: 5 });
    const path = `${ITEMS}${item.id}/`;
    await freshAfter(
      path,
      () => merchant(`${item.id}/`, "PATCH", { price: 13.75 }),
      (b) => expect(b.price).toBe(13.75),
    );
    await freshAfter(
      path,
      () => merchant(`${item.id}/discount/`, "POST", { kind: "percentage", value: 20 }),
      (b) => expect(b.discount).toMatchObject({ is_applied: true, price_after_discount: 11 }),
    );
    await freshAfter(
      path,
      () => merchant(`${item.id}/reserve/`, "POST", { qty: 2 }),
      (b) => expect(b.stock).toEqual({ in_stock: true, qty: 3 }),
    );
    await freshAfter(
      `${ITEMS}?search=Cortado`,
      () => merchant(`${item.id}/`, "DELETE"),
      (b) => expect(b.count).toBe(0),
    );
    const gone = await get(path);
    expect(gone.status).toBe(404);
  });

  it("a category's new item shows in its count at once", async () => {
    await freshAfter(
      `${CATEGORIES}${full.category.id}/`,
      () =>
        merchant("", "POST", {
          type: "product",
          service_type: "pickup",
          sku: `NEW-${Date.now()}`,
          price: 5,
          name_en: "Espresso",
          name_ar: "إسبريسو",
          categories: [full.category.id],
        }),
      (b) => expect(b.items_count).toBe(3),
    );
  });

  it("every catalogue write refreshes the store's cached reads, and a refused one does not", async () => {
    const generation = () => env.CACHE.get(`gen:${A}`);
    const item = await createPlainItem(A, { stockQty: 10 });
    const created = async (path: string, body: unknown) => json(await merchant(path, "POST", body));
    const cat = await created("categories/", { name_en: "C", name_ar: "ت" });
    const tag = await created("tags/", { name_en: "T", name_ar: "و" });
    const bundle = await created("bundle-categories/", { name_en: "B", name_ar: "ب" });
    const mod = await created("modifiers/", { name_en: "M", name_ar: "م", values: [{ name_en: "v", name_ar: "ف" }] });
    const image = await created(`${item.id}/images/`, { url: "https://cdn.example.com/x.jpg" });
    await created(`${item.id}/discount/`, { kind: "fixed", value: 1 });
    const writes: [string, string, unknown?][] = [
      [
        "",
        "POST",
        { type: "product", service_type: "pickup", sku: `W-${Date.now()}`, price: 1, name_en: "W", name_ar: "و" },
      ],
      [`${item.id}/`, "PATCH", { name_en: "Renamed" }],
      ["bulk-update/", "POST", { items: [{ id: item.id, stock_qty: 9 }] }],
      ["bulk-update-prices/", "POST", { items: [{ id: item.id, price: 3 }] }],
      [`${item.id}/reserve/`, "POST", { qty: 1 }],
      [`${item.id}/purchase/`, "POST", { qty: 1 }],
      [`${item.id}/discount/`, "PATCH", { value: 2 }],
      [`${item.id}/discount/`, "DELETE"],
      [`${item.id}/images/${image.id}/`, "PATCH", { alt_en: "X" }],
      [`${item.id}/images/${image.id}/`, "DELETE"],
      [`categories/${cat.id}/`, "PATCH", { name_en: "C2" }],
      [`categories/${cat.id}/`, "DELETE"],
      [`tags/${tag.id}/`, "PATCH", { name_en: "T2" }],
      [`tags/${tag.id}/`, "DELETE"],
      [`bundle-categories/${bundle.id}/`, "PATCH", { name_en: "B2" }],
      [`bundle-categories/${bundle.id}/`, "DELETE"],
      [`modifiers/${mod.id}/`, "PATCH", { name_en: "M2" }],
      [`modifiers/${mod.id}/`, "DELETE"],
      ["config/", "POST", { reservation_minutes: 20 }],
      [`${item.id}/`, "DELETE"],
    ];
    for (const [path, method, body] of writes) {
      const before = await generation();
      const res = await merchant(path, method, body);
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
      expect(await generation(), `${method} ${path}`).not.toBe(before);
    }
    const before = await generation();
    expect((await merchant("999999999/", "PATCH", { name_en: "x" })).status).toBe(404);
    expect((await merchant("categories/", "POST", {})).status).toBe(400);
    expect(await generation()).toBe(before);
  });
});

describe("how long a cached read stays right", () => {
  it("ends at the store's midnight, in its time zone, daylight-saving days included", () => {
    const at = (iso: string) => Date.parse(iso);
    expect(storeDay(at("2026-03-10T20:59:59.500Z"))).toEqual({
      date: "2026-03-10",
      endsAt: at("2026-03-10T21:00:00Z"),
    });
    expect(storeDay(at("2026-03-10T21:00:00Z"))).toEqual({ date: "2026-03-11", endsAt: at("2026-03-11T21:00:00Z") });
    // New York: 23-hour and 25-hour days.
    expect(storeDay(at("2026-03-08T06:00:00Z"), "America/New_York")).toEqual({
      date: "2026-03-08",
      endsAt: at("2026-03-09T04:00:00Z"),
    });
    expect(storeDay(at("2026-11-01T05:00:00Z"), "America/New_York")).toEqual({
      date: "2026-11-01",
      endsAt: at("2026-11-02T05:00:00Z"),
    });
  });

  it("ends sooner when a shown discount starts or ends, or a shown reservation expires", async () => {
    const item = await createPlainItem(B, { ...ALWAYS, nameEn: `Timed ${Date.now()}`, stockQty: 3 });
    const day = { date: storeDay().date, endsAt: Date.now() + 86_400_000 };
    const query = { search: item.nameEn };
    expect((await listActiveItems(serviceCtx(B), query, day)).validUntil).toBe(day.endsAt);
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    await db().insert(itemDiscounts).values({ appId: B, itemId: item.id, kind: "fixed", value: 100, endsAt: ends });
    expect((await listActiveItems(serviceCtx(B), query, day)).validUntil).toBe(Date.parse(ends));
    const expires = new Date(Date.now() + 600_000).toISOString();
    await db()
      .insert(itemReservations)
      .values({ appId: B, itemId: item.id, qty: 1, expiresAt: expires, createdAt: new Date().toISOString() });
    expect((await listActiveItems(serviceCtx(B), query, day)).validUntil).toBe(Date.parse(expires));
  });
});
