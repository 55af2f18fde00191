import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { vatSplit } from "../../src/modules/orders/pricing/vat";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, problem, json as read } from "../helpers/request";
import {
  cartOf,
  cashbackOf,
  checkedOut,
  depositCashback,
  eventsWhere,
  orderEventTypes,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
  storeFor,
  voucherOf,
  writtenCounts,
} from "./helpers";

// A store of this file's own: its counters, rows and events are this file's alone.
const A = 8501;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const YEAR = new Date().getUTCFullYear();
const refundPath = (invoiceId: number) => `/order/v1/merchant/invoices/${invoiceId}/refund/`;
const refund = (invoiceId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  store.as(refundPath(invoiceId), { method: "POST", body, headers });

/** A refund that must succeed: its body, checked against the documented 201 schema. */
async function refunded(invoiceId: number, body: Record<string, unknown>) {
  const res = await refund(invoiceId, body);
  const out = await read(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  expect(schemaErrors("refundInvoice", out, "201")).toEqual([]);
  return out;
}

const orderRow = (id: number) => rowOf("SELECT * FROM orders WHERE id = ?", id);
const linesOf = (invoiceId: number) =>
  rowsOf("SELECT * FROM invoice_items WHERE invoice_id = ? ORDER BY id", invoiceId);
const refundInvoicesOf = (invoiceId: number) =>
  rowsOf("SELECT * FROM invoices WHERE refunded_invoice_id = ? ORDER BY id", invoiceId);
const refundTransactionsOf = (orderId: number) =>
  rowsOf("SELECT * FROM transactions WHERE order_id = ? AND type = 'refund' ORDER BY id", orderId);
const counter = async () =>
  (await rowOf<{ n: number | null }>("SELECT (SELECT last_number FROM invoice_counters WHERE app_id = ?) AS n", A)).n ??
  0;
const serialOf = (n: number) => `INV-${YEAR}${String(n).padStart(5, "0")}`;
const major = (minor: number) => minor / 100;

// --- Paying orders -----------------------------------------------------------------------------

const browse = (url: string) => {
  const u = new URL(url);
  return call(u.pathname + u.search, { appId: null });
};
const outcome = (reference: string): GatewayOutcome => ({
  gateway: "fake",
  reference,
  status: "captured",
  paymentMethod: "mada",
  message: null,
  details: { outcome: "paid" },
});
const deps = () => ({ db: db(), env, waitUntil: (_: Promise<unknown>) => undefined });

/** Pays a pending card order as the development gateway's callback would: pay link, then a capture. */
async function payByCard(paymentUrl: string) {
  const res = await browse(paymentUrl);
  expect(res.status, await res.clone().text()).toBe(303);
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(res.headers.get("location")!)![1]!;
  expect((await applyGatewayOutcome(deps(), outcome(reference)))!.status).toBe("captured");
}

/** MO10 capture of the order's pending manual payment. */
async function captureManual(orderId: number) {
  const tx = await rowOf(
    "SELECT id FROM transactions WHERE order_id = ? AND type = 'payment' AND payment_provider <> 'wallet'",
    orderId,
  );
  const res = await store.as(`/order/v1/merchant/transactions/${tx.id}/capture/`, { method: "POST" });
  expect(res.status, await res.clone().text()).toBe(200);
}

type Paid = {
  orderId: number;
  invoiceId: number;
  lines: Record<string, any>[];
  shopper: Shopper;
  capturedMinor: number;
};

/**
 * A paid order of a new customer: `lines` of new products at their prices, checked out with
 * `provider` (card paid through the fake gateway; bank transfer and cash captured by MO10).
 */
async function paidOrder(
  lines: { priceMinor: number; qty: number }[],
  provider: "card" | "wallet" | "bank_transfer" | "cash_on_delivery" = "card",
  cart: Record<string, unknown> = {},
  cashback = 0,
): Promise<Paid> {
  const s = await shopperOf(A);
  if (cashback) await depositCashback(store, s.id, cashback);
  const items = await Promise.all(lines.map((l) => stocked(A, l.priceMinor, 50)));
  const c = await cartOf(s, { items: lines.map((l, i) => ({ item_id: items[i]!.id, qty: l.qty })), ...cart });
  const r = await checkedOut(s, c.id, { payment_provider: provider, lang: "en" });
  if (provider === "card") await payByCard(r.payment_url);
  if (provider === "bank_transfer" || provider === "cash_on_delivery") await captureManual(r.order.id);
  const order = await orderRow(r.order.id);
  expect(order).toMatchObject({ status: "completed", payment_status: "paid" });
  const invoiceId = r.order.invoices[0].id as number;
  return {
    orderId: r.order.id,
    invoiceId,
    lines: await linesOf(invoiceId),
    shopper: s,
    capturedMinor: order.captured_minor,
  };
}

function statusCounts(statuses: number[]) {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

// --- Tests -------------------------------------------------------------------------------------

describe("Refund Invoice (MO8): whole", () => {
  it("a card order refunded whole: a paid refund invoice with its own serial, the order refunded, events", async () => {
    const p = await paidOrder([{ priceMinor: 1500, qty: 2 }]);
    const before = await counter();
    const r = await refunded(p.invoiceId, { refund_reason: "Damaged on arrival" });
    const line = p.lines[0]!;
    const { taxMinor, excludingTaxMinor } = vatSplit(3000, 1500);
    expect(r).toMatchObject({
      type: "refund",
      status: "paid",
      order_id: p.orderId,
      serial: serialOf(before + 1),
      refund_reason: "Damaged on arrival",
      refunded_invoice: { id: p.invoiceId, total_amount: 30, status: "paid" },
      invoice_reference_id: p.invoiceId,
      total_amount: 30,
      tax_amount: major(taxMinor),
      total_amount_excluding_tax: major(excludingTaxMinor),
      wallet_redeem_amount: 0,
      payment_provider: "card",
    });
    expect(r.refunded_invoice.serial).toBe(
      (await rowOf("SELECT serial FROM invoices WHERE id = ?", p.invoiceId)).serial,
    );
    expect(r.issued_at).toBeTruthy();
    expect(r.items).toEqual([
      expect.objectContaining({
        parent_invoice_item: line.id,
        order_item: line.order_item_id,
        qty: 2,
        total_amount: 30,
        tax_amount: major(taxMinor),
        total_amount_excluding_tax: major(excludingTaxMinor),
        refund_reason: "Damaged on arrival",
      }),
    ]);
    expect(r.transactions).toEqual([
      expect.objectContaining({ type: "refund", status: "refunded", amount: 30, payment_provider: "card" }),
    ]);
    expect(r.transactions[0].provider_reference).toMatch(/^fake_rf_/);
    expect(await counter()).toBe(before + 1);

    // Stored: the order refunded, the line's refunded quantity, one refund transaction.
    expect(await orderRow(p.orderId)).toMatchObject({
      status: "refunded",
      payment_status: "refunded",
      refunded_minor: 3000,
      captured_minor: 3000,
    });
    expect((await linesOf(p.invoiceId))[0]).toMatchObject({ refunded_qty: 2 });
    const txs = await refundTransactionsOf(p.orderId);
    expect(txs).toEqual([
      expect.objectContaining({ status: "refunded", amount_minor: 3000, payment_provider: "card", invoice_id: r.id }),
    ]);
    // The original invoice is not edited.
    expect(await rowOf("SELECT status, type, total_minor FROM invoices WHERE id = ?", p.invoiceId)).toEqual({
      status: "paid",
      type: "invoice",
      total_minor: 3000,
    });

    // Events: invoice.refunded, the refund transaction created then refunded, order.refunded.
    expect((await eventsWhere(A, ["invoice.refunded"], "order_id", p.orderId)).map((e) => e.data)).toEqual([
      { id: r.id, order_id: p.orderId, serial: r.serial, refunded_invoice_id: p.invoiceId },
    ]);
    const txEvents = await eventsWhere(A, ["transaction.created", "transaction.refunded"], "id", txs[0]!.id);
    expect(txEvents.map((e) => [e.type, e.data.status, e.data.amount])).toEqual([
      ["transaction.created", "pending", 30],
      ["transaction.refunded", "refunded", 30],
    ]);
    expect(await orderEventTypes(A, p.orderId)).toEqual([
      "order.created",
      "order.paid",
      "order.completed",
      "order.refunded",
    ]);
    const [orderRefunded] = await eventsWhere(A, ["order.refunded"], "id", p.orderId);
    expect(orderRefunded!.data).toMatchObject({ status: "refunded", payment_status: "refunded", total_amount: 30 });

    // Nothing is left: a second whole refund is a 409 and writes nothing.
    const counts = await writtenCounts(A);
    const again = await refund(p.invoiceId, { refund_reason: "Again" });
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("nothing_to_refund");
    expect(await writtenCounts(A)).toEqual(counts);
  });

  it("the merchant's invoice and order reads show the refund", async () => {
    const p = await paidOrder([{ priceMinor: 999, qty: 1 }]);
    const r = await refunded(p.invoiceId, { refund_reason: "Changed mind" });
    const invoice = await read(await store.as(`/order/v1/merchant/invoices/${r.id}/`));
    expect(invoice).toMatchObject({
      id: r.id,
      type: "refund",
      serial: r.serial,
      refunded_invoice: { id: p.invoiceId },
    });
    const order = await read(await store.as(`/order/v1/merchant/orders/${p.orderId}/`));
    expect(order).toMatchObject({ status: "refunded", payment_status: "refunded" });
    expect(order.invoices.map((i: { id: number; type: string }) => [i.id, i.type])).toEqual([
      [p.invoiceId, "invoice"],
      [r.id, "refund"],
    ]);
  });
});

describe("Refund Invoice (MO8): partial", () => {
  it("by lines (1 of 2) then the rest: totals exact to the halala, refunded_qty kept, the order refunded at the end", async () => {
    const p = await paidOrder([
      { priceMinor: 1033, qty: 2 },
      { priceMinor: 777, qty: 1 },
    ]);
    const [a, b] = p.lines as [Record<string, any>, Record<string, any>];
    expect(p.capturedMinor).toBe(2066 + 777);

    const first = await refunded(p.invoiceId, {
      items: [{ invoice_item_id: a.id, qty: 1 }],
      refund_reason: "One was cold",
    });
    expect(first).toMatchObject({ total_amount: 10.33, tax_amount: 1.35, total_amount_excluding_tax: 8.98 });
    expect(first.items).toEqual([
      expect.objectContaining({ parent_invoice_item: a.id, qty: 1, total_amount: 10.33, tax_amount: 1.35 }),
    ]);
    expect((await linesOf(p.invoiceId)).map((l) => l.refunded_qty)).toEqual([1, 0]);
    expect(await orderRow(p.orderId)).toMatchObject({
      status: "completed",
      payment_status: "partially_refunded",
      refunded_minor: 1033,
    });
    expect(await orderEventTypes(A, p.orderId)).not.toContain("order.refunded");

    // Asking for more than is left of a line: 400 naming it, nothing written.
    const counts = await writtenCounts(A);
    const tooMany = await refund(p.invoiceId, { items: [{ invoice_item_id: a.id, qty: 2 }], refund_reason: "x" });
    expect(tooMany.status).toBe(400);
    expect(Object.keys((await problem(tooMany)).errors ?? {})).toEqual(["items.0.qty"]);
    expect(await writtenCounts(A)).toEqual(counts);

    // The rest (no items: everything still refundable).
    const rest = await refunded(p.invoiceId, { refund_reason: "The rest" });
    expect(rest.items.map((i: Record<string, number>) => [i.parent_invoice_item, i.qty, i.total_amount])).toEqual([
      [a.id, 1, 10.33],
      [b.id, 1, 7.77],
    ]);
    expect(rest.total_amount).toBe(18.1);
    expect(rest.tax_amount).toBe(major(vatSplit(1033, 1500).taxMinor + vatSplit(777, 1500).taxMinor));
    expect(rest.serial).not.toBe(first.serial);
    expect((await linesOf(p.invoiceId)).map((l) => l.refunded_qty)).toEqual([2, 1]);
    const refunds = await refundInvoicesOf(p.invoiceId);
    expect(refunds.reduce((s, i) => s + i.total_minor, 0)).toBe(p.capturedMinor);
    expect(await orderRow(p.orderId)).toMatchObject({
      status: "refunded",
      payment_status: "refunded",
      refunded_minor: p.capturedMinor,
    });
    expect((await refundTransactionsOf(p.orderId)).map((t) => [t.status, t.amount_minor])).toEqual([
      ["refunded", 1033],
      ["refunded", 1810],
    ]);
    expect((await eventsWhere(A, ["order.refunded"], "id", p.orderId)).length).toBe(1);
  });

  it("a line with an uneven total (a voucher): its units refunded one by one add up to it exactly", async () => {
    const voucher = await voucherOf(store, { kind: "fixed", value: 0.01 });
    const p = await paidOrder([{ priceMinor: 1000, qty: 3 }], "card", { voucher_code: voucher.code });
    const line = p.lines[0]!;
    expect(line.total_minor).toBe(2999);
    const totals: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await refunded(p.invoiceId, {
        items: [{ invoice_item_id: line.id, qty: 1 }],
        refund_reason: `Unit ${i}`,
      });
      totals.push(Math.round(r.total_amount * 100));
    }
    expect(totals).toEqual([1000, 1000, 999]);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 2999 });
  });

  it("by amount: spread over the lines in proportion, summing exactly; then the rest", async () => {
    const p = await paidOrder([
      { priceMinor: 1000, qty: 1 },
      { priceMinor: 2000, qty: 1 },
    ]);
    const [a, b] = p.lines as [Record<string, any>, Record<string, any>];
    const r = await refunded(p.invoiceId, { amount: 10.01, refund_reason: "Late delivery" });
    expect(r.total_amount).toBe(10.01);
    // 1001 over 1000:2000 → 333.67 and 667.33: the largest remainder takes the odd halala.
    expect(r.items.map((i: Record<string, number>) => [i.parent_invoice_item, i.qty, i.total_amount])).toEqual([
      [a.id, 0, 3.34],
      [b.id, 0, 6.67],
    ]);
    const taxes = [334, 667].map((t) => vatSplit(t, 1500));
    expect(r.tax_amount).toBe(major(taxes[0]!.taxMinor + taxes[1]!.taxMinor));
    for (const item of r.items)
      expect(item.tax_amount + item.total_amount_excluding_tax).toBeCloseTo(item.total_amount, 9);
    // An amount refund gives back money, not units.
    expect((await linesOf(p.invoiceId)).map((l) => l.refunded_qty)).toEqual([0, 0]);
    expect(await orderRow(p.orderId)).toMatchObject({ payment_status: "partially_refunded", refunded_minor: 1001 });

    const rest = await refunded(p.invoiceId, { refund_reason: "All of it" });
    expect(rest.items.map((i: Record<string, number>) => [i.parent_invoice_item, i.qty, i.total_amount])).toEqual([
      [a.id, 1, 6.66],
      [b.id, 1, 13.33],
    ]);
    expect(rest.total_amount).toBe(19.99);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 3000 });
  });

  it("more than is left by amount: 409 refund_exceeds_captured with refundable_amount, nothing written", async () => {
    const p = await paidOrder([{ priceMinor: 3000, qty: 1 }]);
    await refunded(p.invoiceId, { amount: 10, refund_reason: "Part" });
    const counts = await writtenCounts(A);
    for (const amount of [20.01, 25]) {
      const res = await refund(p.invoiceId, { amount, refund_reason: "Too much" });
      expect(res.status, String(amount)).toBe(409);
      expect(await problem(res)).toMatchObject({ code: "refund_exceeds_captured", refundable_amount: 20 });
    }
    expect(await writtenCounts(A)).toEqual(counts);
    expect(await orderRow(p.orderId)).toMatchObject({ refunded_minor: 1000, payment_status: "partially_refunded" });
    // Exactly what is left is fine.
    expect((await refunded(p.invoiceId, { amount: 20, refund_reason: "Rest" })).total_amount).toBe(20);
    expect(await orderRow(p.orderId)).toMatchObject({ refunded_minor: 3000, status: "refunded" });
  });
});

