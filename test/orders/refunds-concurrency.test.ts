import { beforeAll, describe, expect, it } from "vitest";
import { problem, json as read } from "../helpers/request";
import { eventsWhere, orderRow, rowOf, rowsOf, type Store, storeFor, voucherOf, writtenCounts } from "./helpers";
import { linesOf, refundInvoicesOf, refundsIn, refundTransactionsOf, statusCounts } from "./refund-fixtures";

// A store of this file's own: its counters, rows and events are this file's alone (refunds.test.ts has 8501).
const A = 8521;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { refund, refunded, paidOrder } = refundsIn(() => store);

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
