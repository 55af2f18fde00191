import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { ItemSchema, VariantSchema } from "../../src/modules/items";
import { APP_1, APP_2, countRows, createFullItem, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

const ITEMS = "/order/v1/merchant/items/";
let token: string;
const as1 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: APP_1 });
let seq = 0;
/**
 * A reservation made by a request that started at `before` holds for `ms`: its expiry is the request's
 * time plus `ms`, and the runtime's clock (which moves only on I/O) puts that time between `before` and
 * now. Exact whatever the machine's pace.
 */
function expectHeldFor(expiresAt: string, before: number, ms: number) {
  expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + ms);
  expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + ms);
}
const sku = (p = "IT") => `${p}-${Date.now().toString(36)}-${seq++}`;

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
});

async function sizeCategory() {
  return json(
    await as1(`${ITEMS}modifiers/`, {
      method: "POST",
      body: {
        name_en: "Size",
        name_ar: "الحجم",
        values: [
          { name_en: "S", name_ar: "ص" },
          { name_en: "L", name_ar: "ك" },
          { name_en: "XL", name_ar: "ك ك" },
        ],
      },
    }),
  );
}

describe("Create, read, update and delete items", () => {
  it("creates an item with modifiers and variants in one request and serves the Item object of 2.2", async () => {
    const size = await sizeCategory();
    const [s, l] = size.values;
    const base = sku();
    const res = await as1(ITEMS, {
      method: "POST",
      body: {
        type: "product",
        service_type: "delivery",
        sku: base,
        price: 25.5,
        name_en: "Latte",
        name_ar: "لاتيه",
        description_en: "Hot",
        description_ar: "ساخن",
        served_from_time: "07:00",
        served_to_time: "22:00",
        off_days: ["friday"],
        stock_qty: 10,
        modifiers: [size.id],
        varies_on: size.id,
        variants: [
          {
            sku: `${base}-S`,
            price: 20,
            variant_title_en: "Small",
            variant_title_ar: "صغير",
            modifier_values: [s.id],
            stock_qty: 3,
          },
          {
            sku: `${base}-L`,
            price: 30.25,
            variant_title_en: "Large",
            variant_title_ar: "كبير",
            modifier_values: [l.id],
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    const item = await json(res);
    expect(item).toMatchObject({
      type: "product",
      service_type: "delivery",
      sku: base,
      price: 25.5,
      name_en: "Latte",
      name_ar: "لاتيه",
      served_from_time: "07:00:00",
      served_to_time: "22:00:00",
      served_from_date: "0001-01-01",
      served_to_date: "9999-12-31",
      off_days: ["friday"],
      stock: { in_stock: true, qty: 10 },
      varies_on: String(size.id),
      custom_fields: null,
      app_id: APP_1,
    });
    expect(item.modifiers.map((m: { id: number }) => m.id)).toEqual([size.id]);
    expect(
      item.variants.map((v: Record<string, unknown>) => [
        v.sku,
        v.price,
        v.variant_title_en,
        v.modifier_values,
        v.stock,
      ]),
    ).toEqual([
      [`${base}-S`, 20, "Small", [s.id], { in_stock: true, qty: 3 }],
      [`${base}-L`, 30.25, "Large", [l.id], { in_stock: false, qty: 0 }],
    ]);
    expect(item.variants[0].name_en).toBe("Latte — Small");
    // Field for field the Item object of 2.2 (no field missing, none extra), variants included.
    const strict = ItemSchema.extend({ variants: z.array(VariantSchema.strict()) })
      .strict()
      .safeParse(item);
    expect(strict.success, JSON.stringify(strict.error?.issues)).toBe(true);
    expect(await json(await as1(`${ITEMS}${item.id}/`))).toEqual(item);
    expect((await json(await as1(`${ITEMS}?sku=${base}`))).results).toEqual([item]);
    expect(
      await countRows("outbox_events", `type = 'item.created' AND json_extract(payload, '$.data.id') = ${item.id}`),
    ).toBe(1);
    // Variants are not listed on their own.
    expect((await json(await as1(`${ITEMS}?sku=${base}-S`))).count).toBe(0);
  });

  it.each([
    [
      "served_from_date after served_to_date",
      { served_from_date: "2026-12-02", served_to_date: "2026-12-01" },
      "served_from_date",
    ],
    ["a negative price", { price: -1 }, "price"],
    ["a price with 3 decimals", { price: 1.005 }, "price"],
    ["an empty Arabic name", { name_ar: "" }, "name_ar"],
    // Issue 27: names that show nothing, or hold control characters.
    ["a name of direction marks alone", { name_en: "\u200e\u200f\u202e\u2066" }, "name_en"],
    ["a name of zero-width characters and spaces", { name_en: "\u200b \u200d\ufeff" }, "name_en"],
    ["a name holding a NUL", { name_en: "Latte\u0000" }, "name_en"],
    ["a name with a line break", { name_ar: "قهوة\nعربية" }, "name_ar"],
    ["a description holding a C1 control", { description_en: "Hot\u0085" }, "description_en"],
    ["an unknown type", { type: "spaceship" }, "type"],
    ["an off day that is not a weekday", { off_days: ["someday"] }, "off_days.0"],
    ["an unknown modifier category", { modifiers: [999999] }, "modifiers"],
    [
      "variants without varies_on",
      { variants: [{ sku: "V-1", price: 1, variant_title_en: "a", variant_title_ar: "ب", modifier_values: [1] }] },
      "varies_on",
    ],
  ])("400 for %s", async (_n, extra, field) => {
    const res = await as1(ITEMS, {
      method: "POST",
      body: { type: "product", service_type: "pickup", sku: sku(), price: 1, name_en: "X", name_ar: "س", ...extra },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("keeps direction marks between words of a name, and line breaks in a description", async () => {
    const body = { name_ar: "قهوة\u200f 24\u200e", description_en: "Hot.\n\tServed daily." };
    const res = await as1(ITEMS, {
      method: "POST",
      body: { type: "product", service_type: "pickup", sku: sku(), price: 1, name_en: "X", ...body },
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject(body);
  });

  it("409 for a SKU the store already used", async () => {
    const s = sku();
    const body = { type: "product", service_type: "pickup", sku: s, price: 1, name_en: "X", name_ar: "س" };
    expect((await as1(ITEMS, { method: "POST", body })).status).toBe(201);
    const again = await as1(ITEMS, { method: "POST", body });
    expect(again.status).toBe(409);
    expect(await problem(again)).toMatchObject({ code: "sku_taken", skus: [s] });
  });

  it("refuses a variant value of another category, and another store's category", async () => {
    const size = await sizeCategory();
    const other = await sizeCategory();
    const res = await as1(ITEMS, {
      method: "POST",
      body: {
        type: "product",
        service_type: "pickup",
        sku: sku(),
        price: 1,
        name_en: "X",
        name_ar: "س",
        modifiers: [size.id],
        varies_on: size.id,
        variants: [
          {
            sku: sku("V"),
            price: 1,
            variant_title_en: "a",
            variant_title_ar: "ب",
            modifier_values: [other.values[0].id],
          },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty(["variants.0.modifier_values"]);
    const theirs = await createFullItem(APP_2);
    const foreign = await as1(ITEMS, {
      method: "POST",
      body: {
        type: "product",
        service_type: "pickup",
        sku: sku(),
        price: 1,
        name_en: "X",
        name_ar: "س",
        modifiers: [theirs.size.id],
      },
    });
    expect(foreign.status).toBe(400);
  });

  it("updates fields and replaces the variants: changes one, adds one, deletes the one left out", async () => {
    const size = await sizeCategory();
    const [s, l, xl] = size.values;
    const base = sku();
    const item = await json(
      await as1(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: base,
          price: 10,
          name_en: "Tea",
          name_ar: "شاي",
          modifiers: [size.id],
          varies_on: size.id,
          variants: [
            {
              sku: `${base}-S`,
              price: 8,
              variant_title_en: "Small",
              variant_title_ar: "صغير",
              modifier_values: [s.id],
            },
            {
              sku: `${base}-L`,
              price: 12,
              variant_title_en: "Large",
              variant_title_ar: "كبير",
              modifier_values: [l.id],
            },
          ],
        },
      }),
    );
    const [small, large] = item.variants;
    const res = await as1(`${ITEMS}${item.id}/`, {
      method: "PATCH",
      body: {
        price: 11,
        variants: [
          {
            id: small.id,
            sku: `${base}-S`,
            price: 9,
            variant_title_en: "Small",
            variant_title_ar: "صغير",
            modifier_values: [s.id],
          },
          {
            sku: `${base}-XL`,
            price: 15,
            variant_title_en: "Extra large",
            variant_title_ar: "كبير جدا",
            modifier_values: [xl.id],
          },
        ],
      },
    });
    const updated = await json(res);
    expect(res.status, JSON.stringify(updated)).toBe(200);
    expect(updated.price).toBe(11);
    expect(updated.variants.map((v: { sku: string; price: number }) => [v.sku, v.price])).toEqual([
      [`${base}-S`, 9],
      [`${base}-XL`, 15],
    ]);
    expect(
      (await env.DB.prepare("SELECT is_deleted FROM items WHERE id = ?")
        .bind(large.id)
        .first<{ is_deleted: number }>())!.is_deleted,
    ).toBe(1);
    const foreign = await as1(`${ITEMS}${item.id}/`, {
      method: "PATCH",
      body: {
        variants: [
          { id: 999999, sku: sku(), price: 1, variant_title_en: "a", variant_title_ar: "ب", modifier_values: [s.id] },
        ],
      },
    });
    expect(foreign.status).toBe(400);
  });

  it("deletes an item and its variants (204), then 404 and gone from the list", async () => {
    const full = await createFullItem(APP_1);
    expect((await as1(`${ITEMS}${full.item.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${ITEMS}${full.item.id}/`)).status).toBe(404);
    expect((await json(await as1(`${ITEMS}?id=${full.item.id}`))).count).toBe(0);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM items WHERE parent_id = ? AND is_deleted = 0")
        .bind(full.item.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    expect(
      await countRows(
        "outbox_events",
        `type = 'item.deleted' AND json_extract(payload, '$.data.id') = ${full.item.id}`,
      ),
    ).toBe(1);
  });

  it("another store's item is 404 to every operation", async () => {
    const theirs = await createFullItem(APP_2);
    for (const [method, path, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { price: 1 }],
      ["DELETE", "", undefined],
      ["POST", "reserve/", { qty: 1 }],
      ["POST", "purchase/", { qty: 1 }],
    ] as const) {
      expect((await as1(`${ITEMS}${theirs.item.id}/${path}`, { method, body })).status, `${method} ${path}`).toBe(404);
    }
    expect(
      await env.DB.prepare("SELECT stock_qty, is_deleted FROM items WHERE id = ?").bind(theirs.item.id).first(),
    ).toEqual({ stock_qty: 7, is_deleted: 0 });
  });

  it("List Items refuses an unknown type or service type, naming the allowed ones", async () => {
    for (const [q, field, allowed] of [
      ["type=gadget", "type", "product"],
      ["service_type=teleport", "service_type", "delivery"],
    ] as const) {
      const res = await as1(`${ITEMS}?${q}`);
      expect(res.status, q).toBe(400);
      expect((await problem(res)).errors?.[field]?.join(" "), q).toContain(allowed);
    }
    expect((await as1(`${ITEMS}?type=product&service_type=pickup`)).status).toBe(200);
  });

  it("List Items runs a constant number of D1 statements whatever the page size", async () => {
    for (let i = 0; i < 6; i++) await createFullItem(APP_1);
    const counts: number[] = [];
    for (const size of [1, 5, 100]) {
      let n = 0;
      let trips = 0;
      let lookups = 0;
      let params = 0;
      const stop = observeStatements((q) => {
        n++;
        if (q.includes("merchant_api_tokens")) lookups++;
        else params = q.split("?").length - 1;
      });
      const stopTrips = observeRoundTrips(() => trips++);
      const res = await as1(`${ITEMS}?page_size=${size}`);
      stop();
      stopTrips();
      expect(res.status).toBe(200);
      counts.push(n);
      // Besides the token's lookup: the count, the page and every nested level (variants,
      // modifiers, images, discount, stock) in one round trip.
      expect(trips - lookups, `page_size=${size}`).toBe(1);
      expect(n - lookups, `page_size=${size}: one statement`).toBe(1);
      // D1 takes at most 100 bound parameters a statement.
      expect(params).toBeLessThanOrEqual(100);
    }
    // The token's lookup is made unless the isolate holds the token (at most a second).
    expect(counts.every((c) => c === 1 || c === 2)).toBe(true);
  });

  it("Item Details: the item and every nested level in one round trip; 404 for a variant or another store's", async () => {
    const made = await createFullItem(APP_1);
    let trips = 0;
    const sqls: string[] = [];
    const stop = observeStatements((q) => sqls.push(q));
    const stopTrips = observeRoundTrips(() => trips++);
    const res = await as1(`${ITEMS}${made.item.id}/`);
    stop();
    stopTrips();
    expect(res.status).toBe(200);
    const lookups = sqls.filter((q) => q.includes("merchant_api_tokens")).length;
    expect(trips - lookups).toBe(1);
    expect(sqls.length - lookups).toBe(1);
    const variant = (await json(res)).variants[0].id;
    expect((await problem(await as1(`${ITEMS}${variant}/`))).code).toBe("item_not_found");
    const theirs = await createFullItem(APP_2);
    expect((await problem(await as1(`${ITEMS}${theirs.item.id}/`))).code).toBe("item_not_found");
  });

  it("List Items: a full page's items are those Item Details shows, nested levels included", async () => {
    const made = await createFullItem(APP_1);
    const listed = (await json(await as1(`${ITEMS}?id=${made.item.id}`))).results;
    expect(listed).toHaveLength(1);
    const details = await json(await as1(`${ITEMS}${made.item.id}/`));
    expect(listed[0]).toEqual(details);
    expect(listed[0].variants.length).toBeGreaterThan(0);
    expect(listed[0].modifiers.length).toBeGreaterThan(0);
  });
});

describe("Stock: reservations and purchases", () => {
  const withStock = async (qty: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("ST"),
          price: 5,
          name_en: "Cake",
          name_ar: "كعكة",
          stock_qty: qty,
        },
      }),
    );
  const stockOf = async (id: number) => (await json(await as1(`${ITEMS}${id}/`))).stock;

  it("a reservation holds units until it is used; one that asks too much gets 409 with what is available", async () => {
    const item = await withStock(3);
    const before = Date.now();
    const res = await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2, minutes: 5 } });
    expect(res.status).toBe(201);
    const r = await json(res);
    expect(r).toMatchObject({ id: expect.any(Number), item: item.id, qty: 2 });
    expectHeldFor(r.expires_at, before, 5 * 60_000);
    expect(await stockOf(item.id)).toEqual({ in_stock: true, qty: 1 });
    const tooMuch = await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2 } });
    expect(tooMuch.status).toBe(409);
    expect(await problem(tooMuch)).toMatchObject({ code: "insufficient_stock", available: 1 });
    const bought = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(bought.status).toBe(200);
    expect((await json(bought)).stock).toEqual({ in_stock: true, qty: 1 });
    expect(
      (await env.DB.prepare("SELECT stock_qty FROM items WHERE id = ?").bind(item.id).first<{ stock_qty: number }>())!
        .stock_qty,
    ).toBe(1);
    const again = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("reservation_used");
  });

  it("an expired reservation holds nothing and cannot be used", async () => {
    const item = await withStock(2);
    const r = await json(await as1(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 2 } }));
    await env.DB.prepare("UPDATE item_reservations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(r.id)
      .run();
    expect(await stockOf(item.id)).toEqual({ in_stock: true, qty: 2 });
    const res = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { reservation_id: r.id } });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("reservation_expired");
    expect(
      (await env.DB.prepare("SELECT stock_qty FROM items WHERE id = ?").bind(item.id).first<{ stock_qty: number }>())!
        .stock_qty,
    ).toBe(2);
  });

  it("a purchase never takes stock below zero", async () => {
    const item = await withStock(1);
    const res = await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 2 } });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "insufficient_stock", available: 1 });
    expect((await json(await as1(`${ITEMS}${item.id}/purchase/`, { method: "POST", body: { qty: 1 } }))).stock).toEqual(
      { in_stock: false, qty: 0 },
    );
  });

  it("requests racing for the last unit: exactly one reservation and one purchase succeed", async () => {
    const a = await withStock(1);
    const reserves = await Promise.all(
      Array.from({ length: 6 }, () => as1(`${ITEMS}${a.id}/reserve/`, { method: "POST", body: { qty: 1 } })),
    );
    expect(reserves.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(
      await countRows("outbox_events", `type = 'item.updated' AND json_extract(payload, '$.data.id') = ${a.id}`),
    ).toBe(1);
    const b = await withStock(1);
    const purchases = await Promise.all(
      Array.from({ length: 6 }, () => as1(`${ITEMS}${b.id}/purchase/`, { method: "POST", body: { qty: 1 } })),
    );
    expect(purchases.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(
      (await env.DB.prepare("SELECT stock_qty FROM items WHERE id = ?").bind(b.id).first<{ stock_qty: number }>())!
        .stock_qty,
    ).toBe(0);
    expect(
      await countRows("outbox_events", `type = 'item.updated' AND json_extract(payload, '$.data.id') = ${b.id}`),
    ).toBe(1);
  });
});

