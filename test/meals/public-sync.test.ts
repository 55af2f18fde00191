import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { tokenFor } from "../helpers/factories";
import { call, pageIds as ids, json } from "../helpers/request";
import { MERCHANT_MEALS, mealsMerchantOf } from "./helpers";

/**
 * The meals' public lists of records a merchant edits sync (docs/interface-decisions.md, "Lists:
 * incremental sync"): a change made through the API comes back on `modified_at__gte` with
 * `order_by=modified_at`, an unchanged (older) row does not; the lists of one table's live rows
 * show the deleted ones on `include_deleted=true`. They are cached: the query string is part of an
 * entry's key, and a write still invalidates the store's entries.
 */

const A = 9291;
const B = 9292;
const M = MERCHANT_MEALS;
const { fx, post, patch, del } = mealsMerchantOf(A, B);
let tokenB: string;
beforeAll(async () => {
  tokenB = await tokenFor(B, ["can_write_item"]);
});
afterEach(() => setClock(null));

// The demo rows were written at 2026-11-01T09:00:00Z; the changes happen at fixed later times.
const SEEDED = "2026-11-01T09:00:00.000Z";
const AT = "2031-01-01T00:00:00.000Z";
const get = async (path: string, appId = A) => {
  const res = await call(path, { appId });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { body, cache: res.headers.get("x-cache") };
};
const since = (path: string, at = AT) =>
  `${path}${path.includes("?") ? "&" : "?"}modified_at__gte=${encodeURIComponent(at)}&order_by=modified_at`;

