import { beforeAll, describe, expect, it } from "vitest";
import { createFullItem, createPlainItem, ensureTenant, tokenFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { ALWAYS, ITEMS, sku } from "./helpers";

// A store of this file's own: the counts are the requests' alone.
const A = 7141;
let token: string;
const as = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  callWaits(path, { ...opts, token, appId: A });
/** What Item Details answers now: the write's own answer must be it. */
const details = async (id: number) => json(await call(`${ITEMS}${id}/`, { token, appId: A }));

beforeAll(async () => {
  await ensureTenant(A);
  token = await tokenFor(A, ["can_read_item", "can_write_item"]);
});

describe("Item writes: at most two D1 round trips beyond the token, the answer read in the write's batch", () => {
  it("Create Item and Update Item, with modifiers, categories and variants", async () => {
    const full = await createFullItem(A, ALWAYS);
    const [small, large] = full.values;
    const created = await as(ITEMS, {
      method: "POST",
      body: {
        type: "product",
        service_type: "pickup",
        sku: sku("W"),
        price: 20,
        name_en: "Latte",
        name_ar: "لاتيه",
        modifiers: [full.size.id, full.extras.id],
        categories: [full.category.id],
        bundle_categories: [full.bundle.id],
        varies_on: full.size.id,
        variants: [
          { sku: sku("W"), price: 18, variant_title_en: "S", variant_title_ar: "ص", modifier_values: [small!.id] },
          { sku: sku("W"), price: 22, variant_title_en: "L", variant_title_ar: "ك", modifier_values: [large!.id] },
        ],
      },
    });
    expect(created.res.status).toBe(201);
    const item = await json(created.res);
    expect(item.variants).toHaveLength(2);
    expect(item.categories).toEqual([full.category.id]);
    expect(item).toEqual(await details(item.id));
    expect(created.waits.beyondAuth).toBeLessThanOrEqual(2);

    const [keep] = item.variants;
    const updated = await as(`${ITEMS}${item.id}/`, {
      method: "PATCH",
      body: {
        price: 21,
        modifiers: [full.size.id],
        categories: [],
        variants: [
          {
            id: keep.id,
            sku: keep.sku,
            price: 19,
            variant_title_en: "S",
            variant_title_ar: "ص",
            modifier_values: [small!.id],
          },
          { sku: sku("W"), price: 25, variant_title_en: "XL", variant_title_ar: "ك ك", modifier_values: [large!.id] },
        ],
      },
    });
    expect(updated.res.status).toBe(200);
    const after = await json(updated.res);
    expect(after.price).toBe(21);
    expect(after.categories).toEqual([]);
    expect(after.variants.map((v: { price: number }) => v.price)).toEqual([19, 25]);
    expect(after).toEqual(await details(item.id));
    expect(updated.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("Update Item refuses what it refused before within one round trip: a variant, a foreign record, a taken SKU", async () => {
    const full = await createFullItem(A, ALWAYS);
    const other = await createPlainItem(A);
    for (const [path, body, status] of [
      [`${ITEMS}${full.variants[0]!.id}/`, { price: 1 }, 404],
      [`${ITEMS}${full.item.id}/`, { categories: [999_999] }, 400],
      [`${ITEMS}${full.item.id}/`, { sku: other.sku }, 409],
    ] as const) {
      const { res, waits } = await as(path, { method: "PATCH", body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      await problem(res);
      expect(waits.beyondAuth).toBe(1);
    }
  });

  it("Reserve an Item and Record Item Purchase, and their 409s, which say what is left", async () => {
    const item = await createPlainItem(A, { stockQty: 5 });
    const reserved = await as(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2 } });
    expect(reserved.res.status).toBe(201);
    const reservation = await json(reserved.res);
    expect(reserved.waits.beyondAuth).toBeLessThanOrEqual(2);

    const tooMany = await as(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 4 } });
    expect(tooMany.res.status).toBe(409);
    expect(await problem(tooMany.res)).toMatchObject({ code: "insufficient_stock", available: 3 });
    expect(tooMany.waits.beyondAuth).toBeLessThanOrEqual(2);

    const bought = await as(`${ITEMS}${item.id}/purchase/`, {
      method: "POST",
      body: { reservation_id: reservation.id },
    });
    expect(bought.res.status).toBe(200);
    const shown = await json(bought.res);
    expect(shown.stock).toEqual({ in_stock: true, qty: 3 });
    expect(shown).toEqual(await details(item.id));
    expect(bought.waits.beyondAuth).toBeLessThanOrEqual(2);

    const plain = await as(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 1 } });
    expect(plain.res.status).toBe(200);
    expect((await json(plain.res)).stock).toEqual({ in_stock: true, qty: 2 });
    expect(plain.waits.beyondAuth).toBeLessThanOrEqual(2);

    const short = await as(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 3 } });
    expect(short.res.status).toBe(409);
    expect(await problem(short.res)).toMatchObject({ code: "insufficient_stock", available: 2 });
    expect(short.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("an item's discount and images: create, change and delete", async () => {
    const item = await createPlainItem(A, { priceMinor: 10_000 });
    const discount = `${ITEMS}${item.id}/discount/`;
    const steps = [
      [discount, "POST", { kind: "percentage", value: 10 }, 201],
      [discount, "PATCH", { value: 20 }, 200],
      [discount, "DELETE", undefined, 204],
      [discount, "POST", { kind: "fixed", value: 5 }, 201],
    ] as const;
    for (const [path, method, body, status] of steps) {
      const { res, waits } = await as(path, { method, body });
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(status);
      if (status !== 204) expect(await json(res)).toEqual(await json(await call(discount, { token, appId: A })));
      expect(waits.beyondAuth, method).toBeLessThanOrEqual(2);
    }
    const added = await as(`${ITEMS}${item.id}/images/`, {
      method: "POST",
      body: { url: "https://cdn.example.com/w.jpg" },
    });
    expect(added.res.status).toBe(201);
    const image = await json(added.res);
    expect(added.waits.beyondAuth).toBeLessThanOrEqual(2);
    const changed = await as(`${ITEMS}${item.id}/images/${image.id}/`, { method: "PATCH", body: { ordering: 4 } });
    expect(await json(changed.res)).toEqual({ ...image, ordering: 4 });
    expect((await details(item.id)).images).toEqual([{ ...image, ordering: 4 }]);
    expect(changed.waits.beyondAuth).toBeLessThanOrEqual(2);
    const deleted = await as(`${ITEMS}${item.id}/images/${image.id}/`, { method: "DELETE" });
    expect(deleted.res.status).toBe(204);
    expect((await details(item.id)).images).toEqual([]);
    expect(deleted.waits.beyondAuth).toBeLessThanOrEqual(2);
  });

  it("modifier, item and bundle categories: change and delete, and the 409 of one in use", async () => {
    const full = await createFullItem(A, ALWAYS);
    const modifiers = `${ITEMS}modifiers/${full.size.id}/`;
    const [small, large] = full.values;
    const renamed = await as(modifiers, {
      method: "PATCH",
      body: {
        name_en: "Cup size",
        values: [
          { id: small!.id, name_en: "Small", name_ar: "صغير" },
          { id: large!.id, name_en: "Large", name_ar: "كبير" },
          { name_en: "Huge", name_ar: "ضخم" },
        ],
      },
    });
    expect(renamed.res.status).toBe(200);
    const category = await json(renamed.res);
    expect(category.values.map((v: { name_en: string }) => v.name_en)).toEqual(["Small", "Large", "Huge"]);
    expect(category).toEqual(await json(await call(modifiers, { token, appId: A })));
    expect(renamed.waits.beyondAuth).toBeLessThanOrEqual(2);
    const inUse = await as(modifiers, {
      method: "PATCH",
      body: { values: [{ id: small!.id, name_en: "Small", name_ar: "صغير" }] },
    });
    expect(inUse.res.status).toBe(409);
    expect(await problem(inUse.res)).toMatchObject({ code: "modifier_value_in_use", items: [full.variants[1]!.id] });
    expect(inUse.waits.beyondAuth).toBe(1);

    const bundle = `${ITEMS}bundle-categories/${full.bundle.id}/`;
    const bundled = await as(bundle, { method: "PATCH", body: { max_selections: 3 } });
    expect(bundled.res.status).toBe(200);
    expect(await json(bundled.res)).toEqual(await json(await call(bundle, { token, appId: A })));
    expect(bundled.waits.beyondAuth).toBeLessThanOrEqual(2);

    for (const [path, code] of [
      [modifiers, "modifier_category_in_use"],
      [`${ITEMS}categories/${full.category.id}/`, "item_category_in_use"],
      [bundle, "bundle_category_in_use"],
    ] as const) {
      const refused = await as(path, { method: "DELETE" });
      expect(refused.res.status, path).toBe(409);
      expect(await problem(refused.res)).toMatchObject({ code, items: [full.item.id] });
      expect(refused.waits.beyondAuth, path).toBe(1);
    }
    expect((await call(`${ITEMS}${full.item.id}/`, { token, appId: A, method: "DELETE" })).status).toBe(204);
    for (const path of [
      modifiers,
      `${ITEMS}modifiers/${full.extras.id}/`,
      `${ITEMS}categories/${full.category.id}/`,
      bundle,
    ]) {
      const { res, waits } = await as(path, { method: "DELETE" });
      expect(res.status, path).toBe(204);
      expect(waits.beyondAuth, path).toBeLessThanOrEqual(2);
      expect((await call(path, { token, appId: A })).status, path).toBe(404);
    }
  });

  it("bulk updates answer the items as Item Details shows them", async () => {
    const [one, two] = [await createPlainItem(A), await createPlainItem(A)];
    for (const [path, items] of [
      [
        "bulk-update-prices/",
        [
          { id: one.id, price: 7 },
          { id: two.id, price: 8 },
        ],
      ],
      [
        "bulk-update/",
        [
          { id: one.id, name_en: "One" },
          { id: two.id, weight: 2 },
        ],
      ],
    ] as const) {
      const { res, waits } = await as(`${ITEMS}${path}`, { method: "POST", body: { items } });
      expect(res.status, path).toBe(200);
      const body = await json(res);
      expect(body.results).toEqual([await details(one.id), await details(two.id)]);
      expect(waits.beyondAuth, path).toBeLessThanOrEqual(2);
    }
  });
});
