import { beforeAll, describe, expect, it } from "vitest";
import { schemaErrors } from "../helpers/meals";
import { callWaits, json } from "../helpers/request";
import { orderEventTypes, orderRow, rowOf, type Store, storeFor } from "./helpers";
import { invoiceOf, TX, transactionsIn, txRow } from "./transaction-fixtures";

/**
 * How long Capture and Decline Bank Transfer and Charge Wallet keep a merchant waiting on D1, in
 * round trips one after another beyond the token check (never time): everything read at once, then
 * one guarded batch that reads the answer back. Without an Idempotency-Key (its claim is one more).
 */

// A store of this file's own.
const A = 8537;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { pendingOrder } = transactionsIn(() => store);
const post = (path: string, body: Record<string, unknown> = {}) =>
  callWaits(path, { method: "POST", body, token: store.token, appId: A });

describe("Bank transfers and the store wallet: D1 round trips", () => {
  it("Capture Bank Transfer: one round of reads, one batch that pays the order and answers the transaction", async () => {
    const { orderId, tx } = await pendingOrder("bank_transfer");
    const { res, waits } = await post(`${TX}${tx.id}/capture/`);
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(schemaErrors("captureBankTransfer", out)).toEqual([]);
    expect(out).toMatchObject({ id: tx.id, order_id: orderId, status: "captured", allowed_actions: [] });
    expect(out.reviewed_at).toEqual(expect.any(String));
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await orderRow(orderId)).status).toBe("completed");
    expect((await invoiceOf(orderId)).status).toBe("paid");
    expect(await orderEventTypes(A, orderId)).toContain("order.paid");
  });

  it("Capture with an Idempotency-Key: the key's claim rides with the reads (2); its replay pays nothing twice", async () => {
    const { orderId, tx } = await pendingOrder("bank_transfer");
    const keyed = () =>
      callWaits(`${TX}${tx.id}/capture/`, {
        method: "POST",
        body: {},
        token: store.token,
        appId: A,
        headers: { "Idempotency-Key": `capture-${tx.id}` },
      });
    const first = await keyed();
    const out = await json(first.res);
    expect(first.res.status, JSON.stringify(out)).toBe(200);
    expect(first.waits.beyondAuth).toBeLessThanOrEqual(2);
    const replay = await keyed();
    expect(replay.res.status).toBe(200);
    expect(replay.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(replay.res)).toEqual(out);
    expect((await orderEventTypes(A, orderId)).filter((t) => t === "order.paid")).toEqual(["order.paid"]);
  });

  it("Decline Bank Transfer: one round of reads (the lines too), one batch that cancels the order", async () => {
    const { orderId, tx, item } = await pendingOrder("bank_transfer", 3);
    const { res, waits } = await post(`${TX}${tx.id}/decline/`, { reason: "No transfer arrived." });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(schemaErrors("declineBankTransfer", out)).toEqual([]);
    expect(out).toMatchObject({ id: tx.id, status: "declined", decline_reason: "No transfer arrived." });
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await orderRow(orderId)).status).toBe("cancelled");
    expect((await txRow(tx.id)).status).toBe("declined");
    // The three units the order held are back.
    expect((await rowOf("SELECT stock_qty FROM items WHERE id = ?", item.id)).stock_qty).toBe(10);
  });

  it("Charge Wallet: one round of reads, one batch that places the top-up and reads it back", async () => {
    const { res, waits } = await post("/order/v1/merchant/wallet/charge/", { amount: 250 });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(schemaErrors("chargeWallet", out, "201")).toEqual([]);
    expect(out).toMatchObject({ total_amount: 250, order: { kind: "wallet_topup", status: "pending" } });
    expect(out.payment_url).toEqual(expect.stringContaining(`/order/v1/checkout/${out.order.id}/`));
    expect(out.payment_methods.length).toBeGreaterThan(0);
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await orderRow(out.order.id)).kind).toBe("wallet_topup");
  });
});
