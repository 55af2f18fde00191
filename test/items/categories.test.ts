import { beforeAll, describe, expect, it } from "vitest";
import { APP_1, APP_2, countRows, createFullItem, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";

const MODS = "/order/v1/merchant/items/modifiers/";
const BUNDLES = "/order/v1/merchant/items/bundle-categories/";
let token: string;
const as1 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: APP_1 });
const eventsFor = (type: string, id: number) =>
  countRows("outbox_events", `type = '${type}' AND json_extract(payload, '$.data.id') = ${id}`);

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
});

describe("Modifier categories", () => {
  it("creates a category with its modifiers in one request and returns its id and details", async () => {
    const res = await as1(MODS, {
      method: "POST",
      body: {
        name_en: "Size",
        name_ar: "الحجم",
        ordering: 3,
        values: [
          { name_en: "Small", name_ar: "صغير" },
          { name_en: "Large", name_ar: "كبير" },
        ],
      },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.any(Number),
      ordering: 3,
      name_en: "Size",
      name_ar: "الحجم",
      values: [
        { id: expect.any(Number), ordering: 1, name_en: "Small", name_ar: "صغير" },
        { id: expect.any(Number), ordering: 2, name_en: "Large", name_ar: "كبير" },
      ],
      modified_at: expect.stringMatching(/Z$/),
      is_deleted: false,
    });
    expect(await json(await as1(`${MODS}${body.id}/`))).toEqual(body);
    expect((await json(await as1(`${MODS}?id=${body.id}`))).results).toEqual([body]);
    expect(await eventsFor("modifier_category.created", body.id)).toBe(1);
  });

  it.each([
    ["no values", { name_en: "A", name_ar: "أ", values: [] }, "values"],
    ["a blank Arabic name", { name_en: "A", name_ar: "  ", values: [{ name_en: "x", name_ar: "y" }] }, "name_ar"],
    ["a value without its Arabic name", { name_en: "A", name_ar: "أ", values: [{ name_en: "x" }] }, "values.0.name_ar"],
    [
      "a negative ordering",
      { name_en: "A", name_ar: "أ", ordering: -1, values: [{ name_en: "x", name_ar: "y" }] },
      "ordering",
    ],
  ])("400 for %s", async (_n, body, field) => {
    const res = await as1(MODS, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("updates: renames, reorders, adds and removes modifiers", async () => {
    const created = await json(
      await as1(MODS, {
        method: "POST",
        body: {
          name_en: "Milk",
          name_ar: "حليب",
          values: [
            { name_en: "Whole", name_ar: "كامل" },
            { name_en: "Skim", name_ar: "خالي" },
          ],
        },
      }),
    );
    const [whole, skim] = created.values;
    const res = await as1(`${MODS}${created.id}/`, {
      method: "PATCH",
      body: {
        name_en: "Milk type",
        values: [
          { id: skim.id, name_en: "Skimmed", name_ar: "خالي الدسم" },
          { name_en: "Oat", name_ar: "شوفان" },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.name_en).toBe("Milk type");
    expect(body.values.map((v: { id: number; name_en: string; ordering: number }) => [v.name_en, v.ordering])).toEqual([
      ["Skimmed", 1],
      ["Oat", 2],
    ]);
    expect(body.values[0].id).toBe(skim.id);
    expect(
      (await shardFor(APP_1)
        .prepare("SELECT is_deleted FROM modifier_values WHERE id = ?")
        .bind(whole.id)
        .first<{ is_deleted: number }>())!.is_deleted,
    ).toBe(1);
    expect(await eventsFor("modifier_category.updated", created.id)).toBe(1);
    const foreign = await as1(`${MODS}${created.id}/`, {
      method: "PATCH",
      body: { values: [{ id: 999999, name_en: "x", name_ar: "y" }] },
    });
    expect(foreign.status).toBe(400);
    expect((await problem(foreign)).errors).toHaveProperty(["values.0.id"]);
  });

  it("refuses to remove a modifier a variant uses (409 naming it) and to delete a category items use", async () => {
    const full = await createFullItem(APP_1);
    const keepOnlySmall = await as1(`${MODS}${full.size.id}/`, {
      method: "PATCH",
      body: { values: [{ id: full.values[0]!.id, name_en: "Small", name_ar: "صغير" }] },
    });
    expect(keepOnlySmall.status).toBe(409);
    const p = await problem(keepOnlySmall);
    expect(p.code).toBe("modifier_value_in_use");
    expect(p.items).toEqual([full.variants[1]!.id]);
    const del = await as1(`${MODS}${full.extras.id}/`, { method: "DELETE" });
    expect(del.status).toBe(409);
    expect(await problem(del)).toMatchObject({ code: "modifier_category_in_use", items: [full.item.id] });
    expect((await as1(`${MODS}${full.extras.id}/`)).status).toBe(200);
  });

  it("deletes an unused category (204), which then is 404 and gone from the list", async () => {
    const created = await json(
      await as1(MODS, {
        method: "POST",
        body: { name_en: "Temp", name_ar: "مؤقت", values: [{ name_en: "x", name_ar: "س" }] },
      }),
    );
    const res = await as1(`${MODS}${created.id}/`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect((await as1(`${MODS}${created.id}/`)).status).toBe(404);
    expect((await json(await as1(`${MODS}?id=${created.id}`))).count).toBe(0);
    expect(await eventsFor("modifier_category.deleted", created.id)).toBe(1);
  });

  it("another store's category is 404 to every operation", async () => {
    const size = await rowCallerLacks("modifier_categories", APP_1, async () => (await createFullItem(APP_2)).size);
    for (const [method, body] of [["GET"], ["PATCH", { name_en: "x" }], ["DELETE"]] as const) {
      expect((await as1(`${MODS}${size.id}/`, { method, body })).status, method).toBe(404);
    }
    expect(
      (await shardFor(APP_2)
        .prepare("SELECT name_en, is_deleted FROM modifier_categories WHERE id = ? AND app_id = ?")
        .bind(size.id, APP_2)
        .first<{ name_en: string; is_deleted: number }>())!,
    ).toEqual({ name_en: "Size", is_deleted: 0 });
  });
});

describe("Bundle categories", () => {
  it("creates with defaults, reads, lists, updates and deletes", async () => {
    const res = await as1(BUNDLES, {
      method: "POST",
      body: { name_en: "Sides", name_ar: "أطباق جانبية", max_selections: 3 },
    });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toEqual({
      id: expect.any(Number),
      name_en: "Sides",
      name_ar: "أطباق جانبية",
      is_selectable: true,
      is_optional: false,
      min_selections: 0,
      max_selections: 3,
      ordering: 0,
      modified_at: expect.stringMatching(/Z$/),
      is_deleted: false,
    });
    expect(await json(await as1(`${BUNDLES}${created.id}/`))).toEqual(created);
    const updated = await json(
      await as1(`${BUNDLES}${created.id}/`, { method: "PATCH", body: { min_selections: 2, is_optional: true } }),
    );
    expect(updated).toMatchObject({ min_selections: 2, max_selections: 3, is_optional: true });
    expect((await json(await as1(`${BUNDLES}?is_optional=true&id=${created.id}`))).count).toBe(1);
    expect((await as1(`${BUNDLES}${created.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${BUNDLES}${created.id}/`)).status).toBe(404);
    for (const t of ["created", "updated", "deleted"])
      expect(await eventsFor(`bundle_category.${t}`, created.id)).toBe(1);
  });

  it("refuses min_selections above max_selections, against the stored values too", async () => {
    const bad = await as1(BUNDLES, {
      method: "POST",
      body: { name_en: "A", name_ar: "أ", min_selections: 3, max_selections: 2 },
    });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["min_selections"]);
    const created = await json(
      await as1(BUNDLES, { method: "POST", body: { name_en: "B", name_ar: "ب", max_selections: 2 } }),
    );
    const res = await as1(`${BUNDLES}${created.id}/`, { method: "PATCH", body: { min_selections: 5 } });
    expect(res.status).toBe(400);
    expect((await json(await as1(`${BUNDLES}${created.id}/`))).min_selections).toBe(0);
  });

  it("refuses to delete a bundle category items use", async () => {
    const full = await createFullItem(APP_1);
    const res = await as1(`${BUNDLES}${full.bundle.id}/`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "bundle_category_in_use", items: [full.item.id] });
  });
});

describe("Item categories", () => {
  const CATS = "/order/v1/merchant/items/categories/";
  it("creates, reads, lists, updates and deletes, and items show the ids", async () => {
    const res = await as1(CATS, { method: "POST", body: { name_en: "Drinks", name_ar: "مشروبات", ordering: 2 } });
    expect(res.status).toBe(201);
    const cat = await json(res);
    expect(cat).toEqual({
      id: expect.any(Number),
      name_en: "Drinks",
      name_ar: "مشروبات",
      ordering: 2,
      created_at: expect.stringMatching(/Z$/),
      modified_at: expect.stringMatching(/Z$/),
      is_deleted: false,
    });
    expect(await json(await as1(`${CATS}${cat.id}/`))).toEqual(cat);
    expect((await json(await as1(`${CATS}?search=${encodeURIComponent("مشروب")}&id=${cat.id}`))).count).toBe(1);
    expect(
      await json(await as1(`${CATS}${cat.id}/`, { method: "PATCH", body: { name_en: "Cold drinks" } })),
    ).toMatchObject({ name_en: "Cold drinks", name_ar: "مشروبات" });
    const item = await json(
      await as1("/order/v1/merchant/items/", {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: `CAT-${Date.now()}`,
          price: 3,
          name_en: "Juice",
          name_ar: "عصير",
          categories: [cat.id],
        },
      }),
    );
    expect(item.categories).toEqual([cat.id]);
    const inUse = await as1(`${CATS}${cat.id}/`, { method: "DELETE" });
    expect(inUse.status).toBe(409);
    expect(await problem(inUse)).toMatchObject({ code: "item_category_in_use", items: [item.id] });
    await as1(`/order/v1/merchant/items/${item.id}/`, { method: "PATCH", body: { categories: [] } });
    expect((await as1(`${CATS}${cat.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${CATS}${cat.id}/`)).status).toBe(404);
    for (const t of ["created", "updated", "deleted"]) expect(await eventsFor(`item_category.${t}`, cat.id)).toBe(1);
  });

  it("400 for blank names and unknown fields", async () => {
    const res = await as1(CATS, { method: "POST", body: { name_en: "", name_ar: "س", colour: "red" } });
    expect(res.status).toBe(400);
    expect(Object.keys((await problem(res)).errors!).sort()).toEqual(["colour", "name_en"]);
  });
});
