import { beforeAll, describe, expect, it } from "vitest";
import { vatSplit } from "../../src/modules/orders/pricing/vat";
import { call, problem, json as read } from "../helpers/request";
import {
  cartOf,
  checkedOut,
  eventsWhere,
  orderEventTypes,
  orderRow,
  rowOf,
  type Store,
  shopperOf,
  stocked,
  storeFor,
  voucherOf,
  writtenCounts,
} from "./helpers";
import {
  linesOf,
  major,
  refundInvoicesOf,
  refundPath,
  refundsIn,
  refundTransactionsOf,
  serialOf,
} from "./refund-fixtures";

// A store of this file's own: its counters, rows and events are this file's alone.
const A = 8501;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { refund, refunded, counter, paidOrder } = refundsIn(() => store);

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