describe("Bulk updates", () => {
  const make = async (price: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("BK"),
          price,
          name_en: "Bun",
          name_ar: "كعك",
          served_from_date: "2026-01-01",
          served_to_date: "2026-12-31",
        },
      }),
    );

  it("sets prices of several items at once and emits item.updated for each", async () => {
    const [a, b] = [await make(1), await make(2)];
    const res = await as1(`${ITEMS}bulk-update-prices/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, price: 3.5 },
          { id: b.id, price: 0 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.count).toBe(2);
    expect(body.results.map((i: { id: number; price: number }) => [i.id, i.price])).toEqual([
      [a.id, 3.5],
      [b.id, 0],
    ]);
    expect(
      (await env.DB.prepare("SELECT price_minor FROM items WHERE id = ?").bind(a.id).first<{ price_minor: number }>())!
        .price_minor,
    ).toBe(350);
    expect(
      await countRows(
        "outbox_events",
        `type = 'item.updated' AND json_extract(payload, '$.data.id') IN (${a.id}, ${b.id})`,
      ),
    ).toBe(2);
  });

  it("writes nothing when one id is unknown or another store's, naming it", async () => {
    const a = await make(1);
    const theirs = await createFullItem(APP_2);
    const res = await as1(`${ITEMS}bulk-update-prices/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, price: 9 },
          { id: theirs.item.id, price: 9 },
        ],
      },
    });
    expect(res.status).toBe(404);
    expect(Object.keys((await problem(res)).errors!)).toEqual([String(theirs.item.id)]);
    expect((await json(await as1(`${ITEMS}${a.id}/`))).price).toBe(1);
  });

  it("updates fields of several items, checked against what is stored", async () => {
    const [a, b] = [await make(1), await make(2)];
    const ok = await as1(`${ITEMS}bulk-update/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, name_en: "Bagel", stock_qty: 4 },
          { id: b.id, off_days: ["friday", "saturday"] },
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect((await json(ok)).results.map((i: Record<string, unknown>) => [i.name_en, i.off_days])).toEqual([
      ["Bagel", []],
      ["Bun", ["friday", "saturday"]],
    ]);
    const bad = await as1(`${ITEMS}bulk-update/`, {
      method: "POST",
      body: {
        items: [
          { id: a.id, name_en: "Roll" },
          { id: b.id, served_from_date: "2027-06-01" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["items.1.served_from_date"]);
    expect((await json(await as1(`${ITEMS}${a.id}/`))).name_en).toBe("Bagel");
  });

  it.each([
    ["101 entries", { items: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, price: 1 })) }, "items"],
    [
      "a repeated id",
      {
        items: [
          { id: 1, price: 1 },
          { id: 1, price: 2 },
        ],
      },
      "items",
    ],
    ["a negative price", { items: [{ id: 1, price: -2 }] }, "items.0.price"],
  ])("400 for %s", async (_n, body, field) => {
    const res = await as1(`${ITEMS}bulk-update-prices/`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });
});

describe("Discounts and images", () => {
  const make = async (price: number) =>
    json(
      await as1(ITEMS, {
        method: "POST",
        body: { type: "product", service_type: "pickup", sku: sku("DI"), price, name_en: "Pie", name_ar: "فطيرة" },
      }),
    );

  it("a discount is stored once per item and the Item's discount object is computed from it", async () => {
    const item = await make(80);
    const res = await as1(`${ITEMS}${item.id}/discount/`, {
      method: "POST",
      body: { kind: "percentage", value: 25, trial_kind: "fixed", trial_value: 70, is_usage_price: true },
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({
      id: expect.any(Number),
      item: item.id,
      kind: "percentage",
      value: 25,
      trial_kind: "fixed",
      trial_value: 70,
      is_usage_price: true,
      starts_at: null,
      ends_at: null,
    });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).discount).toEqual({
      is_applied: true,
      is_trial_applied: true,
      is_usage_price: true,
      price_after_discount_no_trial: 60,
      price_after_discount: 10,
    });
    expect(
      (await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body: { kind: "fixed", value: 1 } })).status,
    ).toBe(409);
    const updated = await json(
      await as1(`${ITEMS}${item.id}/discount/`, {
        method: "PATCH",
        body: { trial_kind: null, trial_value: null, ends_at: "2020-01-01T00:00:00Z" },
      }),
    );
    expect(updated).toMatchObject({ trial_kind: null, ends_at: "2020-01-01T00:00:00.000Z" });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).discount).toEqual({
      is_applied: false,
      is_trial_applied: false,
      is_usage_price: false,
      price_after_discount_no_trial: 80,
      price_after_discount: 80,
    });
    expect((await as1(`${ITEMS}${item.id}/discount/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${ITEMS}${item.id}/discount/`)).status).toBe(404);
    expect(
      (await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body: { kind: "fixed", value: 5 } })).status,
    ).toBe(201);
  });

  it.each([
    ["a percentage over 100", { kind: "percentage", value: 101 }, "value"],
    ["3 decimals", { kind: "fixed", value: 1.005 }, "value"],
    ["a trial value without its kind", { kind: "fixed", value: 1, trial_value: 2 }, "trial_value"],
    [
      "an end before the start",
      { kind: "fixed", value: 1, starts_at: "2026-02-01T00:00:00Z", ends_at: "2026-01-01T00:00:00Z" },
      "ends_at",
    ],
  ])("400 for a discount with %s", async (_n, body, field) => {
    const item = await make(10);
    const res = await as1(`${ITEMS}${item.id}/discount/`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("adds, changes and deletes an item's images, which the Item object shows in order", async () => {
    const item = await make(5);
    const a = await json(
      await as1(`${ITEMS}${item.id}/images/`, {
        method: "POST",
        body: { url: "https://cdn.example.com/a.jpg", alt_en: "A", alt_ar: "أ" },
      }),
    );
    const b = await json(
      await as1(`${ITEMS}${item.id}/images/`, { method: "POST", body: { url: "https://cdn.example.com/b.jpg" } }),
    );
    expect(a).toEqual({
      id: expect.any(Number),
      url: "https://cdn.example.com/a.jpg",
      alt_en: "A",
      alt_ar: "أ",
      ordering: 1,
    });
    expect(b.ordering).toBe(2);
    expect(
      await json(await as1(`${ITEMS}${item.id}/images/${a.id}/`, { method: "PATCH", body: { ordering: 3 } })),
    ).toMatchObject({ id: a.id, ordering: 3 });
    expect((await json(await as1(`${ITEMS}${item.id}/`))).images.map((i: { id: number }) => i.id)).toEqual([
      b.id,
      a.id,
    ]);
    expect((await as1(`${ITEMS}${item.id}/images/${b.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await json(await as1(`${ITEMS}${item.id}/`))).images.map((i: { id: number }) => i.id)).toEqual([a.id]);
    expect(
      (await as1(`${ITEMS}${item.id}/images/`, { method: "POST", body: { url: "http://cdn.example.com/c.jpg" } }))
        .status,
    ).toBe(400);
    const other = await make(5);
    expect((await as1(`${ITEMS}${other.id}/images/${a.id}/`, { method: "PATCH", body: { ordering: 1 } })).status).toBe(
      404,
    );
  });
});

