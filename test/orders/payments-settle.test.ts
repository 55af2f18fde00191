import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db } from "../helpers/factories";
import { json as read } from "../helpers/request";
import { browse, cardOrder, cardTransactions, outcome, startPayment } from "./card-payments";
import {
  eventsWhere,
  M_ORDERS,
  orderEventTypes,
  orderRow,
  rowOf,
  rowsOf,
  type Store,
  stockOf,
  storeFor,
} from "./helpers";

// A store of this file's own (payments.test.ts has 8401).
const A = 8411;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const counter = async () =>
  (await rowOf<{ n: number | null }>("SELECT (SELECT last_number FROM invoice_counters WHERE app_id = ?) AS n", A)).n ??
  0;

/** The store's nth serial (the prefix, the year it was paid, five digits). */
const serialOf = (n: number) => `INV-${new Date().getUTCFullYear()}${String(n).padStart(5, "0")}`;

function deps() {
  const pending: Promise<unknown>[] = [];
  return { db: db(), appId: A, env, waitUntil: (p: Promise<unknown>) => void pending.push(p) };
}

describe("applyGatewayOutcome (settling a card payment)", () => {
  it("a capture pays the order: completed, invoice paid with the next serial, transaction captured, events", async () => {
    const r = await cardOrder(A, 1, 2300);
    const { reference } = await startPayment(r.payment_url);
    const before = await counter();
    const result = await applyGatewayOutcome(deps(), outcome(reference));
    const [tx] = await cardTransactions(r.order.id);
    expect(result).toEqual({ appId: A, orderId: r.order.id, transactionId: tx!.id, status: "captured" });
    expect(tx).toMatchObject({ status: "captured", payment_method: "mada" });
    expect(JSON.parse(tx!.provider_details)).toEqual({ reference, outcome: "paid" });
    const order = await orderRow(r.order.id);
    expect(order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      captured_minor: 2300,
      expires_at: null,
    });
    expect(order.paid_at).toBeTruthy();
    const [invoice] = await rowsOf("SELECT * FROM invoices WHERE order_id = ?", r.order.id);
    expect(await counter()).toBe(before + 1);
    expect(invoice).toMatchObject({ status: "paid", serial: serialOf(before + 1) });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).map((e) => e.data.serial)).toEqual([
      invoice!.serial,
    ]);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).map((e) => e.data)).toEqual([
      {
        id: tx!.id,
        order_id: r.order.id,
        invoice_id: invoice!.id,
        status: "captured",
        amount: 23,
        payment_provider: "card",
      },
    ]);
    // The customer and the merchant see it paid; the pay link is spent.
    const mine = await read(await r.shopper.as(`/order/v1/orders/${r.order.id}/`));
    expect(mine).toMatchObject({
      status: "completed",
      payment_url: null,
      invoices: [{ serial: invoice!.serial, status: "paid" }],
    });
    expect((await browse(r.payment_url)).status).toBe(409);

    // The same outcome again changes nothing: one serial, one order.paid.
    expect((await applyGatewayOutcome(deps(), outcome(reference)))!.status).toBe("unchanged");
    expect(await counter()).toBe(before + 1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid", "transaction.captured"], "order_id", r.order.id)).length).toBe(2);
  });

  it("a reference no transaction has changes nothing (null)", async () => {
    expect(await applyGatewayOutcome(deps(), outcome("fake_AAAAAAAAAAAAAAAA"))).toBeNull();
    expect(await applyGatewayOutcome(deps(), { ...outcome("x"), gateway: "myfatoorah" })).toBeNull();
  });

  it("a failure fails the transaction; the order stays pending and payable, and a new attempt can pay it", async () => {
    const r = await cardOrder(A, 2, 1000);
    const first = await startPayment(r.payment_url);
    const failed = await applyGatewayOutcome(
      deps(),
      outcome(first.reference, { status: "failed", message: "Declined", details: { outcome: "failed" } }),
    );
    expect(failed!.status).toBe("failed");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ status: "failed" });
    expect(await orderRow(r.order.id)).toMatchObject({ status: "pending", payment_status: "failed" });
    expect(await stockOf(r.item.id)).toBe(8);
    expect((await eventsWhere(A, ["transaction.failed"], "order_id", r.order.id)).length).toBe(1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created"]);
    expect((await rowsOf("SELECT status, serial FROM invoices WHERE order_id = ?", r.order.id))[0]).toEqual({
      status: "unpaid",
      serial: null,
    });
    // A paid attempt after a failed one (MyFatoorah's page lets the customer retry) pays the order.
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("captured");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", payment_status: "paid" });
    expect((await cardTransactions(r.order.id)).map((t) => t.status)).toEqual(["captured"]);
    // Settled: a repeat of either outcome changes nothing.
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("unchanged");
  });

  it("two captures of the same payment at once: one applies, one serial, one order.paid", async () => {
    const r = await cardOrder(A);
    const { reference } = await startPayment(r.payment_url);
    const before = await counter();
    const results = await Promise.all([
      applyGatewayOutcome(deps(), outcome(reference)),
      applyGatewayOutcome(deps(), outcome(reference)),
      applyGatewayOutcome(deps(), outcome(reference)),
    ]);
    expect(results.map((x) => x!.status).sort()).toEqual(["captured", "unchanged", "unchanged"]);
    expect(await counter()).toBe(before + 1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).length).toBe(1);
    expect((await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).length).toBe(1);
  });

  it("six payments of one order captured at once: one pays it, five are recorded and refunded; one serial, one order.paid", async () => {
    const r = await cardOrder(A, 1, 5750);
    const sessions = [];
    for (let i = 0; i < 6; i++) sessions.push(await startPayment(r.payment_url));
    const before = await counter();
    const results = await Promise.all(sessions.map((p) => applyGatewayOutcome(deps(), outcome(p.reference))));
    expect(results.map((x) => x!.status)).toEqual(Array(6).fill("captured"));
    const txs = await cardTransactions(r.order.id);
    const payments = txs.filter((t) => t.type === "payment");
    const refunds = txs.filter((t) => t.type === "refund");
    expect(payments.map((t) => t.status)).toEqual(Array(6).fill("captured"));
    expect(refunds.map((t) => [t.status, t.amount_minor])).toEqual(Array(5).fill(["refunded", 5750]));
    const order = await orderRow(r.order.id);
    expect(order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      captured_minor: 5750,
      refunded_minor: 0,
    });
    // One serial taken, by the one invoice paid.
    expect(await counter()).toBe(before + 1);
    expect(await rowsOf("SELECT status, serial FROM invoices WHERE order_id = ?", r.order.id)).toEqual([
      { status: "paid", serial: serialOf(before + 1) },
    ]);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).length).toBe(1);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).length).toBe(6);
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", r.order.id)).length).toBe(5);
  });

  it("concurrent double payments over many orders leave the store's serials gapless", async () => {
    const orders = [];
    for (let i = 0; i < 4; i++) {
      const r = await cardOrder(A);
      orders.push({ r, a: await startPayment(r.payment_url), b: await startPayment(r.payment_url) });
    }
    const before = await counter();
    await Promise.all(
      orders.flatMap(({ a, b }) => [
        applyGatewayOutcome(deps(), outcome(a.reference)),
        applyGatewayOutcome(deps(), outcome(b.reference)),
      ]),
    );
    expect(await counter()).toBe(before + 4);
    const serials = (
      await rowsOf<{ serial: string }>(
        "SELECT serial FROM invoices WHERE app_id = ? AND serial IS NOT NULL AND serial > ? ORDER BY serial",
        A,
        serialOf(before),
      )
    ).map((x) => x.serial);
    expect(serials).toEqual([1, 2, 3, 4].map((n) => serialOf(before + n)));
  });

  it("a second attempt captured after the first paid the order is recorded and given back, the order paid once", async () => {
    const r = await cardOrder(A);
    const first = await startPayment(r.payment_url);
    const second = await startPayment(r.payment_url);
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("captured");
    const serial = (await rowOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).serial;
    expect((await applyGatewayOutcome(deps(), outcome(second.reference)))!.status).toBe("captured");
    // The second payment is recorded, then refunded whole through the gateway (a refund transaction).
    expect((await cardTransactions(r.order.id)).map((t) => [t.type, t.status])).toEqual([
      ["payment", "captured"],
      ["payment", "captured"],
      ["refund", "refunded"],
    ]);
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", r.order.id)).length).toBe(1);
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", captured_minor: 1500 });
    expect(await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).toEqual([{ serial }]);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).length).toBe(2);
  });

  // Cancelling leaves a card transaction pending (the customer may still pay at the gateway): a
  // capture that lands then is recorded, and given straight back through the gateway.
  it("a capture that lands after the order was cancelled is still recorded (captured, for a refund)", async () => {
    const r = await cardOrder(A);
    const { reference } = await startPayment(r.payment_url);
    expect(
      (await store.as(`${M_ORDERS}${r.order.id}/`, { method: "PATCH", body: { status: "cancelled" } })).status,
    ).toBe(200);
    const result = await applyGatewayOutcome(deps(), outcome(reference));
    expect(result!.status).toBe("captured");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ status: "captured" });
    expect((await orderRow(r.order.id)).status).toBe("cancelled");
    const refunds = await rowsOf(
      "SELECT status, amount_minor FROM transactions WHERE order_id = ? AND type = 'refund'",
      r.order.id,
    );
    expect(refunds).toEqual([
      { status: "refunded", amount_minor: (await cardTransactions(r.order.id))[0]!.amount_minor },
    ]);
  });
});
