import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { problem, json as read } from "../helpers/request";
import {
  cartOf,
  cashbackOf,
  checkedOut,
  checkout,
  depositCashback,
  eventsWhere,
  orderEventTypes,
  orderRow,
  rowOf,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
  voucherOf,
  writtenCounts,
} from "./helpers";

// A store of this file's own: its checkouts.
const A = 8201;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const invoicesOf = (orderId: number) => rowsOf("SELECT * FROM invoices WHERE order_id = ? ORDER BY id", orderId);
const transactionsOf = (orderId: number) =>
  rowsOf("SELECT * FROM transactions WHERE order_id = ? ORDER BY id", orderId);
/** How long a placed order waits for its payment: from its creation to its expiry (both of one instant of the checkout). */
const ttlMinutes = (order: { created_at: string; expires_at: string }) =>
  (Date.parse(order.expires_at) - Date.parse(order.created_at)) / 60_000;

function expectValid(result: unknown) {
  expect(schemaErrors("checkoutCart", result, "201")).toEqual([]);
}

describe("Checkout (CA14) by provider", () => {
  it("card: a pending order with a signed pay link, stock taken, an unpaid invoice without serial", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1033, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }], notes: "No onions" });
    const res = await checkout(s, cart.id, {
      payment_provider: "card",
      payment_method: "mada",
      lang: "en",
      success_url: "https://shop.example.com/ok",
      error_url: "https://shop.example.com/ko",
    });
    const r = await read(res);
    expect(res.status, JSON.stringify(r)).toBe(201);
    expectValid(r);
    const id = r.order.id;
    expect(r).toMatchObject({
      cart_price_updated: false,
      vouchers: [],
      sub_total_amount: 20.66,
      total_amount: 20.66,
      wallet_redeem_amount: 0,
      total_amount_with_redeem: 20.66,
      tax_amount: 2.69,
      total_amount_excluding_tax: 17.97,
      tax_percentage: 15,
      currency: "SAR",
      cashback_amount: 0,
    });
    expect(r.payment_methods.map((g: { provider_id: string }) => g.provider_id)).toEqual([
      "card",
      "wallet",
      "cash_on_delivery",
      "bank_transfer",
    ]);
    const link = new URL(r.payment_url);
    expect(link.origin + link.pathname).toBe(`https://api.test/order/v1/checkout/${id}/`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      entity: "order",
      app_id: String(A),
      lang: "en",
      success_url: "https://shop.example.com/ok",
      error_url: "https://shop.example.com/ko",
    });
    expect(link.searchParams.get("signature")).toBeTruthy();
    expect(r.order).toMatchObject({
      app_id: A,
      kind: "purchase",
      status: "pending",
      payment_status: "unpaid",
      fulfillment_status: "unfulfilled",
      payment_provider: "card",
      payment_method: "mada",
      cart_provider: "app",
      customer_id: s.id,
      customer: { id: s.id },
      cart_id: cart.id,
      notes: "No onions",
      paid_at: null,
      allowed_actions: ["pay", "cancel", "expire"],
      invoices: [{ serial: "-", type: "invoice", status: "unpaid", total_amount: 20.66 }],
    });
    expect(r.order.payment_url).toMatch(new RegExp(`^https://api\\.test/order/v1/checkout/${id}/\\?entity=order&`));
    expect(r.order.items).toEqual([
      expect.objectContaining({
        item_id: item.id,
        qty: 2,
        unit_price: 10.33,
        amount: 20.66,
        voucher_discount_amount: 0,
        total_amount: 20.66,
        tax_percentage: 15,
        tax_amount: 2.69,
        total_amount_excluding_tax: 17.97,
      }),
    ]);
    expect(ttlMinutes(r.order)).toBe(30);

    expect(await stockOf(item.id)).toBe(3);
    expect(await orderRow(id)).toMatchObject({ status: "pending", total_minor: 2066, expires_at: r.order.expires_at });
    const [invoice] = await invoicesOf(id);
    expect(invoice).toMatchObject({ status: "unpaid", serial: null, total_minor: 2066, tax_minor: 269 });
    expect(invoice!.due_at).toBe(r.order.expires_at);
    expect(await rowsOf("SELECT * FROM invoice_items WHERE invoice_id = ?", invoice!.id)).toHaveLength(1);
    // The card transaction is made when the pay link is opened.
    expect(await transactionsOf(id)).toEqual([]);
    expect(await rowOf("SELECT status, order_id FROM carts WHERE id = ?", cart.id)).toEqual({
      status: "checked_out",
      order_id: id,
    });
    expect(await orderEventTypes(A, id)).toEqual(["order.created"]);
    const [created] = await eventsWhere(A, ["order.created"], "id", id);
    expect(created!.data).toEqual({
      id,
      customer_id: s.id,
      status: "pending",
      payment_status: "unpaid",
      total_amount: 20.66,
      currency: "SAR",
    });
    expect((await eventsWhere(A, ["invoice.created"], "order_id", id)).map((e) => e.data)).toEqual([
      { id: invoice!.id, order_id: id, serial: null },
    ]);
    expect((await eventsWhere(A, ["item.updated"], "id", item.id)).map((e) => e.data)).toEqual([
      { id: item.id, purchased: 2 },
    ]);

    // The customer sees it among their orders with the same pay link.
    const mine = await read(await s.as(`/order/v1/orders/${id}/`));
    expect(mine).toMatchObject({ id, status: "pending", payment_url: r.order.payment_url });
  });

  it("cash on delivery: pending without expiry, a pending transaction for the merchant to capture", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1500, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const r = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    expectValid(r);
    expect(r.payment_url).toBeNull();
    expect(r.order).toMatchObject({
      status: "pending",
      payment_status: "unpaid",
      payment_provider: "cash_on_delivery",
      expires_at: null,
      payment_url: null,
    });
    expect(await stockOf(item.id)).toBe(4);
    const [tx] = await transactionsOf(r.order.id);
    const [invoice] = await invoicesOf(r.order.id);
    expect(tx).toMatchObject({
      app_id: A,
      type: "payment",
      status: "pending",
      amount_minor: 1500,
      currency: "SAR",
      payment_provider: "cash_on_delivery",
      invoice_id: invoice!.id,
    });
    expect(invoice!.due_at).toBeNull();
    expect((await eventsWhere(A, ["transaction.created"], "order_id", r.order.id)).map((e) => e.data)).toEqual([
      {
        id: tx!.id,
        order_id: r.order.id,
        invoice_id: invoice!.id,
        status: "pending",
        amount: 15,
        payment_provider: "cash_on_delivery",
      },
    ]);
  });

  it("bank transfer: payment pending review for 72 hours, its transaction pending review", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 4000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const r = await checkedOut(s, cart.id, { payment_provider: "bank_transfer" });
    expectValid(r);
    expect(r.order).toMatchObject({
      status: "pending",
      payment_status: "pending_review",
      payment_provider: "bank_transfer",
      payment_url: null,
    });
    expect(ttlMinutes(r.order) / 60).toBe(72);
    expect(await transactionsOf(r.order.id)).toEqual([
      expect.objectContaining({ status: "pending_review", amount_minor: 4000, payment_provider: "bank_transfer" }),
    ]);
  });

  it("wallet: paid at once from cashback; completed, invoice paid with its serial, ledger entry, events", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    await depositCashback(store, s.id, 50);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 3 }] });
    const r = await checkedOut(s, cart.id, { payment_provider: "wallet" });
    expectValid(r);
    const id = r.order.id;
    expect(r).toMatchObject({
      total_amount: 30,
      wallet_redeem_amount: 30,
      total_amount_with_redeem: 0,
      payment_url: null,
    });
    expect(r.order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      payment_provider: "wallet",
      payment_method: "wallet",
      expires_at: null,
      allowed_actions: ["refund"],
    });
    expect(r.order.paid_at).toBeTruthy();
    expect(r.order.invoices).toHaveLength(1);
    expect(r.order.invoices[0]).toMatchObject({ type: "invoice", status: "paid", total_amount: 30 });
    expect(r.order.invoices[0].serial).toMatch(/^INV-\d{4}\d{5}$/);

    const [invoice] = await invoicesOf(id);
    expect(invoice).toMatchObject({ status: "paid", serial: r.order.invoices[0].serial, payment_provider: "wallet" });
    expect(invoice!.issued_at).toBeTruthy();
    expect(await orderRow(id)).toMatchObject({ captured_minor: 3000, wallet_redeem_minor: 3000, status: "completed" });
    expect(await cashbackOf(A, s.id)).toBe(2000);
    expect(
      await rowsOf(
        "SELECT type, amount, balance_after, order_id FROM wallet_entries WHERE customer_id = ? ORDER BY id",
        s.id,
      ),
    ).toEqual([
      { type: "deposit", amount: 5000, balance_after: 5000, order_id: null },
      { type: "redeem", amount: -3000, balance_after: 2000, order_id: id },
    ]);
    expect(await transactionsOf(id)).toEqual([
      expect.objectContaining({ status: "captured", amount_minor: 3000, payment_provider: "wallet" }),
    ]);
    expect(await stockOf(item.id)).toBe(2);
    expect(await orderEventTypes(A, id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["order.paid"], "id", id))[0]!.data).toMatchObject({
      status: "completed",
      payment_status: "paid",
    });
    expect(
      (await eventsWhere(A, ["invoice.created", "invoice.paid"], "order_id", id)).map((e) => [e.type, e.data.serial]),
    ).toEqual([
      ["invoice.created", invoice!.serial],
      ["invoice.paid", invoice!.serial],
    ]);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", id)).map((e) => e.data.amount)).toEqual([30]);
  });

  it("wallet: the cashback spent is announced (customer.wallet.updated) like any other ledger entry", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    await depositCashback(store, s.id, 20);
    const r = await checkedOut(s, (await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] })).id, {
      payment_provider: "wallet",
    });
    const events = await eventsWhere(A, ["customer.wallet.updated"], "customer_id", s.id);
    expect(events.map((e) => [e.data.type, e.data.amount, e.data.balance_after])).toEqual([
      ["deposit", 20, 20],
      ["redeem", -10, 10],
    ]);
    expect(r.order.status).toBe("completed");
  });

  it("wallet: 409 insufficient_balance when the cashback is short, and nothing is written", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    await depositCashback(store, s.id, 10);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 3 }] });
    const before = await writtenCounts(A);
    const res = await checkout(s, cart.id, { payment_provider: "wallet" });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "insufficient_balance", kind: "cashback", available: 10 });
    expect(await writtenCounts(A)).toEqual(before);
    expect(await stockOf(item.id)).toBe(5);
    expect(await cashbackOf(A, s.id)).toBe(1000);
    expect(await rowOf("SELECT status, order_id FROM carts WHERE id = ?", cart.id)).toEqual({
      status: "open",
      order_id: null,
    });
  });

  it("a 100% voucher: a free order, completed at once, the voucher used once", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 2500, 5);
    const voucher = await voucherOf(store, { kind: "percentage", value: 100 });
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 2 }], voucher_code: voucher.code });
    expect(cart).toMatchObject({ total_amount: 0, sub_total_discounts_amount: 50, voucher_error: null });
    const r = await checkedOut(s, cart.id, { payment_provider: "card" });
    expectValid(r);
    const id = r.order.id;
    expect(r).toMatchObject({ total_amount: 0, total_discounts_amount: 50, tax_amount: 0, payment_url: null });
    expect(r.vouchers).toEqual([
      expect.objectContaining({ id: voucher.id, code: voucher.code, is_success: true, amount: 50, total_amount: 0 }),
    ]);
    expect(r.order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      payment_provider: "free",
      payment_method: "free",
      voucher_code: voucher.code,
    });
    expect(r.order.items[0]).toMatchObject({ amount: 50, voucher_discount_amount: 50, total_amount: 0, tax_amount: 0 });
    expect(r.order.invoices[0].serial).toMatch(/^INV-\d{4}\d{5}$/);
    expect(await transactionsOf(id)).toEqual([]);
    expect(await rowOf("SELECT usage_count FROM vouchers WHERE id = ?", voucher.id)).toEqual({ usage_count: 1 });
    expect(
      await rowsOf("SELECT customer_id, order_id, released_at FROM voucher_usages WHERE voucher_id = ?", voucher.id),
    ).toEqual([{ customer_id: s.id, order_id: id, released_at: null }]);
    expect(await orderEventTypes(A, id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", id)).length).toBe(1);
  });

  it("a voucher's use is announced (voucher.used), as Update Voucher Usage does", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 2500, 5);
    const voucher = await voucherOf(store, { kind: "fixed", value: 5 });
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], voucher_code: voucher.code });
    const r = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    expect(r.total_amount).toBe(20);
    const used = await eventsWhere(A, ["voucher.used"], "id", voucher.id);
    expect(used.map((e) => [e.data.action, e.data.order_id, e.data.usage_count])).toEqual([["use", r.order.id, 1]]);
  });

  it("card with part of it from the wallet: the cashback taken now, the rest through the pay link", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 2000, 5);
    await depositCashback(store, s.id, 10);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], wallet_redeem_amount: 5 });
    const r = await checkedOut(s, cart.id, { payment_provider: "card" });
    expectValid(r);
    expect(r).toMatchObject({ total_amount: 20, wallet_redeem_amount: 5, total_amount_with_redeem: 15 });
    expect(r.order).toMatchObject({ status: "pending", payment_status: "unpaid", payment_provider: "card" });
    expect(r.payment_url).toBeTruthy();
    expect(await cashbackOf(A, s.id)).toBe(500);
    expect(await transactionsOf(r.order.id)).toEqual([
      expect.objectContaining({ status: "captured", amount_minor: 500, payment_provider: "wallet" }),
    ]);
    expect((await invoicesOf(r.order.id))[0]).toMatchObject({ status: "unpaid", wallet_redeem_minor: 500 });
  });

  it("a cart of many different items: one line, one stock decrement and one item.updated per item", async () => {
    const s = await shopperOf(A);
    const items = await Promise.all(Array.from({ length: 7 }, (_, i) => stocked(A, 100 * (i + 1), 4)));
    const cart = await cartOf(s, { items: items.map((item) => ({ item_id: item.id, qty: 2 })) });
    const r = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    expect(r.order.items).toHaveLength(7);
    expect(r.total_amount).toBe(56); // 2 × (1 + 2 + … + 7)
    for (const item of items) {
      expect(await stockOf(item.id)).toBe(2);
      expect((await eventsWhere(A, ["item.updated"], "id", item.id)).map((e) => e.data.purchased)).toEqual([2]);
    }
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created"]);
  });

  it("flags a total that moved since the customer last saw it (`cart_price_updated`) and charges the new one", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    await rowOf("UPDATE items SET price_minor = 1200 WHERE id = ? RETURNING id", item.id);
    const r = await checkedOut(s, cart.id, { payment_provider: "cash_on_delivery" });
    expect(r).toMatchObject({ cart_price_updated: true, total_amount: 12 });
    expect((await transactionsOf(r.order.id))[0]).toMatchObject({ amount_minor: 1200 });
  });
});
