import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { myFatoorahGateway } from "../../src/modules/orders/payments/gateways/myfatoorah";
import { ensureTenant } from "../helpers/factories";
import { problem } from "../helpers/request";
import { paymentRequest } from "./helpers";
import { API_KEY, fakeMyFatoorah, mfSign, paymentEvent, WEBHOOK_SECRET } from "./myfatoorah-api";
import { eventsOf, pathOf, pendingCardOrder, send, setReference, stateOf } from "./orders";

const APP = 72;
const SUCCESS = "https://shop.example.com/paid";
const ERROR = "https://shop.example.com/failed";
const WEBHOOK = "/order/v1/payments/myfatoorah/webhook/";
const secrets = { MYFATOORAH_API_KEY: API_KEY, MYFATOORAH_WEBHOOK_SECRET: WEBHOOK_SECRET };

let api: ReturnType<typeof fakeMyFatoorah>;

beforeAll(() => ensureTenant(APP));
beforeEach(() => {
  api = fakeMyFatoorah();
  // The routes' gateway calls the global fetch: here, MyFatoorah's fake.
  vi.spyOn(globalThis, "fetch").mockImplementation(api.fetcher);
});
afterEach(() => vi.restoreAllMocks());

/** A pending card order paid through MyFatoorah: its invoice and the return URL MyFatoorah was given. */
async function started() {
  const p = await pendingCardOrder(APP, { gateway: "myfatoorah" });
  const gateway = myFatoorahGateway({ ...env, ...secrets }, api.fetcher);
  const start = await gateway.createPayment(
    paymentRequest({
      transactionId: p.transactionId,
      orderId: p.orderId,
      appId: APP,
      successUrl: SUCCESS,
      errorUrl: ERROR,
    }),
  );
  await setReference(p, start.reference);
  const callback = api.requests[0]!.body.CallBackUrl as string;
  return { p, invoiceId: Number(start.reference), callback };
}

/** The return as MyFatoorah makes it: its CallBackUrl with `paymentId` and `Id` added. */
const returned = (callback: string, paymentId: string) => {
  const url = new URL(callback);
  url.searchParams.set("paymentId", paymentId);
  url.searchParams.set("Id", paymentId);
  return pathOf(url.toString());
};

const postEvent = (body: unknown, signature: string | null, overrides: Record<string, unknown> = secrets) =>
  send(WEBHOOK, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== null && { "MyFatoorah-Signature": signature }) },
    body: JSON.stringify(body),
    env: overrides,
  });

const pending = { transaction: "pending", order: "pending", paymentStatus: "unpaid", invoice: "unpaid" };

