import { beforeAll, describe, expect, it } from "vitest";
import { quoteVoucher } from "../../src/modules/vouchers";
import { allocate, percentOf } from "../../src/modules/vouchers/quote/price";
import { VoucherResultSchema } from "../../src/modules/vouchers/quote/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import {
  APP_1,
  createCustomerFor,
  createFullItem,
  createPlainItem,
  serviceCtx,
  shardFor,
  tokenFor,
} from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { createVoucher, insertOrder, newCode } from "./helpers";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const DISCOUNT = "/order/v1/merchant/vouchers/discount/";
let token: string;
let reader: string;

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
  reader = await tokenFor(APP_1, ["can_read_order"]);
});

const discount = async (body: Record<string, unknown>) => {
  const res = await call(DISCOUNT, { method: "POST", token: reader, appId: APP_1, body });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(200);
  return VoucherResultSchema.parse(out);
};

describe("the arithmetic", () => {
  it("percentOf rounds half up on the whole amount", () => {
    expect(percentOf(1005, 1000)).toBe(101); // 100.5 → 101
    expect(percentOf(1004, 1000)).toBe(100); // 100.4 → 100
    expect(percentOf(333, 3333)).toBe(111); // 110.9889 → 111
    expect(percentOf(10_000_000_000_000, 9999)).toBe(9_999_000_000_000);
  });

  it("allocate shares by largest remainder, summing exactly, earlier line first on ties", () => {
    const lines = [
      { key: 1, amountMinor: 100 },
      { key: 2, amountMinor: 100 },
      { key: 3, amountMinor: 100 },
    ];
    expect([...allocate(100, lines)]).toEqual([
      [1, 34],
      [2, 33],
      [3, 33],
    ]);
    expect([
      ...allocate(7, [
        { key: 1, amountMinor: 1 },
        { key: 2, amountMinor: 2 },
        { key: 3, amountMinor: 0 },
      ]),
    ]).toEqual([
      [1, 2],
      [2, 5],
      [3, 0],
    ]);
    for (let seed = 1; seed < 50; seed++) {
      const ls = Array.from({ length: 1 + (seed % 7) }, (_, i) => ({
        key: i,
        amountMinor: ((seed * 7919 * (i + 3)) % 9973) + 1,
      }));
      const base = ls.reduce((s, l) => s + l.amountMinor, 0);
      const total = (seed * 104729) % base;
      const shares = allocate(total, ls);
      expect([...shares.values()].reduce((s, d) => s + d, 0)).toBe(total);
      for (const l of ls) expect(Math.abs(shares.get(l.key)! - (total * l.amountMinor) / base)).toBeLessThan(1);
    }
  });
});