describe("Refund Invoice (MO8): the money goes back the way it came", () => {
  it("a wallet-paid order: the cashback given back (ledger entry, customer.wallet.updated, a wallet transaction)", async () => {
    const p = await paidOrder([{ priceMinor: 1250, qty: 2 }], "wallet", {}, 40);
    expect(await cashbackOf(A, p.shopper.id)).toBe(1500);
    const r = await refunded(p.invoiceId, { refund_reason: "Out of stock" });
    expect(r).toMatchObject({ total_amount: 25, wallet_redeem_amount: 25, payment_provider: "wallet" });
    expect(r.transactions).toEqual([
      expect.objectContaining({ type: "refund", status: "refunded", amount: 25, payment_provider: "wallet" }),
    ]);
    expect(await cashbackOf(A, p.shopper.id)).toBe(4000);
    const entries = await rowsOf(
      "SELECT type, amount, balance_after, order_id FROM wallet_entries WHERE customer_id = ? AND type = 'refund'",
      p.shopper.id,
    );
    expect(entries).toEqual([{ type: "refund", amount: 2500, balance_after: 4000, order_id: p.orderId }]);
    const updates = (await eventsWhere(A, ["customer.wallet.updated"], "customer_id", p.shopper.id)).filter(
      (e) => e.data.type === "refund",
    );
    expect(updates.map((e) => e.data)).toEqual([
      expect.objectContaining({
        customer_id: p.shopper.id,
        kind: "cashback",
        type: "refund",
        amount: 25,
        balance_after: 40,
      }),
    ]);
    const [tx] = await refundTransactionsOf(p.orderId);
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", p.orderId)).map((e) => e.data)).toEqual([
      { id: tx!.id, order_id: p.orderId, invoice_id: r.id, status: "refunded", amount: 25, payment_provider: "wallet" },
    ]);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 2500 });
  });

  it("a card order partly paid from the wallet: the card part first, then the wallet's; one event per transaction", async () => {
    // 20.00 owed: 5.00 from cashback, 15.00 by card.
    const p = await paidOrder([{ priceMinor: 2000, qty: 1 }], "card", { wallet_redeem_amount: 5 }, 5);
    expect(await orderRow(p.orderId)).toMatchObject({ wallet_redeem_minor: 500, captured_minor: 2000 });
    expect(await cashbackOf(A, p.shopper.id)).toBe(0);

    const first = await refunded(p.invoiceId, { amount: 10, refund_reason: "Half" });
    expect(first.wallet_redeem_amount).toBe(0);
    expect(first.transactions.map((t: Record<string, unknown>) => [t.payment_provider, t.status, t.amount])).toEqual([
      ["card", "refunded", 10],
    ]);
    expect(await cashbackOf(A, p.shopper.id)).toBe(0);

    const rest = await refunded(p.invoiceId, { refund_reason: "The rest" });
    expect(rest).toMatchObject({ total_amount: 10, wallet_redeem_amount: 5 });
    expect(rest.transactions.map((t: Record<string, unknown>) => [t.payment_provider, t.status, t.amount])).toEqual([
      ["card", "refunded", 5],
      ["wallet", "refunded", 5],
    ]);
    expect(await cashbackOf(A, p.shopper.id)).toBe(500);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 2000 });

    // Every refund transaction is announced as refunded once, with its own data.
    const txs = await refundTransactionsOf(p.orderId);
    const refundedEvents = await eventsWhere(A, ["transaction.refunded"], "order_id", p.orderId);
    expect(refundedEvents.map((e) => [e.data.id, e.data.payment_provider, e.data.amount]).sort()).toEqual(
      txs.map((t) => [t.id, t.payment_provider, t.amount_minor / 100]).sort(),
    );
    const created = await eventsWhere(A, ["transaction.created"], "order_id", p.orderId);
    const cardRefundIds = txs.filter((t) => t.payment_provider === "card").map((t) => t.id);
    expect(
      created.filter((e) => e.data.invoice_id !== p.invoiceId).map((e) => [e.data.id, e.data.payment_provider]),
    ).toEqual(cardRefundIds.map((id) => [id, "card"]));
  });

  it("a bank transfer captured by the merchant (MO10): the refund is recorded as paid back by the merchant", async () => {
    const p = await paidOrder([{ priceMinor: 4000, qty: 1 }], "bank_transfer");
    const r = await refunded(p.invoiceId, { refund_reason: "Cancelled by the store" });
    expect(r.transactions).toEqual([
      expect.objectContaining({
        type: "refund",
        status: "refunded",
        amount: 40,
        payment_provider: "bank_transfer",
        provider_details: { manual: true, note: "Paid back by the merchant." },
      }),
    ]);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", payment_status: "refunded" });
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", p.orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ payment_provider: "bank_transfer", status: "refunded", amount: 40 }),
    ]);
    // No gateway: nothing was created pending.
    expect(
      (await eventsWhere(A, ["transaction.created"], "order_id", p.orderId)).filter((e) => e.data.invoice_id === r.id),
    ).toEqual([]);
  });

  it("a bank transfer order partly paid from the wallet: one transaction.refunded per refund transaction", async () => {
    const p = await paidOrder([{ priceMinor: 3000, qty: 1 }], "bank_transfer", { wallet_redeem_amount: 10 }, 10);
    await refunded(p.invoiceId, { refund_reason: "All" });
    const txs = await refundTransactionsOf(p.orderId);
    expect(txs.map((t) => [t.payment_provider, t.amount_minor])).toEqual([
      ["bank_transfer", 2000],
      ["wallet", 1000],
    ]);
    const events = await eventsWhere(A, ["transaction.refunded"], "order_id", p.orderId);
    expect(events.map((e) => [e.data.id, e.data.payment_provider, e.data.amount])).toEqual(
      txs.map((t) => [t.id, t.payment_provider, t.amount_minor / 100]),
    );
  });
});

