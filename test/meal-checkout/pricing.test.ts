import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { json, problem } from "../helpers/request";
import { depositCashback, rowOf, rowsOf, voucherOf, writtenCounts } from "../orders/helpers";
import { type MealShop, mealCustomerOf, mealShopFor, ORDERS, orderBody } from "./helpers";

/**
 * The meals calculators (CA16 Apply Voucher, CA17 Redeem, CA18 Get Discount) and Place Order price
 * through one function: the version's price after its own discount, the delivery fee (never
 * discounted by the version), the voucher, the wallet, and VAT split per line and on the fee.
 */

const A = 9911;
let shop: MealShop;

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_110_000);
  // Balanced 20 also at 10% off, to show the version's discount leaves the delivery fee alone.
  await shardFor(APP_1)
    .prepare("UPDATE plan_versions SET discount_percentage = 12.5 WHERE id = ?")
    .bind(shop.versions.balanced20)
    .run();
});
afterAll(() => setClock(null));

const VOUCHERED = `${ORDERS}vouchered-cart/`;
const REDEEMED = `${ORDERS}redeemed-cart/`;
const DISCOUNTED = `${ORDERS}discounted-cart/`;

async function cart(versionId: number, extra: Record<string, unknown> = {}, path = DISCOUNTED) {
  const c = await mealCustomerOf(shop);
  const { body } = await orderBody(shop, c.locationId, { versionId });
  const res = await c.shopper.as(path, { method: "POST", body: { ...body, ...extra } });
  return { res, customer: c, body: { ...body, ...extra } };
}

async function price(versionId: number, extra: Record<string, unknown> = {}, path = DISCOUNTED) {
  const { res, customer, body } = await cart(versionId, extra, path);
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(200);
  expect(schemaErrors("getMealDiscountedCart", out)).toEqual([]);
  return { out, customer, body };
}