describe("Get Voucher Discount (MV1)", () => {
  it("a percentage off the cart amount: the FOUND result shape", async () => {
    const v = await createVoucher(token, { kind: "percentage", value: 15, title_en: "Fifteen", title_ar: "خمسة عشر" });
    const r = await discount({ code: v.code.toLowerCase(), cart_amount: 200, delivery_fee: 10 });
    expect(r).toEqual({
      id: v.id,
      code: v.code,
      title: "Fifteen",
      title_en: "Fifteen",
      title_ar: "خمسة عشر",
      discount_on: "total",
      is_success: true,
      item_direct_discount_overridden: false,
      error_reason: null,
      cashback_amount: 0,
      amount: 30,
      delivery_fee_amount: 0,
      total_amount: 180,
      items: [],
    });
  });

  it("a fixed amount never takes off more than the cart", async () => {
    const v = await createVoucher(token, { kind: "fixed", value: 50 });
    expect(await discount({ code: v.code, cart_amount: 80 })).toMatchObject({ amount: 50, total_amount: 30 });
    expect(await discount({ code: v.code, cart_amount: 20.5 })).toMatchObject({ amount: 20.5, total_amount: 0 });
  });

  it("rounds the whole percentage half up, caps it by max_discount, and the lines sum exactly to it", async () => {
    const a = await createPlainItem(APP_1);
    const b = await createPlainItem(APP_1);
    const c = await createPlainItem(APP_1);
    const v = await createVoucher(token, { kind: "percentage", value: 10 });
    // 3 × 3.35 = 10.05 → 10% = 1.005 → 1.01; split 1.01 over three equal lines: 0.34 + 0.34 + 0.33.
    const items = [a, b, c].map((i) => ({ item_id: i.id, qty: 1, price: 3.35 }));
    const r = await discount({ code: v.code, items });
    expect(r.amount).toBe(1.01);
    expect(r.items).toEqual([
      { item_id: a.id, discount_amount: 0.34 },
      { item_id: b.id, discount_amount: 0.34 },
      { item_id: c.id, discount_amount: 0.33 },
    ]);
    expect(r.total_amount).toBe(9.04);

    const capped = await createVoucher(token, { kind: "percentage", value: 50, max_discount_amount: 7.77 });
    const rc = await discount({
      code: capped.code,
      items: [
        { item_id: a.id, qty: 3, price: 9.99 },
        { item_id: b.id, qty: 1, price: 0.01 },
      ],
    });
    expect(rc.amount).toBe(7.77);
    const cents = rc.items.map((l) => Math.round(l.discount_amount * 100));
    expect(cents.reduce((s, x) => s + x, 0)).toBe(777);
    expect(cents).toEqual([777, 0]);
  });

  it("items: only the lines in scope (by item, variant's parent or category) take the discount", async () => {
    const full = await createFullItem(APP_1);
    const other = await createPlainItem(APP_1);
    const byItem = await createVoucher(token, { discount_on: "items", kind: "fixed", value: 10, item_ids: [other.id] });
    const lines = [
      { item_id: full.variants[0]!.id, qty: 2, price: 25 },
      { item_id: other.id, qty: 1, price: 8 },
    ];
    expect(await discount({ code: byItem.code, items: lines })).toMatchObject({
      is_success: true,
      amount: 8,
      total_amount: 50,
      items: [
        { item_id: full.variants[0]!.id, discount_amount: 0 },
        { item_id: other.id, discount_amount: 8 },
      ],
    });
    const byCategory = await createVoucher(token, {
      discount_on: "items",
      kind: "percentage",
      value: 20,
      category_ids: [full.category.id],
    });
    expect(await discount({ code: byCategory.code, items: lines })).toMatchObject({
      amount: 10,
      items: [
        { item_id: full.variants[0]!.id, discount_amount: 10 },
        { item_id: other.id, discount_amount: 0 },
      ],
    });
    const byParent = await createVoucher(token, {
      discount_on: "items",
      kind: "fixed",
      value: 5,
      item_ids: [full.item.id],
    });
    expect((await discount({ code: byParent.code, items: lines })).items[0]).toEqual({
      item_id: full.variants[0]!.id,
      discount_amount: 5,
    });
  });

  it("total with a scope: the cart must hold an item in scope, and the discount is on every line", async () => {
    const inScope = await createPlainItem(APP_1);
    const outside = await createPlainItem(APP_1);
    const v = await createVoucher(token, {
      discount_on: "total",
      kind: "percentage",
      value: 10,
      item_ids: [inScope.id],
    });
    const r = await discount({
      code: v.code,
      items: [
        { item_id: inScope.id, qty: 1, price: 10 },
        { item_id: outside.id, qty: 1, price: 30 },
      ],
    });
    expect(r).toMatchObject({ is_success: true, amount: 4, items: [{ discount_amount: 1 }, { discount_amount: 3 }] });
    const none = await discount({ code: v.code, items: [{ item_id: outside.id, qty: 1, price: 30 }] });
    expect(none).toMatchObject({ is_success: false, amount: 0, total_amount: 30 });
    expect(none.error_reason).toMatch(/eligible/);
    const amountOnly = await discount({ code: v.code, cart_amount: 30 });
    expect(amountOnly.is_success).toBe(false);
    expect(amountOnly.error_reason).toMatch(/send the cart's items/);
  });

  it("delivery: off the delivery fee only, capped by it; none is a refusal", async () => {
    const v = await createVoucher(token, { discount_on: "delivery", kind: "percentage", value: 50 });
    expect(await discount({ code: v.code, cart_amount: 100, delivery_fee: 15.25 })).toMatchObject({
      is_success: true,
      discount_on: "delivery",
      amount: 7.63,
      delivery_fee_amount: 7.63,
      total_amount: 107.62,
    });
    const free = await createVoucher(token, { discount_on: "delivery", kind: "fixed", value: 99 });
    expect(await discount({ code: free.code, cart_amount: 100, delivery_fee: 15 })).toMatchObject({
      amount: 15,
      delivery_fee_amount: 15,
      total_amount: 100,
    });
    const none = await discount({ code: free.code, cart_amount: 100 });
    expect(none.is_success).toBe(false);
    expect(none.error_reason).toMatch(/delivery fee/);
  });

  it("below the minimum order: 200, is_success false, the minimum in the reason", async () => {
    const v = await createVoucher(token, { kind: "fixed", value: 10, min_order_amount: 100 });
    const r = await discount({ code: v.code, cart_amount: 99.99, delivery_fee: 20 });
    expect(r).toMatchObject({ id: v.id, is_success: false, amount: 0, total_amount: 119.99 });
    expect(r.error_reason).toBe("The cart must come to at least 100 for this voucher; it comes to 99.99.");
    expect((await discount({ code: v.code, cart_amount: 100 })).is_success).toBe(true);
  });

  it.each([
    ["an unknown code", {}, "No voucher with this code."],
    ["a disabled voucher", { status: "disabled" }, "This voucher is disabled."],
    ["an expired voucher", { ends_at: "2020-01-01T00:00:00Z" }, "This voucher has expired."],
    [
      "a voucher not started",
      { starts_at: "2099-01-01T00:00:00Z" },
      "This voucher is valid from 2099-01-01T00:00:00.000Z.",
    ],
  ])("%s: 200 with is_success false and the reason", async (name, extra, reason) => {
    const code = name === "an unknown code" ? newCode("NOPE") : (await createVoucher(token, extra)).code;
    const r = await discount({ code, cart_amount: 50 });
    expect(r).toMatchObject({ code, is_success: false, error_reason: reason, amount: 0, total_amount: 50 });
    if (name === "an unknown code") expect(r).toMatchObject({ id: null, title: null, discount_on: null });
  });

  it("used up, and over the customer's own limit", async () => {
    const exhausted = await createVoucher(token, { usage_limit: 1 });
    await shardFor(APP_1).prepare("UPDATE vouchers SET usage_count = 1 WHERE id = ?").bind(exhausted.id).run();
    expect((await discount({ code: exhausted.code, cart_amount: 50 })).error_reason).toBe(
      "This voucher has been used up.",
    );

    const once = await createVoucher(token, { per_customer_limit: 1 });
    const customer = await createCustomerFor(APP_1);
    const order = await insertOrder(APP_1, customer.id);
    expect((await discount({ code: once.code, cart_amount: 50, customer_id: customer.id })).is_success).toBe(true);
    const used = await call(`/order/v1/merchant/vouchers/${once.code}/usage/`, {
      method: "POST",
      token,
      appId: APP_1,
      body: { order_id: order, action: "use" },
    });
    expect(used.status).toBe(200);
    const r = await discount({ code: once.code, cart_amount: 50, customer_id: customer.id });
    expect(r.is_success).toBe(false);
    expect(r.error_reason).toMatch(/already used this voucher 1 time/);
    // Without the customer, only the voucher's own limits apply.
    expect((await discount({ code: once.code, cart_amount: 50 })).is_success).toBe(true);
  });

  it.each([
    ["both cart_amount and items", { cart_amount: 10, items: [{ item_id: 1, qty: 1, price: 1 }] }, "cart_amount"],
    ["neither", {}, "cart_amount"],
    ["an amount with 3 decimals", { cart_amount: 10.005 }, "cart_amount"],
    ["a zero quantity", { items: [{ item_id: 1, qty: 0, price: 1 }] }, "items.0.qty"],
    ["an unknown line field", { items: [{ item_id: 1, qty: 1, price: 1, sku: "x" }] }, "items.0.sku"],
    ["a negative delivery fee", { cart_amount: 10, delivery_fee: -1 }, "delivery_fee"],
  ])("400 for %s", async (_n, extra, field) => {
    const res = await call(DISCOUNT, { method: "POST", token, appId: APP_1, body: { code: "ANY", ...extra } });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
  });

  it("400 for an item that is not the store's; 404 for an unknown customer", async () => {
    const res = await call(DISCOUNT, {
      method: "POST",
      token,
      appId: APP_1,
      body: { code: "ANY", items: [{ item_id: 987654321, qty: 1, price: 1 }] },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty(["items.0.item_id"]);
    const nobody = await call(DISCOUNT, {
      method: "POST",
      token,
      appId: APP_1,
      body: { code: "ANY", cart_amount: 1, customer_id: 987654321 },
    });
    expect(nobody.status).toBe(404);
    expect((await problem(nobody)).code).toBe("customer_not_found");
  });

  it("quoteVoucher (for checkout) allocates per line key and writes nothing", async () => {
    const v = await createVoucher(token, { kind: "fixed", value: 10 });
    const q = await quoteVoucher(serviceCtx(APP_1), {
      code: v.code.toLowerCase(),
      customerId: null,
      lines: [
        { key: 7, itemId: 1, categoryIds: [], amountMinor: 1000 },
        { key: 9, itemId: 2, categoryIds: [], amountMinor: 2000 },
      ],
      deliveryFeeMinor: 500,
    });
    expect(q).toMatchObject({ voucherId: v.id, isSuccess: true, linesDiscountMinor: 1000, deliveryDiscountMinor: 0 });
    expect([...q.lineDiscounts]).toEqual([
      [7, 333],
      [9, 667],
    ]);
    const row = await shardFor(APP_1).prepare("SELECT usage_count FROM vouchers WHERE id = ?").bind(v.id).first();
    expect(row).toEqual({ usage_count: 0 });
  });
});

sharedAuthCases({ method: "POST", path: DISCOUNT, permission: "can_read_order", body: { code: "X", cart_amount: 1 } });