describe("Refund Invoice (MO8): refused", () => {
  it("an unpaid invoice, a refund invoice: 409 invalid_state_transition; nothing written", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const c = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const pending = await checkedOut(s, c.id, { payment_provider: "cash_on_delivery" });
    const counts = await writtenCounts(A);
    const unpaid = await refund(pending.order.invoices[0].id, { refund_reason: "x" });
    expect(unpaid.status).toBe(409);
    expect(await problem(unpaid)).toMatchObject({
      code: "invalid_state_transition",
      current_status: "unpaid",
      allowed_actions: [],
    });

    const p = await paidOrder([{ priceMinor: 1000, qty: 2 }]);
    const r = await refunded(p.invoiceId, { items: [{ invoice_item_id: p.lines[0]!.id, qty: 1 }], refund_reason: "x" });
    const counts2 = await writtenCounts(A);
    const ofRefund = await refund(r.id, { refund_reason: "x" });
    expect(ofRefund.status).toBe(409);
    expect(await problem(ofRefund)).toMatchObject({ code: "invalid_state_transition", allowed_actions: [] });
    expect(await writtenCounts(A)).toEqual(counts2);
    expect(counts2.invoices).toBeGreaterThan(counts.invoices!);
  });

  it("400: an unknown line, amount with items, a bad body; 404: another store's invoice", async () => {
    const p = await paidOrder([{ priceMinor: 1000, qty: 1 }]);
    const other = await paidOrder([{ priceMinor: 1000, qty: 1 }]);
    const counts = await writtenCounts(A);
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [{ invoice_item_id: other.lines[0]!.id, qty: 1 }], refund_reason: "x" }, "items.0.invoice_item_id"],
      [{ items: [{ invoice_item_id: p.lines[0]!.id, qty: 1 }], amount: 5, refund_reason: "x" }, "amount"],
      [{ amount: 1.005, refund_reason: "x" }, "amount"],
      [{ amount: 0, refund_reason: "x" }, "amount"],
      [{ refund_reason: "" }, "refund_reason"],
      [{}, "refund_reason"],
      [{ refund_reason: "x", extra: 1 }, "extra"],
      [{ items: [{ invoice_item_id: p.lines[0]!.id, qty: 0 }], refund_reason: "x" }, "items.0.qty"],
    ];
    for (const [body, field] of cases) {
      const res = await refund(p.invoiceId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const errors = (await problem(res)).errors ?? {};
      expect(
        Object.keys(errors).some((k) => k === field || k.startsWith(field)),
        JSON.stringify(errors),
      ).toBe(true);
    }
    expect(await writtenCounts(A)).toEqual(counts);
    const foreign = await call(refundPath(p.invoiceId), {
      method: "POST",
      body: { refund_reason: "x" },
      token: (await storeFor(8509)).token,
      appId: 8509,
    });
    expect(foreign.status).toBe(404);
    expect((await problem(foreign)).code).toBe("invoice_not_found");
    expect(await writtenCounts(A)).toEqual(counts);
  });
});