describe("meals' public lists: incremental sync", () => {
  it("bring back the rows changed since a time, and not the older ones", async () => {
    const lists = [
      {
        path: "/api/v1/restaurants/allergens-dislikes/",
        changed: fx.a.id(1),
        other: fx.a.id(2),
        write: () => patch(`${M}allergens-dislikes/${fx.a.id(1)}/`, { name_ar: "مكسرات" }),
      },
      {
        path: "/api/v1/restaurants/categories/",
        changed: fx.a.id(1),
        other: fx.a.id(2),
        write: () => patch(`${M}restaurant-categories/${fx.a.id(1)}/`, { ordering: 7 }),
      },
      {
        path: `/api/v1/restaurants/${fx.a.green}/variants/`,
        changed: fx.a.id(2),
        other: fx.a.id(1),
        write: () => patch(`${M}restaurant-variants/${fx.a.id(2)}/`, { name_ar: "قليل الكربوهيدرات جداً" }),
      },
      // The oat bowl names "Low carb" only.
      {
        path: `/api/v1/restaurants/products/${fx.a.oatBowl}/variants/`,
        changed: fx.a.id(2),
        other: undefined,
        write: () => patch(`${M}restaurant-variants/${fx.a.id(2)}/`, { ordering: 5 }),
      },
      {
        path: "/api/v1/restaurants/wallet-credit-products/",
        changed: fx.a.walletCredit,
        other: undefined,
        write: () => patch(`${M}products/${fx.a.walletCredit}/`, { name_ar: "رصيد المحفظة" }),
      },
      {
        path: "/public-api/v1/plans/tags/",
        changed: fx.a.tags[0]!,
        other: fx.a.tags[1]!,
        write: () => patch(`${M}plan-tags/${fx.a.tags[0]}/`, { ordering: 9 }),
      },
      {
        path: "/api/v3/plans/tags/",
        changed: fx.a.tags[2]!,
        other: fx.a.tags[1]!,
        write: () => patch(`${M}plan-tags/${fx.a.tags[2]}/`, { ordering: 8 }),
      },
      // The balanced plan, featured, carries the first two tags.
      {
        path: "/api/v3/plans/featured-tags/",
        changed: fx.a.tags[1]!,
        other: fx.a.tags[0]!,
        write: () => patch(`${M}plan-tags/${fx.a.tags[1]}/`, { description_en: "Balanced meals" }),
      },
    ];
    let clock = Date.parse(AT);
    for (const list of lists) {
      const from = new Date(clock).toISOString();
      const before = await get(list.path);
      const row = before.body.results.find((r: { id: number }) => r.id === list.changed);
      expect(row, list.path).toBeDefined();
      expect(row.modified_at < from, list.path).toBe(true);
      if (list.other) expect(ids(before.body), list.path).toContain(list.other);
      // Cached: the same list asked since a time is another entry, empty until something changes.
      expect((await get(list.path)).cache, list.path).toBe("HIT");
      const empty = await get(since(list.path, from));
      expect(empty.cache, list.path).toBe("MISS");
      expect(empty.body.results, list.path).toEqual([]);
      expect((await get(since(list.path, from))).cache, list.path).toBe("HIT");

      setClock(from);
      const written = await list.write();
      expect(written.status, list.path).toBe(200);
      setClock(null);

      // The write invalidated both entries: the change shows at once.
      const after = await get(since(list.path, from));
      expect(after.cache, list.path).toBe("MISS");
      expect(ids(after.body), list.path).toEqual([list.changed]);
      expect(after.body.results[0].modified_at, list.path).toBe(from);
      const whole = await get(list.path);
      expect(whole.cache, list.path).toBe("MISS");
      const ordered = (await get(`${list.path}?order_by=-modified_at&page_size=1`)).body;
      expect(ids(ordered), list.path).toEqual([list.changed]);
      clock += 60_000;
    }
  });

  it("show deleted rows on include_deleted=true, marked, and never another store's", async () => {
    const allergen = await json(
      await post(`${M}allergens-dislikes/`, { kind: "allergy", name_en: "Mustard", name_ar: "خردل" }),
    );
    const category = await json(await post(`${M}restaurant-categories/`, { name_en: "Grill", name_ar: "مشويات" }));
    const variant = await json(
      await post(`${M}restaurants/${fx.a.green}/variants/`, { name_en: "Paleo", name_ar: "باليو" }),
    );
    const tag = await json(
      await post(`${M}plan-tags/`, { type_en: "Goal", type_ar: "الهدف", tag_en: "Bulk", tag_ar: "تضخيم" }),
    );
    expect(tag).toMatchObject({ is_deleted: false, modified_at: expect.stringMatching(/Z$/) });
    const asB = (path: string, opts: { method?: string; body?: unknown } = {}) =>
      call(path, { token: tokenB, appId: B, ...opts });
    // Store B deletes its own variant: A's lists never show it.
    expect((await asB(`${M}restaurant-variants/${fx.b.id(3)}/`, { method: "DELETE" })).status).toBe(204);
    const cases = [
      { path: "/api/v1/restaurants/allergens-dislikes/", row: allergen, member: `${M}allergens-dislikes/` },
      { path: "/api/v1/restaurants/categories/", row: category, member: `${M}restaurant-categories/` },
      { path: `/api/v1/restaurants/${fx.a.green}/variants/`, row: variant, member: `${M}restaurant-variants/` },
      { path: "/public-api/v1/plans/tags/", row: tag, member: `${M}plan-tags/` },
      // The same tag, deleted above: v3's list of plan tags shows it alike.
      { path: "/api/v3/plans/tags/", row: tag, member: undefined },
    ];
    for (const { path, row, member } of cases) {
      if (member) {
        expect(ids((await get(`${path}?id=${row.id}`)).body), path).toEqual([row.id]);
        expect((await del(`${member}${row.id}/`)).status, path).toBe(204);
      }
      expect((await get(`${path}?id=${row.id}`)).body.results, path).toEqual([]);
      const [gone, ...more] = (await get(`${path}?include_deleted=true&id=${row.id}`)).body.results;
      expect(more, path).toEqual([]);
      expect(gone, path).toMatchObject({ id: row.id, is_deleted: true });
      expect(gone.modified_at, path).not.toBe(row.modified_at);
      expect((await get(`${path}?include_deleted=false&id=${row.id}`)).body.results, path).toEqual([]);
    }
    const withDeleted = (await get(`/api/v1/restaurants/${fx.a.green}/variants/?include_deleted=true`)).body;
    expect(ids(withDeleted)).toContain(variant.id);
    expect(ids(withDeleted)).not.toContain(fx.b.id(3));
    expect(withDeleted.results.every((v: { app_id: number }) => v.app_id === A)).toBe(true);
    const ofB = (await get(`/api/v1/restaurants/${fx.b.green}/variants/?include_deleted=true`, B)).body;
    expect(ofB.results.find((v: { id: number }) => v.id === fx.b.id(3))).toMatchObject({ is_deleted: true });
  });

  it("take include_deleted only where rows are deleted through the API and the list is one table's", async () => {
    for (const path of [
      `/api/v1/restaurants/products/${fx.a.oatBowl}/variants/?include_deleted=true`,
      "/api/v1/restaurants/wallet-credit-products/?include_deleted=true",
      "/api/v3/plans/featured-tags/?include_deleted=true",
    ]) {
      const res = await call(path, { appId: A });
      expect(res.status, path).toBe(400);
      expect(Object.keys((await json(res)).errors), path).toContain("include_deleted");
    }
    const bad = await call("/api/v1/restaurants/categories/?include_deleted=yes", { appId: A });
    expect(bad.status).toBe(400);
    expect(Object.keys((await json(bad)).errors)).toEqual(["include_deleted"]);
    expect((await call("/api/v1/restaurants/categories/?modified_at__gte=soon", { appId: A })).status).toBe(400);
    expect(
      (await get(`/api/v1/restaurants/categories/?modified_at__lte=${encodeURIComponent(SEEDED)}`)).body.count,
    ).toBeGreaterThan(0);
  });
});