describe("Item tags and Item Config", () => {
  it("creates, lists, renames and deletes tags", async () => {
    const res = await as1(`${ITEMS}tags/`, { method: "POST", body: { name_en: "Vegan", name_ar: "نباتي" } });
    expect(res.status).toBe(201);
    const tag = await json(res);
    expect(tag).toEqual({ id: expect.any(Number), name_en: "Vegan", name_ar: "نباتي", ordering: 0 });
    expect((await json(await as1(`${ITEMS}tags/?search=Vegan&id=${tag.id}`))).results).toEqual([tag]);
    expect(
      await json(await as1(`${ITEMS}tags/${tag.id}/`, { method: "PATCH", body: { name_en: "Plant-based" } })),
    ).toMatchObject({ name_en: "Plant-based" });
    expect((await as1(`${ITEMS}tags/${tag.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await as1(`${ITEMS}tags/${tag.id}/`, { method: "DELETE" })).status).toBe(404);
    expect((await json(await as1(`${ITEMS}tags/?id=${tag.id}`))).count).toBe(0);
  });

  it("serves the defaults, changes settings, and reservations follow them", async () => {
    const token2 = await tokenFor(APP_2, ["can_read_item", "can_write_item"]);
    const as2 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
      call(path, { ...opts, token: token2, appId: APP_2 });
    expect(await json(await as2(`${ITEMS}config/`))).toEqual({ reservation_minutes: 15, max_reservation_qty: 1000 });
    const res = await as2(`${ITEMS}config/`, {
      method: "POST",
      body: { reservation_minutes: 30, max_reservation_qty: 2 },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ reservation_minutes: 30, max_reservation_qty: 2 });
    expect(await json(await as2(`${ITEMS}config/`, { method: "POST", body: { max_reservation_qty: 3 } }))).toEqual({
      reservation_minutes: 30,
      max_reservation_qty: 3,
    });
    expect(await json(await as1(`${ITEMS}config/`))).toEqual({ reservation_minutes: 15, max_reservation_qty: 1000 });
    const item = await json(
      await as2(ITEMS, {
        method: "POST",
        body: {
          type: "product",
          service_type: "pickup",
          sku: sku("CF"),
          price: 1,
          name_en: "Map",
          name_ar: "خريطة",
          stock_qty: 10,
        },
      }),
    );
    const before = Date.now();
    const r = await json(await as2(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 3 } }));
    expectHeldFor(r.expires_at, before, 30 * 60_000);
    const tooMany = await as2(`${ITEMS}${item.id}/reserve/`, { method: "POST", body: { qty: 4 } });
    expect(tooMany.status).toBe(400);
    expect((await problem(tooMany)).errors).toHaveProperty(["qty"]);
    expect((await as2(`${ITEMS}config/`, { method: "POST", body: { reservation_minutes: 61 } })).status).toBe(400);
  });
});
