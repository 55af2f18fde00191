import { beforeAll, describe, expect, it } from "vitest";
import { itemBundleCategories } from "../../src/modules/items/tables";
import { createFullItem, db, ensureTenant } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, problem, json as read } from "../helpers/request";
import {
  CARTS,
  cartOf,
  eventsWhere,
  locationOf,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
  storeFor,
} from "./helpers";

// Stores of this file's own: 8111 (the store), 8112 (another tenant).
const A = 8111;
const B = 8112;
let store: Store;
let sara: Shopper;

beforeAll(async () => {
  store = await storeFor(A);
  await ensureTenant(B);
  sara = await shopperOf(A);
});

const cartRow = (id: number) => rowOf("SELECT * FROM carts WHERE id = ?", id);
const cartLines = (id: number) =>
  rowsOf<{ item_id: number; qty: number; unit_price_minor: number; modifier_value_ids: string }>(
    "SELECT item_id, qty, unit_price_minor, modifier_value_ids FROM cart_items WHERE cart_id = ? ORDER BY id",
    id,
  );
const cartsOf = async (customerId: number) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM carts WHERE customer_id = ?", customerId)).n;

describe("Create Cart (CA14)", () => {
  it("prices the lines now: the item's discount applied, VAT split per line, the totals the lines' sums", async () => {
    const full = await createFullItem(A, { servedFromDate: "2020-01-01", servedToDate: "2099-12-31" });
    const small = full.values[0]!;
    const plain = await Promise.all([stocked(A, 1033, 5), stocked(A, 1033, 5), stocked(A, 1033, 5)]);
    const body = {
      items: [
        ...plain.map((p) => ({ item_id: p.id, qty: 1 })),
        { item_id: full.item.id, qty: 2, modifier_values: [small.id] },
      ],
      notes: "Ring twice",
      custom_fields: { source: "test" },
    };
    const res = await sara.as(CARTS, { method: "POST", body });
    const cart = await read(res);
    expect(res.status, JSON.stringify(cart)).toBe(201);
    expect(schemaErrors("createCart", cart, "201")).toEqual([]);
    // 3 × 10.33 + 2 × (100 less 10%) = 30.99 + 180; VAT per line: 3 × 1.35 + 23.48 (180 → 156.52).
    expect(cart).toMatchObject({
      app_id: A,
      customer_id: sara.id,
      customer: { id: sara.id },
      status: "open",
      cart_provider: "app",
      notes: "Ring twice",
      custom_fields: { source: "test" },
      voucher_code: null,
      voucher_error: null,
      order_id: null,
      cart_price_updated: false,
      sub_total_amount: 210.99,
      shipping_amount: 0,
      setup_amount: 0,
      net_amount: 210.99,
      sub_total_discounts_amount: 0,
      total_discounts_amount: 0,
      total_amount: 210.99,
      wallet_redeem_amount: 0,
      total_amount_with_redeem: 210.99,
      total_cart_price: 210.99,
      tax_amount: 27.53,
      total_amount_excluding_tax: 183.46,
      tax_percentage: 15,
      currency: "SAR",
    });
    // The tax of the sum would be 27.52: the lines are rounded one by one.
    expect(Math.round(cart.tax_amount * 100)).toBe(2753);
    expect(cart.cart_items).toHaveLength(4);
    expect(cart.cart_items[3]).toMatchObject({
      item_id: full.item.id,
      item: { id: full.item.id },
      qty: 2,
      modifier_values: [small.id],
      bundle_selections: [],
      price: 90,
      total: 180,
      is_available: true,
      unavailable_reason: null,
    });
    expect(cart.cart_items[0]).toMatchObject({ item_id: plain[0]!.id, price: 10.33, total: 10.33 });

    const row = await cartRow(cart.id);
    expect(row).toMatchObject({ app_id: A, customer_id: sara.id, status: "open", quoted_total_minor: 21_099 });
    expect(await cartLines(cart.id)).toEqual([
      ...plain.map((p) => ({ item_id: p.id, qty: 1, unit_price_minor: 1033, modifier_value_ids: "[]" })),
      { item_id: full.item.id, qty: 2, unit_price_minor: 9000, modifier_value_ids: `[${small.id}]` },
    ]);
    const events = await eventsWhere(A, ["cart.created"], "id", cart.id);
    expect(events.map((e) => e.data)).toEqual([{ id: cart.id, customer_id: sara.id }]);
  });

  it("a 400 names each line that cannot be ordered (`items.N`): modifiers, bundles, unknown items; nothing stored", async () => {
    const s = await shopperOf(A);
    const full = await createFullItem(A, { servedFromDate: "2020-01-01", servedToDate: "2099-12-31" });
    const mine = await stocked(A, 500, 3);
    const choice = await stocked(A, 700, 3);
    await db(A).insert(itemBundleCategories).values({ appId: A, itemId: choice.id, bundleCategoryId: full.bundle.id });
    const foreign = await stocked(B, 500, 3);
    const otherFull = await createFullItem(A);

    // A bundle choice that is one of the category's items is fine.
    const ok = await cartOf(s, {
      items: [
        {
          item_id: full.item.id,
          qty: 1,
          bundle_selections: [{ bundle_category_id: full.bundle.id, item_ids: [choice.id] }],
        },
      ],
    });
    expect(ok.cart_items[0].bundle_selections).toEqual([{ bundle_category_id: full.bundle.id, item_ids: [choice.id] }]);

    const res = await s.as(CARTS, {
      method: "POST",
      body: {
        items: [
          { item_id: mine.id, qty: 1 },
          { item_id: full.item.id, qty: 1, modifier_values: [otherFull.values[0]!.id] },
          {
            item_id: full.item.id,
            qty: 1,
            bundle_selections: [{ bundle_category_id: full.bundle.id, item_ids: [mine.id] }],
          },
          {
            item_id: full.item.id,
            qty: 1,
            bundle_selections: [{ bundle_category_id: otherFull.bundle.id, item_ids: [] }],
          },
          { item_id: 999_999_999, qty: 1 },
          { item_id: foreign.id, qty: 1 },
        ],
      },
    });
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.code).toBe("validation_error");
    expect(Object.keys(p.errors!).sort()).toEqual(["items.1", "items.2", "items.3", "items.4", "items.5"]);
    expect(p.errors!["items.1"]![0]).toBe(
      `Modifier value ${otherFull.values[0]!.id} is not one of item ${full.item.id}'s modifiers.`,
    );
    expect(p.errors!["items.2"]![0]).toBe(`Item ${mine.id} is not a choice of bundle category ${full.bundle.id}.`);
    expect(p.errors!["items.3"]![0]).toMatch(/is not one of item .*'s bundle categories/);
    expect(p.errors!["items.4"]![0]).toMatch(/not in the store's catalogue/);
    expect(p.errors!["items.5"]![0]).toMatch(/not in the store's catalogue/);
    expect(await cartsOf(s.id)).toBe(1);
  });

  it("validates the body: strict, bounded, amounts with at most 2 decimals, a recurring cart's duration", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 500, 3);
    const line = [{ item_id: item.id, qty: 1 }];
    for (const [body, field] of [
      [{}, "items"],
      [{ items: [] }, "items"],
      [{ items: [{ item_id: item.id, qty: 0 }] }, "items.0.qty"],
      [{ items: line, wallet_redeem_amount: 1.005 }, "wallet_redeem_amount"],
      [{ items: line, is_recurring: true }, "duration"],
      [{ items: line, modifier: 1 }, null],
      [{ items: [{ item_id: item.id, qty: 1, modifier_values: [3, 3] }] }, "items.0.modifier_values"],
    ] as const) {
      const res = await s.as(CARTS, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const p = await problem(res);
      if (field) expect(Object.keys(p.errors ?? {}), JSON.stringify(p)).toContain(field);
    }
    expect(await cartsOf(s.id)).toBe(0);
  });

  it("takes a location of the customer's own; another customer's is a 400", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 500, 3);
    const home = await locationOf(A, s.id);
    const theirs = await locationOf(A, sara.id);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], location_id: home.id });
    expect(cart.location_id).toBe(home.id);
    const res = await s.as(CARTS, {
      method: "POST",
      body: { items: [{ item_id: item.id, qty: 1 }], location_id: theirs.id },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toEqual({
      location_id: [`Location ${theirs.id} is not one of the customer's locations.`],
    });
    const upd = await s.as(`${CARTS}${cart.id}/`, { method: "PATCH", body: { location_id: theirs.id } });
    expect(upd.status).toBe(400);
    expect((await cartRow(cart.id)).location_id).toBe(home.id);
    expect(await cartsOf(s.id)).toBe(1);
  });

  it("is for customers: a merchant token is a 403 wrong_principal, no token a 401", async () => {
    const item = await stocked(A, 500, 3);
    const body = { items: [{ item_id: item.id, qty: 1 }] };
    const res = await store.as(CARTS, { method: "POST", body });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("wrong_principal");
    expect((await call(CARTS, { method: "POST", body, appId: A })).status).toBe(401);
  });
});
