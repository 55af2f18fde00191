import { beforeAll, describe, expect, it } from "vitest";
import { cashbackOf, eventsWhere, orderRow, rowsOf, type Store, storeFor } from "./helpers";
import { refundsIn, refundTransactionsOf } from "./refund-fixtures";

// A store of this file's own: its counters, rows and events are this file's alone (refunds.test.ts has 8501).
const A = 8511;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { refunded, paidOrder } = refundsIn(() => store);

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