describe("MyFatoorah's webhook", () => {
  it("captures a paid invoice's payment once, confirmed by GetPaymentStatus", async () => {
    const { p, invoiceId } = await started();
    const paymentId = api.attempt(invoiceId, "paid", "MADA");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true, String(p.transactionId));
    const res = await postEvent(body, signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, result: "captured" });
    expect(api.requests.at(-1)!.body).toEqual({ Key: String(invoiceId), KeyType: "InvoiceId" });
    const state = await stateOf(p);
    expect(state).toMatchObject({
      transaction: "captured",
      order: "completed",
      paymentStatus: "paid",
      invoice: "paid",
    });
    expect(state.paymentMethod).toBe("mada");
    expect(state.details).toMatchObject({
      invoice_id: String(invoiceId),
      invoice_status: "Paid",
      payment_id: paymentId,
    });
    const events = await eventsOf(p);
    expect(events).toEqual(expect.arrayContaining(["transaction.captured", "order.paid", "invoice.paid"]));

    // MyFatoorah retries: the same event changes nothing.
    const again = await postEvent(body, signature);
    expect(await again.json()).toEqual({ received: true, result: "unchanged" });
    expect(await eventsOf(p)).toEqual(events);
  });

  it("the webhook and the customer's return for one payment, at once and twice each: captured once", async () => {
    const { p, invoiceId, callback } = await started();
    const paymentId = api.attempt(invoiceId, "paid", "MADA");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true, String(p.transactionId));
    const answers = await Promise.all([
      postEvent(body, signature),
      send(returned(callback, paymentId), { env: secrets }),
      postEvent(body, signature),
      send(returned(callback, paymentId), { env: secrets }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 303, 200, 303]);
    expect(await stateOf(p)).toMatchObject({ transaction: "captured", order: "completed", invoice: "paid" });
    const events = await eventsOf(p);
    expect(events.filter((e) => e === "order.paid")).toHaveLength(1);
    expect(events.filter((e) => e === "transaction.captured")).toHaveLength(1);
  });

  it("fails the payment of an attempt that failed", async () => {
    const { p, invoiceId } = await started();
    const paymentId = api.attempt(invoiceId, "failed");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, false);
    expect(await (await postEvent(body, signature)).json()).toEqual({ received: true, result: "failed" });
    expect(await stateOf(p)).toMatchObject({ transaction: "failed", order: "pending", paymentStatus: "failed" });
  });

  it("changes nothing, and asks nothing of MyFatoorah, when the signature is missing or wrong", async () => {
    const { p, invoiceId } = await started();
    const paymentId = api.attempt(invoiceId, "paid");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true);
    const calls = api.requests.length;
    const attempts = [
      await postEvent(body, null),
      await postEvent(body, await mfSign("someone-else", "Invoice.Id=1")),
      await postEvent({ ...body, Data: { ...body.Data, Invoice: { ...body.Data.Invoice, Id: "1" } } }, signature),
      // No secret configured on this Worker: nothing can be verified.
      await postEvent(body, signature, { MYFATOORAH_API_KEY: API_KEY }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
    expect(api.requests.length).toBe(calls);
    expect(await stateOf(p)).toMatchObject(pending);
    expect(await eventsOf(p)).toEqual([]);
  });

  it("answers 503 when MyFatoorah does not answer, so that it retries; nothing changes", async () => {
    const { p, invoiceId } = await started();
    const paymentId = api.attempt(invoiceId, "paid");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true);
    api.answerWith(() => new Response("", { status: 502 }));
    const res = await postEvent(body, signature);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect((await problem(res)).code).toBe("provider_unavailable");
    expect(await stateOf(p)).toMatchObject(pending);
  });

  it("acknowledges events that are not ours to act on", async () => {
    // An invoice made elsewhere (the portal): MyFatoorah knows it, no transaction has it.
    const gateway = myFatoorahGateway({ ...env, ...secrets }, api.fetcher);
    const other = Number((await gateway.createPayment(paymentRequest())).reference);
    const paymentId = api.attempt(other, "paid");
    const { body, signature } = await paymentEvent(other, paymentId, true);
    expect(await (await postEvent(body, signature)).json()).toEqual({ received: true, result: "unknown_payment" });

    const refund = {
      Event: { Code: 2, Name: "REFUND_STATUS_CHANGED" },
      Data: {
        Refund: { Id: "1", Status: "REFUNDED" },
        Amount: { ValueInBaseCurrency: "5" },
        ReferencedInvoice: { Id: "9" },
      },
    };
    const signed = await mfSign(
      WEBHOOK_SECRET,
      "Refund.Id=1,Refund.Status=REFUNDED,Amount.ValueInBaseCurrency=5,ReferencedInvoice.Id=9",
    );
    expect(await (await postEvent(refund, signed)).json()).toEqual({ received: true, result: "ignored" });
  });

  it("refuses a body that is not JSON with 415, as every route does", async () => {
    const res = await send(WEBHOOK, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x",
      env: secrets,
    });
    expect(res.status).toBe(415);
  });
});

describe("MyFatoorah's return", () => {
  it("confirms the payment, captures it and sends the customer to the success URL", async () => {
    const { p, invoiceId, callback } = await started();
    const paymentId = api.attempt(invoiceId, "paid");
    const res = await send(returned(callback, paymentId), { env: secrets });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(SUCCESS);
    expect(api.requests.at(-1)!.body).toEqual({ Key: paymentId, KeyType: "PaymentId" });
    expect(await stateOf(p)).toMatchObject({ transaction: "captured", order: "completed", paymentStatus: "paid" });
    // Back again (a reload): still the success URL, nothing more written.
    const events = await eventsOf(p);
    const again = await send(returned(callback, paymentId), { env: secrets });
    expect(again.headers.get("location")).toBe(SUCCESS);
    expect(await eventsOf(p)).toEqual(events);
  });

  it("fails a failed attempt and sends the customer to the error URL", async () => {
    const { p, invoiceId, callback } = await started();
    const paymentId = api.attempt(invoiceId, "failed");
    const res = await send(returned(callback, paymentId), { env: secrets });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(ERROR);
    expect(await stateOf(p)).toMatchObject({ transaction: "failed", order: "pending" });
  });

  it("changes nothing for a changed query, another transaction's payment, or an unknown paymentId", async () => {
    const { p, invoiceId, callback } = await started();
    const other = await started();
    const paid = api.attempt(other.invoiceId, "paid");
    api.attempt(invoiceId, "failed");
    const tampered = new URL(callback);
    tampered.searchParams.set("success_url", "https://evil.example/");
    for (const path of [
      returned(tampered.toString(), paid),
      // A real, paid payment — of another transaction than the one this return was signed for.
      returned(callback, paid),
      returned(callback, "0707000000"),
      pathOf(callback),
    ]) {
      const res = await send(path, { env: secrets });
      expect(res.status, path).toBe(400);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
    expect(await stateOf(p)).toMatchObject(pending);
    expect(await stateOf(other.p)).toMatchObject(pending);
  });

  it("answers 503 when MyFatoorah does not answer", async () => {
    const { p, invoiceId, callback } = await started();
    const paymentId = api.attempt(invoiceId, "paid");
    api.answerWith(() => {
      throw new TypeError("Network connection lost.");
    });
    const res = await send(returned(callback, paymentId), { env: secrets });
    expect(res.status).toBe(503);
    expect((await problem(res)).code).toBe("provider_unavailable");
    expect(await stateOf(p)).toMatchObject(pending);
  });
});
