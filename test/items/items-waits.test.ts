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
});
