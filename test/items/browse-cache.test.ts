import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { listActiveItems, storeDay } from "../../src/modules/items/browse/service";
import { itemDiscounts, itemReservations } from "../../src/modules/items/tables";
import { createPlainItem, db, serviceCtx } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { ALWAYS, type Catalogue, catalogueOf } from "./helpers";

/** The customer app's catalogue (CA10): public, cached reads that catalogue writes make fresh. */

// Stores of this file's own (browse.test.ts has 7101 and 7102).
const A = 7103;
const B = 7104;
const ITEMS = "/order/v1/items/";
const CATEGORIES = "/order/v1/categories/";
const MERCHANT = "/order/v1/merchant/items/";

let tokenA: string;
let full: Catalogue["full"];
let plain: Catalogue["plain"];

const get = (path: string, headers: Record<string, string> = {}, appId: number = A) => call(path, { appId, headers });
const merchant = (path: string, method: string, body?: unknown) =>
  call(MERCHANT + path, { method, body, token: tokenA, appId: A });

beforeAll(async () => {
  ({ tokenA, full, plain } = await catalogueOf(A, B));
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
    await db(B).insert(itemDiscounts).values({ appId: B, itemId: item.id, kind: "fixed", value: 100, endsAt: ends });
    expect((await listActiveItems(serviceCtx(B), query, day)).validUntil).toBe(Date.parse(ends));
    const expires = new Date(Date.now() + 600_000).toISOString();
    await db(B)
      .insert(itemReservations)
      .values({ appId: B, itemId: item.id, qty: 1, expiresAt: expires, createdAt: new Date().toISOString() });
    expect((await listActiveItems(serviceCtx(B), query, day)).validUntil).toBe(Date.parse(expires));
  });
});