describe("the price breakdown", () => {
  it("Balanced 20: 1799 less 12.5% (224.88) = 1574.12, delivery 15 not discounted, VAT per line and on the fee", async () => {
    const { out } = await price(shop.versions.balanced20);
    // 179,900 × 12.5% = 22,487.5 → 22,488 (half up): 157,412.
    expect(out).toMatchObject({
      plan_version_id: shop.versions.balanced20,
      original_price: 1799,
      discount_percentage: 12.5,
      cart_amount: 1574.12,
      delivery_fee: 15,
      voucher: null,
      voucher_code: null,
      total_discounts: 0,
      total_amount: 1589.12,
      wallet_discounts: 0,
      total_amount_with_redeem: 1589.12,
      tax_percentage: 15,
      currency: "SAR",
      is_pickup: false,
    });
    // VAT: 157,412 → 136,880 + 20,532; 1,500 → 1,304 + 196.
    expect(out.tax_amount).toBe(207.28);
    expect(out.total_amount_excluding_tax).toBe(1381.84);
    expect(Math.round((out.tax_amount + out.total_amount_excluding_tax) * 100)).toBe(158_912);
    expect(out.lines).toEqual([
      {
        name_en: "Balanced 30 (20 days)",
        name_ar: "المتوازن ٣٠ (20 days)",
        qty: 1,
        unit_price: 1574.12,
        amount: 1574.12,
        voucher_discount_amount: 0,
        total_amount: 1574.12,
        tax_amount: 205.32,
      },
    ]);
    expect(out.delivery_dates).toHaveLength(20);
    expect(out.start_date).toBe(out.delivery_dates[0]);
    expect(out.end_date).toBe(out.delivery_dates[19]);
  });

  it("a pickup has no delivery fee", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { versionId: shop.versions.balanced20, pickup: true });
    const res = await c.shopper.as(DISCOUNTED, { method: "POST", body });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out).toMatchObject({ is_pickup: true, delivery_fee: 0, cart_amount: 1574.12, total_amount: 1574.12 });
  });

  it("Apply Voucher: a percentage voucher off the cart, not the delivery fee; Redeem ignores it", async () => {
    const v = await voucherOf(shop.store, { kind: "percentage", value: 10 });
    const { out } = await price(shop.versions.balanced20, { voucher: v.code, is_redeeming: true }, VOUCHERED);
    // 10% of 1574.12 = 157.412 → 157.41.
    expect(out).toMatchObject({
      voucher_code: v.code,
      cart_amount_voucher_discounts: 157.41,
      delivery_fee_voucher_discounts: 0,
      total_discounts: 157.41,
      total_amount: 1431.71,
      wallet_discounts: 0,
    });
    expect(out.voucher).toMatchObject({ code: v.code, is_success: true, amount: 157.41, delivery_fee_amount: 0 });
    expect(out.lines[0]).toMatchObject({ voucher_discount_amount: 157.41, total_amount: 1416.71 });
    const redeemed = await price(shop.versions.balanced20, { voucher: v.code }, REDEEMED);
    expect(redeemed.out).toMatchObject({ voucher: null, total_discounts: 0, total_amount: 1589.12 });
  });

  it("a fixed voucher takes its amount; a delivery voucher takes off the fee only", async () => {
    const fixed = await voucherOf(shop.store, { kind: "fixed", value: 50 });
    expect((await price(shop.versions.balanced20, { voucher: fixed.code })).out).toMatchObject({
      cart_amount_voucher_discounts: 50,
      total_discounts: 50,
      total_amount: 1539.12,
    });
    const delivery = await voucherOf(shop.store, { kind: "percentage", value: 100, discount_on: "delivery" });
    const { out } = await price(shop.versions.balanced20, { voucher: delivery.code });
    expect(out).toMatchObject({
      cart_amount_voucher_discounts: 0,
      delivery_fee_voucher_discounts: 15,
      total_discounts: 15,
      total_amount: 1574.12,
      tax_amount: 205.32,
    });
  });

  it("a voucher that does not apply is priced without it and says why; Place Order refuses it (400)", async () => {
    const { out, customer, body } = await price(shop.versions.keto, { voucher: "NO-SUCH-CODE" }, VOUCHERED);
    expect(out.voucher).toMatchObject({ is_success: false, error_reason: "No voucher with this code.", amount: 0 });
    expect(out).toMatchObject({ voucher_code: null, total_discounts: 0, total_amount: 599 });
    const before = await writtenCounts(A);
    const res = await customer.shopper.as(ORDERS, { method: "POST", body });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toEqual({ voucher: ["No voucher with this code."] });
    expect(await writtenCounts(A)).toEqual(before);
  });

  it("Apply Voucher needs a voucher (400)", async () => {
    const { res } = await cart(shop.versions.keto, {}, VOUCHERED);
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toEqual({ voucher: ["Required."] });
  });

  it("Redeem: the cashback up to the balance, and never more than the total", async () => {
    const c = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, c.locationId, { versionId: shop.versions.keto });
    await depositCashback(shop.store, c.shopper.id, 100);
    const res = await c.shopper.as(REDEEMED, { method: "POST", body });
    expect(await json(res)).toMatchObject({
      total_amount: 599,
      wallet_balance: 100,
      wallet_discounts: 100,
      total_amount_with_redeem: 499,
    });
    await depositCashback(shop.store, c.shopper.id, 1000);
    const rich = await json(await c.shopper.as(REDEEMED, { method: "POST", body }));
    expect(rich).toMatchObject({ wallet_balance: 1100, wallet_discounts: 599, total_amount_with_redeem: 0 });
    // Get Discount redeems only when asked.
    const plain = await json(await c.shopper.as(DISCOUNTED, { method: "POST", body }));
    expect(plain).toMatchObject({ wallet_balance: 0, wallet_discounts: 0, total_amount_with_redeem: 599 });
    const asked = await json(await c.shopper.as(DISCOUNTED, { method: "POST", body: { ...body, is_redeeming: true } }));
    expect(asked).toMatchObject({ wallet_discounts: 599, total_amount_with_redeem: 0 });
  });

  it("Place Order charges what Get Discount showed: voucher and wallet, order and invoice lines VAT-split", async () => {
    const v = await voucherOf(shop.store, { kind: "percentage", value: 10 });
    const c = await mealCustomerOf(shop);
    await depositCashback(shop.store, c.shopper.id, 200);
    const { body } = await orderBody(shop, c.locationId, { versionId: shop.versions.balanced20, provider: "card" });
    const full = { ...body, voucher: v.code, is_redeeming: true };
    const shown = await json(await c.shopper.as(DISCOUNTED, { method: "POST", body: full }));
    const res = await c.shopper.as(ORDERS, { method: "POST", body: full });
    const placed = await json(res);
    expect(res.status, JSON.stringify(placed)).toBe(201);
    expect(schemaErrors("placeMealOrder", placed, "201")).toEqual([]);
    expect(placed).toMatchObject({
      sub_total_amount: shown.cart_amount,
      shipping_amount: shown.delivery_fee,
      sub_total_discounts_amount: shown.cart_amount_voucher_discounts,
      total_amount: shown.total_amount,
      wallet_redeem_amount: shown.wallet_discounts,
      total_amount_with_redeem: shown.total_amount_with_redeem,
      tax_amount: shown.tax_amount,
      total_amount_excluding_tax: shown.total_amount_excluding_tax,
    });
    expect(placed.order).toMatchObject({
      kind: "meal",
      status: "pending",
      payment_provider: "card",
      voucher_code: v.code,
    });
    expect(placed.payment_url).toMatch(/^https:\/\/api\.test\/order\/v1\/checkout\/\d+\/\?/);
    const order = await rowOf("SELECT * FROM orders WHERE id = ?", placed.order.id);
    expect(order).toMatchObject({ sub_total_minor: 157_412, shipping_minor: 1500, sub_total_discounts_minor: 15_741 });
    expect(order.wallet_redeem_minor).toBe(20_000);
    const lines = await rowsOf("SELECT * FROM order_items WHERE order_id = ?", placed.order.id);
    expect(lines).toEqual([
      expect.objectContaining({
        item_id: null,
        sku: `meal-plan-version-${shop.versions.balanced20}`,
        qty: 1,
        unit_price_minor: 157_412,
        amount_minor: 157_412,
        voucher_discount_minor: 15_741,
        total_minor: 141_671,
        tax_minor: 141_671 - 123_192,
        total_excluding_tax_minor: 123_192,
      }),
    ]);
    const [invoice] = await rowsOf("SELECT * FROM invoices WHERE order_id = ?", placed.order.id);
    expect(invoice).toMatchObject({ total_minor: order.total_minor, tax_minor: Math.round(shown.tax_amount * 100) });
  });
});
