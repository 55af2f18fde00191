import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeGateway } from "../../src/modules/orders/payments/gateways/fake";
import { myFatoorahGateway } from "../../src/modules/orders/payments/gateways/myfatoorah";
import { APP_1, APP_2, shardNameFor } from "../helpers/factories";
import { idFreeOnShardsOf } from "../helpers/isolation";
import { callWaits, problem } from "../helpers/request";
import { paymentRequest } from "./helpers";
import { API_KEY, fakeMyFatoorah, paymentEvent, WEBHOOK_SECRET } from "./myfatoorah-api";
import { eventsOf, type PendingPayment, pathOf, pendingCardOrder, send, setReference, stateOf } from "./orders";

/**
 * The gateways' callbacks name no store in a header: each reaches its store's shard from what it
 * carries (a signed `app_id`, or MyFatoorah's `UserDefinedField`), and touches only that store's
 * rows. APP_2 lives on the second shard; APP_1's rows here share their ids with APP_2's.
 */

const SUCCESS = "https://shop.example.com/paid";
const ERROR = "https://shop.example.com/failed";
const secrets = { MYFATOORAH_API_KEY: API_KEY, MYFATOORAH_WEBHOOK_SECRET: WEBHOOK_SECRET };
const pending = { transaction: "pending", order: "pending", paymentStatus: "unpaid", invoice: "unpaid" };

/** A pending card order in each store whose order, invoice and transaction have the same ids: APP_1's made first. */
async function pendingOnBothShards(gateway: string): Promise<{ first: PendingPayment; second: PendingPayment }> {
  expect([shardNameFor(APP_1), shardNameFor(APP_2)]).toEqual(["SHARD_1", "SHARD_2"]);
  const stores = [APP_1, APP_2];
  const ids = {
    orderId: await idFreeOnShardsOf("orders", stores),
    invoiceId: await idFreeOnShardsOf("invoices", stores),
    transactionId: await idFreeOnShardsOf("transactions", stores),
  };
  const first = await pendingCardOrder(APP_1, { gateway, ids });
  const second = await pendingCardOrder(APP_2, { gateway, ids });
  expect(second).toMatchObject(ids);
  return { first, second };
}

/** The payment's request as checkout makes it, for the store's own order. */
const requestOf = (p: PendingPayment) =>
  paymentRequest({
    appId: p.appId,
    transactionId: p.transactionId,
    orderId: p.orderId,
    successUrl: SUCCESS,
    errorUrl: ERROR,
  });

/** The development gateway's Pay button of a started payment (its page's first form). */
async function payActionOf(paymentUrl: string): Promise<string> {
  const html = await (await send(pathOf(paymentUrl))).text();
  return /<form method="post" action="([^"]+)">/.exec(html)![1]!.replaceAll("&amp;", "&");
}

const press = (action: string) => send(action, { method: "POST" });

describe("the development gateway's callback, for a store on the second shard", () => {
  it("pays that store's transaction; the first shard's rows of the same ids stay as they were", async () => {
    const { first, second } = await pendingOnBothShards("fake");
    const gateway = fakeGateway(env);
    const [a, b] = await Promise.all([
      gateway.createPayment(requestOf(first)),
      gateway.createPayment(requestOf(second)),
    ]);
    await setReference(first, a.reference);
    await setReference(second, b.reference);
    const pay = await payActionOf(b.paymentUrl);

    // The callback moved to the other store (the other shard): its signature no longer holds.
    const moved = pay.replace(`app_id=${APP_2}&`, `app_id=${APP_1}&`);
    expect(moved).not.toBe(pay);
    const refused = await press(moved);
    expect(refused.status).toBe(400);
    expect((await problem(refused)).code).toBe("invalid_payment_signature");

    const { res, waits } = await callWaits(pay, { method: "POST", appId: null });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(SUCCESS);
    // The URL names the store: its transaction, order and settings in one read, then the paid batch.
    expect(waits.beyondAuth).toBe(2);
    expect(await stateOf(second)).toMatchObject({ transaction: "captured", order: "completed", invoice: "paid" });
    expect(await eventsOf(second)).toEqual(expect.arrayContaining(["transaction.captured", "order.paid"]));
    expect(await stateOf(first)).toMatchObject(pending);
    expect(await eventsOf(first)).toEqual([]);

    // And the first store's own payment is its own.
    expect((await press(await payActionOf(a.paymentUrl))).status).toBe(303);
    expect(await stateOf(first)).toMatchObject({ transaction: "captured", order: "completed" });
  });
});

describe("MyFatoorah, for a store on the second shard", () => {
  let api: ReturnType<typeof fakeMyFatoorah>;
  beforeEach(() => {
    api = fakeMyFatoorah();
    // The routes' gateway calls the global fetch: here, MyFatoorah's fake.
    vi.spyOn(globalThis, "fetch").mockImplementation(api.fetcher);
  });
  afterEach(() => vi.restoreAllMocks());

  /** Both stores' payments started at MyFatoorah: their invoices and return URLs. */
  async function started() {
    const { first, second } = await pendingOnBothShards("myfatoorah");
    const gateway = myFatoorahGateway({ ...env, ...secrets }, api.fetcher);
    const a = await gateway.createPayment(requestOf(first));
    const b = await gateway.createPayment(requestOf(second));
    await setReference(first, a.reference);
    await setReference(second, b.reference);
    const [returnA, returnB] = api.requests.map((r) => r.body.CallBackUrl as string);
    return {
      first: { p: first, invoiceId: Number(a.reference), callback: returnA! },
      second: { p: second, invoiceId: Number(b.reference), callback: returnB! },
    };
  }

  const returned = (callback: string, paymentId: string) => {
    const url = new URL(callback);
    url.searchParams.set("paymentId", paymentId);
    url.searchParams.set("Id", paymentId);
    return pathOf(url.toString());
  };

  it("the webhook finds the store by the invoice's UserDefinedField and pays its transaction only", async () => {
    const { first, second } = await started();
    const paymentId = api.attempt(second.invoiceId, "paid");
    const { body, signature } = await paymentEvent(second.invoiceId, paymentId, true);
    const res = await send("/order/v1/payments/myfatoorah/webhook/", {
      method: "POST",
      headers: { "content-type": "application/json", "MyFatoorah-Signature": signature },
      body: JSON.stringify(body),
      env: secrets,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, result: "captured" });
    expect(await stateOf(second.p)).toMatchObject({ transaction: "captured", order: "completed", invoice: "paid" });
    expect(await stateOf(first.p)).toMatchObject(pending);
    expect(await eventsOf(first.p)).toEqual([]);
  });

  it("the return pays its store's transaction; another store's payment of the same transaction id changes nothing", async () => {
    const { first, second } = await started();
    const paidB = api.attempt(second.invoiceId, "paid");
    // APP_1's return, signed for its transaction, with APP_2's payment: the same CustomerReference
    // (the transaction ids are equal), but no transaction of APP_1 has that invoice.
    const crossed = await send(returned(first.callback, paidB), { env: secrets });
    expect(crossed.status).toBe(404);
    expect((await problem(crossed)).code).toBe("transaction_not_found");
    expect(await stateOf(first.p)).toMatchObject(pending);
    expect(await stateOf(second.p)).toMatchObject(pending);

    const res = await send(returned(second.callback, paidB), { env: secrets });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(SUCCESS);
    expect(await stateOf(second.p)).toMatchObject({ transaction: "captured", order: "completed", invoice: "paid" });
    expect(await stateOf(first.p)).toMatchObject(pending);
    expect(await eventsOf(first.p)).toEqual([]);
  });
});
