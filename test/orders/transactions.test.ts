import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, problem, json as read } from "../helpers/request";
import {
  eventsWhere,
  M_ORDERS,
  orderEventTypes,
  orderRow,
  rowOf,
  type Store,
  stockOf,
  storeFor,
  writtenCounts,
} from "./helpers";
import { invoiceOf, TX, transactionsIn, txRow } from "./transaction-fixtures";

// Stores of this file's own: 8502 (its orders), 8503 (another tenant).
const A = 8502;
const B = 8503;
let store: Store;
let other: Store;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const YEAR = new Date().getUTCFullYear();
const { capture, decline, counter, pendingOrder } = transactionsIn(() => store);

/** Pays a pending card order through the development gateway: the captured card transaction's id. */
async function payByCard(paymentUrl: string) {
  const u = new URL(paymentUrl);
  const res = await call(u.pathname + u.search, { appId: null });
  expect(res.status).toBe(303);
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(res.headers.get("location")!)![1]!;
  const outcome: GatewayOutcome = {
    gateway: "fake",
    reference,
    status: "captured",
    paymentMethod: "mada",
    message: null,
    details: { outcome: "paid" },
  };
  // The store the pay link names (its signed `app_id`).
  const appId = Number(u.searchParams.get("app_id"));
  const result = await applyGatewayOutcome({ db: db(appId), appId, env, waitUntil: () => undefined }, outcome);
  return result!.transactionId;
}

