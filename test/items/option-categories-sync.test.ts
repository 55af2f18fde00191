import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_1, APP_2, tokenFor } from "../helpers/factories";
import { call, pageIds as ids, json } from "../helpers/request";

/**
 * Modifier and bundle categories as a mirror reads their lists (docs/interface-decisions.md, "Lists:
 * incremental sync"): every change moves `modified_at`, a deleted one comes back marked when asked.
 */

const MODS = "/order/v1/merchant/items/modifiers/";
const BUNDLES = "/order/v1/merchant/items/bundle-categories/";
const tokens: Record<number, string> = {};
const as = async (appId: number, path: string, opts: { method?: string; body?: unknown } = {}) => {
  const res = await call(path, { ...opts, token: tokens[appId]!, appId });
  return res.status === 204 ? undefined : json(res);
};

/** The clock (Date only) a minute after `from`: each change below happens later than the one before. */
const later = (from: string) => vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(from) + 60_000 });

beforeAll(async () => {
  for (const appId of [APP_1, APP_2]) tokens[appId] = await tokenFor(appId, ["can_read_item", "can_write_item"]);
});
afterEach(() => vi.useRealTimers());

const modifier = (name: string) => ({
  name_en: name,
  name_ar: name,
  values: [
    { name_en: `${name} 1`, name_ar: `${name} 1` },
    { name_en: `${name} 2`, name_ar: `${name} 2` },
  ],
});
const bundle = (name: string) => ({ name_en: name, name_ar: name });

describe.each([
  ["modifier categories", MODS, modifier, { name_en: "Renamed" }],
  ["bundle categories", BUNDLES, bundle, { max_selections: 4 }],
])("List of %s: modified_at and include_deleted", (_n, path, body, change) => {
  it("an update and a delete move modified_at; the filter, the order and include_deleted see them", async () => {
    const a = await as(APP_1, path, { method: "POST", body: body("A") });
    const b = await as(APP_1, path, { method: "POST", body: body("B") });
    expect(a).toMatchObject({ modified_at: expect.stringMatching(/Z$/), is_deleted: false });
    const both = `id__in=${a.id},${b.id}`;

    later(b.modified_at > a.modified_at ? b.modified_at : a.modified_at);
    const updated = await as(APP_1, `${path}${a.id}/`, { method: "PATCH", body: change });
    expect(updated.modified_at > b.modified_at).toBe(true);
    const since = await as(APP_1, `${path}?${both}&modified_at__gte=${updated.modified_at}&order_by=modified_at`);
    expect(ids(since)).toEqual([a.id]);
    expect(ids(await as(APP_1, `${path}?${both}&order_by=-modified_at`))).toEqual([a.id, b.id]);

    later(updated.modified_at);
    await as(APP_1, `${path}${b.id}/`, { method: "DELETE" });
    expect(ids(await as(APP_1, `${path}?${both}`))).toEqual([a.id]);
    const changed = await as(APP_1, `${path}?${both}&include_deleted=true&modified_at__gt=${updated.modified_at}`);
    expect(changed.results).toEqual([expect.objectContaining({ id: b.id, is_deleted: true })]);
  });

  it("include_deleted shows the store's own deleted categories only", async () => {
    const mine = await as(APP_1, path, { method: "POST", body: body("Mine") });
    const theirs = await as(APP_2, path, { method: "POST", body: body("Theirs") });
    for (const [appId, id] of [
      [APP_1, mine.id],
      [APP_2, theirs.id],
    ])
      await as(appId, `${path}${id}/`, { method: "DELETE" });
    const page = await as(APP_1, `${path}?include_deleted=true&id__in=${mine.id},${theirs.id}`);
    expect(page.results.filter((r: { is_deleted: boolean }) => r.is_deleted).map((r: { id: number }) => r.id)).toEqual([
      mine.id,
    ]);
    expect(page.results.every((r: { name_en: string }) => r.name_en !== "Theirs")).toBe(true);
  });
});

describe("modifier categories: a value's change moves its category", () => {
  it("renaming one value alone stamps the category", async () => {
    const c = await as(APP_1, MODS, { method: "POST", body: modifier("Size") });
    later(c.modified_at);
    const values = c.values.map((v: { id: number; name_en: string; name_ar: string }, i: number) => ({
      id: v.id,
      name_en: i === 0 ? "Tiny" : v.name_en,
      name_ar: v.name_ar,
    }));
    const changed = await as(APP_1, `${MODS}${c.id}/`, { method: "PATCH", body: { values } });
    expect(changed.values[0].name_en).toBe("Tiny");
    // The fixed clock's time: the category's own fields were not in the body.
    expect(changed.modified_at).toBe(new Date().toISOString());
    expect(ids(await as(APP_1, `${MODS}?modified_at__gt=${c.modified_at}&id=${c.id}`))).toEqual([c.id]);
  });
});
