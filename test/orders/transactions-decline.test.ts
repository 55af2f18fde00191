import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { problem, json as read } from "../helpers/request";
import {
  cashbackOf,
  eventsWhere,
  orderEventTypes,
  orderRow,
  rowsOf,
  type Store,
  stockOf,
  storeFor,
  writtenCounts,
} from "./helpers";
import { invoiceOf, transactionsIn, txRow } from "./transaction-fixtures";

// A store of this file's own (transactions.test.ts has 8502 and 8503).
const A = 8512;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { capture, decline, counter, pendingOrder } = transactionsIn(() => store);

describe("Decline Bank Transfer (MO11)", () => {
  it("declined with the reason; the order cancelled, its stock and cashback given back; events", async () => {
    const bank = await pendingOrder("bank_transfer", 3, 1000, { wallet_redeem_amount: 5 }, 5);
    expect(await stockOf(bank.item.id)).toBe(7);
    expect(await cashbackOf(A, bank.shopper.id)).toBe(0);
    const res = await decline(bank.tx.id, { reason: "Nothing arrived in 3 days." });
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors("declineBankTransfer", body)).toEqual([]);
    expect(body).toMatchObject({
      id: bank.tx.id,
      status: "declined",
      decline_reason: "Nothing arrived in 3 days.",
      allowed_actions: [],
    });
    expect(body.reviewed_at).toBeTruthy();
    expect(await orderRow(bank.orderId)).toMatchObject({ status: "cancelled", expires_at: null });
    expect((await orderRow(bank.orderId)).cancelled_at).toBeTruthy();
    expect(await stockOf(bank.item.id)).toBe(10);
    expect(await cashbackOf(A, bank.shopper.id)).toBe(500);
    expect((await invoiceOf(bank.orderId)).status).toBe("void");
    expect(await orderEventTypes(A, bank.orderId)).toEqual(["order.created", "order.cancelled"]);
    expect((await eventsWhere(A, ["transaction.declined"], "order_id", bank.orderId)).map((e) => e.data)).toEqual([
      {
        id: bank.tx.id,
        order_id: bank.orderId,
        invoice_id: bank.tx.invoice_id,
        status: "declined",
        amount: 25,
        payment_provider: "bank_transfer",
      },
    ]);
    expect((await eventsWhere(A, ["invoice.voided"], "order_id", bank.orderId)).length).toBe(1);

    // Declined: capturing it now is a 409.
    const late = await capture(bank.tx.id);
    expect(late.status).toBe(409);
    expect(await problem(late)).toMatchObject({ code: "invalid_state_transition", current_status: "declined" });
    expect((await orderRow(bank.orderId)).status).toBe("cancelled");
  });

  it("cash on delivery cannot be declined (409 with allowed_actions [capture]); a bad body is a 400", async () => {
    const cod = await pendingOrder("cash_on_delivery");
    const counts = await writtenCounts(A);
    const res = await decline(cod.tx.id);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "invalid_state_transition",
      current_status: "pending",
      allowed_actions: ["capture"],
    });
    const bank = await pendingOrder("bank_transfer");
    const counts2 = await writtenCounts(A);
    for (const body of [
      {},
      { reason: "" },
      { reason: "   " },
      { reason: "x".repeat(501) },
      { reason: "x", extra: 1 },
    ]) {
      const bad = await decline(bank.tx.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect(await writtenCounts(A)).toEqual(counts2);
    expect(counts2.orders).toBe(counts.orders! + 1);
    expect((await txRow(bank.tx.id)).status).toBe("pending_review");
    expect((await txRow(cod.tx.id)).status).toBe("pending");
  });

  it("a bank transfer partly paid from the wallet: each transaction's event names it", async () => {
    const bank = await pendingOrder("bank_transfer", 1, 3000, { wallet_redeem_amount: 10 }, 10);
    const txs = await rowsOf(
      "SELECT id, status, payment_provider FROM transactions WHERE order_id = ? ORDER BY id",
      bank.orderId,
    );
    const events = await eventsWhere(A, ["transaction.created", "transaction.captured"], "order_id", bank.orderId);
    expect(events.map((e) => [e.type, e.data.id, e.data.payment_provider, e.data.status]).sort()).toEqual(
      txs
        .map((t) => [
          t.status === "captured" ? "transaction.captured" : "transaction.created",
          t.id,
          t.payment_provider,
          t.status,
        ])
        .sort(),
    );
  });
});

describe("Capture racing decline", () => {
  it("capture and decline of the same transfer at once: exactly one wins, the state consistent", async () => {
    for (let round = 0; round < 3; round += 1) {
      const bank = await pendingOrder("bank_transfer", 2, 1000);
      const before = await counter();
      const [c, d] = await Promise.all([capture(bank.tx.id), decline(bank.tx.id)]);
      const statuses = [c.status, d.status];
      expect(statuses.sort(), `round ${round}`).toEqual([200, 409]);
      const loser = c.status === 409 ? c : d;
      expect((await problem(loser)).code).toBe("invalid_state_transition");
      const tx = await txRow(bank.tx.id);
      const order = await orderRow(bank.orderId);
      const invoice = await invoiceOf(bank.orderId);
      if (c.status === 200) {
        expect(tx.status).toBe("captured");
        expect(order).toMatchObject({ status: "completed", payment_status: "paid", captured_minor: 2000 });
        expect(invoice.status).toBe("paid");
        expect(await counter()).toBe(before + 1);
        expect(await stockOf(bank.item.id)).toBe(8);
        expect(await orderEventTypes(A, bank.orderId)).toEqual(["order.created", "order.paid", "order.completed"]);
        expect(await eventsWhere(A, ["transaction.declined"], "id", bank.tx.id)).toEqual([]);
      } else {
        expect(tx.status).toBe("declined");
        expect(order).toMatchObject({ status: "cancelled", captured_minor: 0 });
        expect(invoice).toMatchObject({ status: "void", serial: null });
        expect(await counter()).toBe(before);
        expect(await stockOf(bank.item.id)).toBe(10);
        expect(await orderEventTypes(A, bank.orderId)).toEqual(["order.created", "order.cancelled"]);
        expect(await eventsWhere(A, ["transaction.captured"], "id", bank.tx.id)).toEqual([]);
      }
    }
  });
});
