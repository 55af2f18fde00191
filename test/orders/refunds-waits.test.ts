import { beforeAll, describe, expect, it } from "vitest";
import { waitsMeter } from "../helpers/d1-waits";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json } from "../helpers/request";
import { orderRow, type Store, storeFor } from "./helpers";
import { refundPath, refundsIn } from "./refund-fixtures";

// A store of this file's own.
const A = 8531;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const { paidOrder } = refundsIn(() => store);

/** Refund Invoice, counting the D1 round trips its answer waited for beyond the token check (never time). */
async function meteredRefund(invoiceId: number, body: Record<string, unknown>) {
  const meter = waitsMeter(shardFor(APP_1));
  const res = await call(refundPath(invoiceId), {
    method: "POST",
    body,
    token: store.token,
    appId: A,
    meter,
  });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  expect(schemaErrors("refundInvoice", out, "201")).toEqual([]);
  return { out, waits: meter.stop().beyondAuth };
}

describe("Refund Invoice (MO8): D1 round trips", () => {
  it("a refund paid back by the wallet: one batch of reads, one guarded batch that also reads the answer", async () => {
    const p = await paidOrder([{ priceMinor: 1250, qty: 2 }], "wallet", {}, 40);
    const { out, waits } = await meteredRefund(p.invoiceId, { refund_reason: "Out of stock" });
    expect(waits).toBe(2);
    expect(out).toMatchObject({ type: "refund", total_amount: 25, refunded_invoice: { id: p.invoiceId } });
    expect(out.items).toHaveLength(1);
    expect(out.transactions).toEqual([expect.objectContaining({ status: "refunded", payment_provider: "wallet" })]);
    expect(await orderRow(p.orderId)).toMatchObject({ status: "refunded", refunded_minor: 2500 });
  });

  it("a card refund: one more, after the gateway's call, recording its answer (and reading the answer)", async () => {
    const p = await paidOrder([{ priceMinor: 1500, qty: 2 }]);
    const { out, waits } = await meteredRefund(p.invoiceId, { refund_reason: "Damaged" });
    expect(waits).toBe(3);
    expect(out.transactions).toEqual([expect.objectContaining({ status: "refunded", payment_provider: "card" })]);
  });
});