async function details(id: number) {
  const res = await store.as(`${TX}${id}/`);
  const body = await read(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(schemaErrors("getTransaction", body)).toEqual([]);
  return body;
}

describe("List Transactions and Transaction Details (MO9)", () => {
  it("filters by type, status, provider and order; details with allowed_actions", async () => {
    const bank = await pendingOrder("bank_transfer");
    const cod = await pendingOrder("cash_on_delivery");
    const card = await pendingOrder("card");
    const cardTx = await payByCard(card.result.payment_url);
    const refund = await store.as(`/order/v1/merchant/invoices/${card.result.order.invoices[0].id}/refund/`, {
      method: "POST",
      body: { refund_reason: "Listed" },
    });
    expect(refund.status).toBe(201);
    const refundTx = (await read(refund)).transactions[0].id as number;
    const mine = [bank.tx.id, cod.tx.id, cardTx, refundTx];

    const list = async (query: string) => {
      const res = await store.as(`${TX}?page_size=100&${query}`);
      const body = await read(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(schemaErrors("listTransactions", body)).toEqual([]);
      return body as { count: number; results: Record<string, any>[] };
    };
    const ids = (page: { results: Record<string, any>[] }) =>
      page.results.map((t) => t.id).filter((id: number) => mine.includes(id));

    const all = await list("");
    expect(ids(all)).toEqual([...mine].sort((x, y) => y - x));
    expect(all.results.every((t) => t.app_id === A)).toBe(true);
    expect(ids(await list("type=refund"))).toEqual([refundTx]);
    expect((await list("type=refund")).results.every((t) => t.type === "refund")).toBe(true);
    expect(ids(await list("status=pending_review"))).toEqual([bank.tx.id]);
    expect(ids(await list("status__in=pending,pending_review"))).toEqual([cod.tx.id, bank.tx.id]);
    expect(ids(await list("payment_provider=cash_on_delivery"))).toEqual([cod.tx.id]);
    expect(ids(await list("payment_provider=card&type=payment"))).toEqual([cardTx]);
    const ofOrder = await list(`order_id=${card.orderId}`);
    expect(ofOrder.count).toBe(2);
    expect(ofOrder.results.map((t) => [t.id, t.type, t.status])).toEqual([
      [refundTx, "refund", "refunded"],
      [cardTx, "payment", "captured"],
    ]);
    expect((await store.as(`${TX}?status=settled`)).status).toBe(400);
    expect((await store.as(`${TX}?payment_provider=paypal`)).status).toBe(400);

    // Details: what can be done with each.
    expect(await details(bank.tx.id)).toMatchObject({
      id: bank.tx.id,
      order_id: bank.orderId,
      invoice_id: bank.tx.invoice_id,
      type: "payment",
      status: "pending_review",
      amount: 30,
      currency: "SAR",
      payment_provider: "bank_transfer",
      reviewed_at: null,
      decline_reason: null,
      allowed_actions: ["capture", "decline"],
    });
    expect((await details(cod.tx.id)).allowed_actions).toEqual(["capture"]);
    expect(await details(cardTx)).toMatchObject({ status: "captured", gateway: "fake", allowed_actions: [] });
    expect(await details(refundTx)).toMatchObject({ type: "refund", status: "refunded", allowed_actions: [] });
    expect((await details(refundTx)).reference).toMatch(/^fake_rf_/);
  });

  it("another store's transaction is a 404 on every route, and is not listed", async () => {
    const bank = await pendingOrder("bank_transfer");
    const counts = await writtenCounts(A);
    for (const res of [
      await other.as(`${TX}${bank.tx.id}/`),
      await capture(bank.tx.id, {}, other),
      await decline(bank.tx.id, undefined, other),
    ]) {
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("transaction_not_found");
    }
    const listed = await read(await other.as(`${TX}?order_id=${bank.orderId}`));
    expect(listed).toMatchObject({ count: 0, results: [] });
    expect(await writtenCounts(A)).toEqual(counts);
    expect((await txRow(bank.tx.id)).status).toBe("pending_review");
    expect((await store.as(`${TX}999999999/`)).status).toBe(404);
  });
});

describe("Capture Bank Transfer (MO10)", () => {
  it("a bank transfer: captured, its invoice paid with the next serial, the order completed; events", async () => {
    const bank = await pendingOrder("bank_transfer", 2, 1250);
    const before = await counter();
    const res = await capture(bank.tx.id);
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors("captureBankTransfer", body)).toEqual([]);
    expect(body).toMatchObject({ id: bank.tx.id, status: "captured", amount: 25, allowed_actions: [] });
    expect(body.reviewed_at).toBeTruthy();
    expect(await counter()).toBe(before + 1);
    const invoice = await invoiceOf(bank.orderId);
    expect(invoice).toMatchObject({ status: "paid", serial: `INV-${YEAR}${String(before + 1).padStart(5, "0")}` });
    expect(await orderRow(bank.orderId)).toMatchObject({
      status: "completed",
      payment_status: "paid",
      captured_minor: 2500,
      expires_at: null,
    });
    expect(await stockOf(bank.item.id)).toBe(8);
    expect(await orderEventTypes(A, bank.orderId)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", bank.orderId)).map((e) => e.data)).toEqual([
      { id: invoice.id, order_id: bank.orderId, serial: invoice.serial },
    ]);
    expect((await eventsWhere(A, ["transaction.captured"], "id", bank.tx.id)).map((e) => e.data)).toEqual([
      {
        id: bank.tx.id,
        order_id: bank.orderId,
        invoice_id: invoice.id,
        status: "captured",
        amount: 25,
        payment_provider: "bank_transfer",
      },
    ]);

    // Captured: capturing or declining again is a 409 naming the status, and changes nothing.
    const counts = await writtenCounts(A);
    for (const again of [await capture(bank.tx.id), await decline(bank.tx.id)]) {
      expect(again.status).toBe(409);
      expect(await problem(again)).toMatchObject({
        code: "invalid_state_transition",
        current_status: "captured",
        allowed_actions: [],
      });
    }
    expect(await writtenCounts(A)).toEqual(counts);
    expect(await counter()).toBe(before + 1);
  });

  it("cash on delivery: the pending payment captured when the cash arrives", async () => {
    const cod = await pendingOrder("cash_on_delivery", 1, 4200);
    const res = await capture(cod.tx.id);
    expect(res.status).toBe(200);
    expect(await read(res)).toMatchObject({ status: "captured", payment_provider: "cash_on_delivery", amount: 42 });
    expect(await orderRow(cod.orderId)).toMatchObject({ status: "completed", payment_status: "paid" });
    expect((await invoiceOf(cod.orderId)).status).toBe("paid");
    expect(await orderEventTypes(A, cod.orderId)).toEqual(["order.created", "order.paid", "order.completed"]);
  });

  it("an Idempotency-Key replay answers the same capture and captures once", async () => {
    const bank = await pendingOrder("bank_transfer");
    const key = { "Idempotency-Key": `capture-${bank.tx.id}` };
    const first = await capture(bank.tx.id, key);
    expect(first.status).toBe(200);
    const a = await read(first);
    const before = await counter();
    const counts = await writtenCounts(A);
    const second = await capture(bank.tx.id, key);
    expect(second.status).toBe(200);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await read(second)).toEqual(a);
    expect(await counter()).toBe(before);
    expect(await writtenCounts(A)).toEqual(counts);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", bank.orderId)).length).toBe(1);
  });

  it("409 invalid_state_transition: a card payment, a refund, a cancelled order's transfer; nothing changes", async () => {
    const card = await pendingOrder("card");
    const cardTx = await payByCard(card.result.payment_url);
    const pendingCard = await pendingOrder("card");
    // A pending card transaction (the pay link opened, the gateway not answered yet).
    const u = new URL(pendingCard.result.payment_url);
    expect((await call(u.pathname + u.search, { appId: null })).status).toBe(303);
    const pendingCardTx = (
      await rowOf("SELECT id FROM transactions WHERE order_id = ? AND payment_provider = 'card'", pendingCard.orderId)
    ).id as number;
    const refunded = await read(
      await store.as(`/order/v1/merchant/invoices/${card.result.order.invoices[0].id}/refund/`, {
        method: "POST",
        body: { refund_reason: "x" },
      }),
    );
    const refundTx = refunded.transactions[0].id as number;
    const cancelled = await pendingOrder("bank_transfer");
    const patch = await store.as(`${M_ORDERS}${cancelled.orderId}/`, {
      method: "PATCH",
      body: { status: "cancelled" },
    });
    expect(patch.status).toBe(200);

    const counts = await writtenCounts(A);
    for (const id of [cardTx, pendingCardTx, refundTx, cancelled.tx.id]) {
      for (const res of [await capture(id), await decline(id)]) {
        expect(res.status, String(id)).toBe(409);
        const p = await problem(res);
        expect(p).toMatchObject({ code: "invalid_state_transition", allowed_actions: [] });
      }
      expect((await details(id)).allowed_actions).toEqual([]);
    }
    expect(await writtenCounts(A)).toEqual(counts);
    expect((await txRow(pendingCardTx)).status).toBe("pending");
  });
});
