import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { observeRoundTrips, observeStatements } from "../../src/db/client";
import { ItemSchema, VariantSchema } from "../../src/modules/items";
import { APP_1, APP_2, countRows, createFullItem, shardFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { json, problem } from "../helpers/request";
import { ITEMS, itemsMerchant, sizeCategory, sku } from "./helpers";

const as1 = itemsMerchant();

/** A full item of store 2 whose id store 1 does not hold (ids are unique per shard only). */
const theirItem = () =>
  rowCallerLacks("items", APP_1, async () => {
    const full = await createFullItem(APP_2);
    return { ...full, id: full.item.id };
  });

describe("Create, read, update and delete items", () => {
  it("creates an item with modifiers and variants in one request and serves the Item object of 2.2", async () => {
    const size = await sizeCategory(as1);
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
    const size = await sizeCategory(as1);
    const other = await sizeCategory(as1);
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
    const theirs = {
      size: await rowCallerLacks("modifier_categories", APP_1, async () => (await createFullItem(APP_2)).size),
    };
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
    const size = await sizeCategory(as1);
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
      (await shardFor(APP_1)
        .prepare("SELECT is_deleted FROM items WHERE id = ?")
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
      (await shardFor(APP_1)
        .prepare("SELECT count(*) AS n FROM items WHERE parent_id = ? AND is_deleted = 0")
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
    const theirs = await theirItem();
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
      await shardFor(APP_2)
        .prepare("SELECT stock_qty, is_deleted FROM items WHERE id = ? AND app_id = ?")
        .bind(theirs.item.id, APP_2)
        .first(),
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
    const theirs = await theirItem();
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