describe("Refund Invoice (MO8): retries and concurrency", () => {
  it("an Idempotency-Key replay answers the same refund invoice and refunds once", async () => {
    const p = await paidOrder([{ priceMinor: 1000, qty: 2 }]);
    const key = { "Idempotency-Key": `refund-${p.invoiceId}` };
    const body = { items: [{ invoice_item_id: p.lines[0]!.id, qty: 1 }], refund_reason: "Once" };
    const first = await refund(p.invoiceId, body, key);
    expect(first.status).toBe(201);
    const a = await read(first);
    const counts = await writtenCounts(A);
    const second = await refund(p.invoiceId, body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await read(second)).id).toBe(a.id);
    expect(await writtenCounts(A)).toEqual(counts);
    expect(await refundInvoicesOf(p.invoiceId)).toHaveLength(1);
    expect(await orderRow(p.orderId)).toMatchObject({ refunded_minor: 1000 });
    expect((await linesOf(p.invoiceId))[0]).toMatchObject({ refunded_qty: 1 });
    // The same key with another body is refused.
    const reused = await refund(p.invoiceId, { ...body, refund_reason: "Other" }, key);
    expect(reused.status).toBe(409);
    expect((await problem(reused)).code).toBe("idempotency_key_reused");
  });

  it("5 whole refunds of one card invoice at once: exactly one 201, refunded once", async () => {
    const p = await paidOrder([{ priceMinor: 1234, qty: 3 }]);
    const responses = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        refund(p.invoiceId, { refund_reason: `Race ${i}` }, { "Idempotency-Key": `race-${p.invoiceId}-${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statusCounts(statuses), JSON.stringify(statuses)).toEqual({ 201: 1, 409: 4 });
    for (const res of responses.filter((r) => r.status === 409))
      expect(["nothing_to_refund", "refund_exceeds_captured"]).toContain((await problem(res)).code);
    expect(await refundInvoicesOf(p.invoiceId)).toHaveLength(1);
    expect(await orderRow(p.orderId)).toMatchObject({
      status: "refunded",
      refunded_minor: p.capturedMinor,
      captured_minor: 3702,
    });
    expect((await refundTransactionsOf(p.orderId)).map((t) => [t.status, t.amount_minor])).toEqual([
      ["refunded", 3702],
    ]);
    expect((await linesOf(p.invoiceId))[0]).toMatchObject({ refunded_qty: 3 });
    expect((await eventsWhere(A, ["order.refunded"], "id", p.orderId)).length).toBe(1);
  });

  it("5 refunds of 1 unit of a 3-unit line at once: exactly 3 succeed, never more than captured", async () => {
    const p = await paidOrder([{ priceMinor: 1000, qty: 3 }], "cash_on_delivery");
    const line = p.lines[0]!;
    const responses = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        refund(p.invoiceId, { items: [{ invoice_item_id: line.id, qty: 1 }], refund_reason: `Unit ${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statusCounts(statuses), JSON.stringify(statuses)).toEqual({ 201: 3, 409: 2 });
    const refunds = await refundInvoicesOf(p.invoiceId);
    expect(refunds).toHaveLength(3);
    const sum = refunds.reduce((s, i) => s + i.total_minor, 0);
    const order = await orderRow(p.orderId);
    expect(sum).toBe(order.refunded_minor);
    expect(order.refunded_minor).toBe(3000);
    expect(order.refunded_minor).toBeLessThanOrEqual(order.captured_minor);
    expect((await linesOf(p.invoiceId))[0]).toMatchObject({ refunded_qty: 3 });
    // Everything is back: the order says so, whichever refund came last.
    expect(order).toMatchObject({ status: "refunded", payment_status: "refunded" });
    expect((await eventsWhere(A, ["order.refunded"], "id", p.orderId)).length).toBe(1);
  });

  it("units of an uneven line refunded at once never give back more than the line", async () => {
    // 29.99 over 3 units, and a second line so that the order's captured sum is not the limit.
    const voucher = await voucherOf(store, { kind: "fixed", value: 0.01 });
    const p = await paidOrder(
      [
        { priceMinor: 1000, qty: 3 },
        { priceMinor: 500, qty: 1 },
      ],
      "cash_on_delivery",
      { voucher_code: voucher.code },
    );
    const line = p.lines[0]!;
    expect(p.lines.map((l) => l.total_minor)).toEqual([2999, 500]);
    const responses = await Promise.all(
      [0, 1, 2].map((i) =>
        refund(p.invoiceId, { items: [{ invoice_item_id: line.id, qty: 1 }], refund_reason: `Unit ${i}` }),
      ),
    );
    const given = await rowOf<{ total: number | null }>(
      `SELECT sum(total_minor) AS total FROM invoice_items WHERE parent_invoice_item_id = ?
         AND invoice_id IN (SELECT id FROM invoices WHERE status <> 'void')`,
      line.id,
    );
    const statuses = responses.map((r) => r.status);
    expect(given.total ?? 0, JSON.stringify(statuses)).toBeLessThanOrEqual(2999);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect((await orderRow(p.orderId)).refunded_minor).toBe(given.total ?? 0);
    // A retry of what lost the race gives back exactly the rest.
    await refunded(p.invoiceId, { refund_reason: "The rest" });
    const lines = await rowsOf(
      "SELECT parent_invoice_item_id AS parent, sum(total_minor) AS total FROM invoice_items WHERE invoice_id IN " +
        "(SELECT id FROM invoices WHERE refunded_invoice_id = ?) GROUP BY parent_invoice_item_id ORDER BY parent",
      p.invoiceId,
    );
    expect(lines).toEqual([
      { parent: line.id, total: 2999 },
      { parent: p.lines[1]!.id, total: 500 },
    ]);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 3499 });
  });
});
