import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  myFatoorahGateway,
  paymentMethodOf,
  readMyFatoorahReturn,
  storeOfStatus,
} from "../../src/modules/orders/payments/gateways/myfatoorah";
import { GatewayRefused, GatewayUnavailable } from "../../src/modules/orders/payments/provider";
import { ORIGIN, paymentRequest } from "./helpers";
import {
  API_KEY,
  BASE_URL,
  fakeMyFatoorah,
  mfSign,
  paymentEvent,
  WEBHOOK_SECRET,
  webhookRequest,
} from "./myfatoorah-api";

const mfEnv = { ...env, MYFATOORAH_API_KEY: API_KEY, MYFATOORAH_WEBHOOK_SECRET: WEBHOOK_SECRET };
const WEBHOOK_URL = `${ORIGIN}/order/v1/payments/myfatoorah/webhook/`;

/** A gateway on a fresh fake of the API. */
function setup(overrides: Partial<typeof mfEnv> = {}) {
  const api = fakeMyFatoorah();
  const gateway = myFatoorahGateway({ ...mfEnv, ...overrides }, api.fetcher, { timeoutMs: 200 });
  return { api, gateway };
}

/** A payment created on the fake, and its invoice id. */
async function created(setupResult: ReturnType<typeof setup>, over = {}) {
  const started = await setupResult.gateway.createPayment(paymentRequest(over));
  return { started, invoiceId: Number(started.reference) };
}

const returnRequest = (paymentId: string | null) => {
  const url = new URL(`${ORIGIN}/order/v1/payments/myfatoorah/return/`);
  if (paymentId !== null) url.searchParams.set("paymentId", paymentId);
  return new Request(url);
};

describe("MyFatoorah: create a payment (SendPayment)", () => {
  it("sends the documented request and returns the invoice link and id", async () => {
    const s = setup();
    const { started } = await created(s);
    expect(s.api.requests).toHaveLength(1);
    const [sent] = s.api.requests;
    expect(sent).toMatchObject({
      method: "POST",
      url: `${BASE_URL}/v2/SendPayment`,
      authorization: `Bearer ${API_KEY}`,
      contentType: "application/json",
    });
    const callback = sent!.body.CallBackUrl as string;
    expect(sent!.body).toEqual({
      NotificationOption: "LNK",
      InvoiceValue: 125.5,
      DisplayCurrencyIso: "SAR",
      CustomerName: "Sara",
      CustomerEmail: "sara@example.com",
      MobileCountryCode: "+966",
      CustomerMobile: "534501056",
      CallBackUrl: callback,
      ErrorUrl: callback,
      Language: "en",
      CustomerReference: "41",
      UserDefinedField: "1",
    });
    expect(started).toEqual({
      reference: String(s.api.invoices.keys().next().value),
      paymentUrl: `https://demo.MyFatoorah.com/KWT/ie/0106${started.reference}`,
      details: { invoice_id: started.reference, customer_reference: "41" },
    });
    // The return URL is this Worker's, and carries the checkout's URLs signed.
    const url = new URL(callback);
    expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/order/v1/payments/myfatoorah/return/`);
    expect(await readMyFatoorahReturn(env, url.searchParams)).toEqual({
      appId: 1,
      transactionId: 41,
      lang: "en",
      successUrl: "https://shop.example.com/paid?order=7",
      errorUrl: "https://shop.example.com/failed?order=7",
    });
    // The store is signed too: it chooses the shard the return runs on.
    const otherStore = new URL(url);
    otherStore.searchParams.set("app_id", "2");
    expect(await readMyFatoorahReturn(env, otherStore.searchParams)).toBeNull();
    url.searchParams.set("success_url", "https://evil.example/");
    expect(await readMyFatoorahReturn(env, url.searchParams)).toBeNull();
  });

  it("writes amounts as exact decimals, and fills what the customer lacks", async () => {
    const s = setup();
    await created(s, {
      amountMinor: 1005,
      lang: "ar",
      customer: { name: null, mobile: null, countryCode: null, email: null },
    });
    const [sent] = s.api.requests;
    expect(sent!.text).toContain('"InvoiceValue":10.05,');
    expect(sent!.body).toMatchObject({ CustomerName: "عميل", Language: "ar" });
    expect(sent!.body).not.toHaveProperty("CustomerEmail");
    expect(sent!.body).not.toHaveProperty("CustomerMobile");
    expect(sent!.body).not.toHaveProperty("MobileCountryCode");
  });

  it("uses MYFATOORAH_BASE_URL (Saudi production is api-sa)", async () => {
    const s = setup({ MYFATOORAH_BASE_URL: "https://api-sa.myfatoorah.com/" });
    await expect(s.gateway.createPayment(paymentRequest())).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(s.api.requests[0]!.url).toBe("https://api-sa.myfatoorah.com/v2/SendPayment");
  });

  it("turns IsSuccess:false into GatewayRefused with MyFatoorah's words", async () => {
    const s = setup();
    const error = await s.gateway.createPayment(paymentRequest({ amountMinor: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayRefused);
    expect((error as Error).message).toBe("Invalid data; InvoiceValue: InvoiceValue must be greater than zero");
  });

  it("is unavailable without a key, with a refused key, on a 5xx, without JSON, on a network error and on a timeout", async () => {
    const noKey = setup({ MYFATOORAH_API_KEY: undefined });
    await expect(noKey.gateway.createPayment(paymentRequest())).rejects.toThrow(/MYFATOORAH_API_KEY/);
    expect(noKey.api.requests).toHaveLength(0);

    const badKey = setup({ MYFATOORAH_API_KEY: "wrong" });
    await expect(badKey.gateway.createPayment(paymentRequest())).rejects.toThrow(/answered 401/);

    for (const response of [
      () => new Response("upstream down", { status: 502 }),
      () => new Response("<html>maintenance</html>", { status: 200, headers: { "content-type": "text/html" } }),
    ]) {
      const s = setup();
      s.api.answerWith(response);
      await expect(s.gateway.createPayment(paymentRequest())).rejects.toBeInstanceOf(GatewayUnavailable);
    }

    const offline = myFatoorahGateway(mfEnv, async () => {
      throw new TypeError("Network connection lost.");
    });
    await expect(offline.createPayment(paymentRequest())).rejects.toThrow(/Network connection lost/);

    let signal: AbortSignal | undefined;
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        signal = init?.signal ?? undefined;
        signal?.addEventListener("abort", () => reject(signal!.reason));
      });
    const slow = myFatoorahGateway(mfEnv, hanging, { timeoutMs: 50 });
    // The call's own timer, not the default 10 s: which one is asked, rather than how long it took.
    const timers = vi.spyOn(AbortSignal, "timeout");
    const error = await slow.createPayment(paymentRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnavailable);
    expect((error as Error).message).toContain("no answer in 50 ms");
    expect(signal?.aborted).toBe(true);
    expect(timers.mock.calls).toEqual([[50]]);
    timers.mockRestore();
  });

  it("gives every call a 10 s timeout by default", async () => {
    let signal: AbortSignal | null | undefined;
    const spy: typeof fetch = async (_input, init) => {
      signal = init?.signal;
      return new Response("{}", { status: 200 });
    };
    await myFatoorahGateway(mfEnv, spy)
      .createPayment(paymentRequest())
      .catch(() => undefined);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(false);
  });
});

describe("MyFatoorah: the return (paymentId) is confirmed with GetPaymentStatus", () => {
  it("captures a paid invoice, naming the method used", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const paymentId = s.api.attempt(invoiceId, "paid", "MADA");
    const outcome = await s.gateway.verifyCallback(returnRequest(paymentId));
    const status = s.api.requests.at(-1)!;
    expect(status).toMatchObject({
      method: "POST",
      url: `${BASE_URL}/v2/GetPaymentStatus`,
      authorization: `Bearer ${API_KEY}`,
    });
    expect(status.body).toEqual({ Key: paymentId, KeyType: "PaymentId" });
    expect(outcome).toMatchObject({
      gateway: "myfatoorah",
      reference: String(invoiceId),
      status: "captured",
      paymentMethod: "mada",
      message: null,
    });
    expect(outcome!.details).toMatchObject({
      invoice_id: String(invoiceId),
      invoice_status: "Paid",
      customer_reference: "41",
      payment_id: paymentId,
      transaction_status: "Succss",
      payment_gateway: "MADA",
    });
    expect(JSON.stringify(outcome)).not.toContain("450875");
  });

  it("fails an invoice that is not paid, with the attempt's error", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const paymentId = s.api.attempt(invoiceId, "failed");
    expect(await s.gateway.verifyCallback(returnRequest(paymentId))).toMatchObject({
      reference: String(invoiceId),
      status: "failed",
      paymentMethod: "visa_master",
      message: "Insufficient Funds",
      details: { invoice_status: "Pending", payment_id: paymentId, error_code: "MF002" },
    });
  });

  it("is null for a missing, malformed or unknown paymentId (nothing may change)", async () => {
    const s = setup();
    expect(await s.gateway.verifyCallback(returnRequest(null))).toBeNull();
    expect(await s.gateway.verifyCallback(returnRequest("07'; DROP"))).toBeNull();
    expect(s.api.requests).toHaveLength(0);
    expect(await s.gateway.verifyCallback(returnRequest("0707999999"))).toBeNull();
  });

  it("is unavailable, not null, when the status API does not answer", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const paymentId = s.api.attempt(invoiceId, "paid");
    s.api.answerWith(() => new Response("", { status: 503 }));
    await expect(s.gateway.verifyCallback(returnRequest(paymentId))).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

describe("MyFatoorah: the V2 webhook", () => {
  it("verifies the signature, then asks GetPaymentStatus by InvoiceId", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const paymentId = s.api.attempt(invoiceId, "paid");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true, "41");
    const outcome = await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, signature));
    expect(s.api.requests.at(-1)!.body).toEqual({ Key: String(invoiceId), KeyType: "InvoiceId" });
    expect(outcome).toMatchObject({ reference: String(invoiceId), status: "captured", paymentMethod: "visa_master" });
  });

  it("names the invoice's store from GetPaymentStatus's UserDefinedField, not from the event's", async () => {
    const s = setup();
    const { invoiceId } = await created(s, { appId: 7 });
    const paymentId = s.api.attempt(invoiceId, "paid");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, true, "41");
    // The event's own field is outside the signature: changed, it changes nothing.
    body.Data.Invoice.UserDefinedField = "9";
    expect(await s.gateway.readWebhook(webhookRequest(WEBHOOK_URL, body, signature))).toMatchObject({
      kind: "payment",
      appId: 7,
      outcome: { reference: String(invoiceId), status: "captured" },
    });
    expect(storeOfStatus({ UserDefinedField: "12" })).toBe(12);
    for (const field of [null, "", "0", "-3", "1.5", "app 3", "12345678901234567"]) {
      expect(storeOfStatus({ UserDefinedField: field }), String(field)).toBeNull();
    }
  });

  it("takes the status API's word over the event's", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    // Signed, and claims PAID, but the invoice is not paid.
    const { body, signature } = await paymentEvent(invoiceId, "0707123", true);
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, signature))).toMatchObject({
      status: "failed",
    });
  });

  it("is null, and asks nothing of the API, when the signature is missing, wrong or of another body", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const paymentId = s.api.attempt(invoiceId, "failed");
    const { body, signature } = await paymentEvent(invoiceId, paymentId, false);
    const before = s.api.requests.length;
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, null))).toBeNull();
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, ""))).toBeNull();
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, `${signature.slice(0, -2)}A=`))).toBeNull();
    const forged = structuredClone(body);
    forged.Data.Invoice.Status = "PAID";
    forged.Data.Transaction.Status = "SUCCESS";
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, forged, signature))).toBeNull();
    const other = await paymentEvent(invoiceId + 1, paymentId, false);
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, other.signature))).toBeNull();
    // Signed with another secret, or with no secret configured here.
    const mallory = await mfSign("not-the-secret", "x");
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, body, mallory))).toBeNull();
    const unconfigured = myFatoorahGateway({ ...mfEnv, MYFATOORAH_WEBHOOK_SECRET: undefined }, s.api.fetcher);
    expect(await unconfigured.verifyCallback(webhookRequest(WEBHOOK_URL, body, signature))).toBeNull();
    const notJson = new Request(WEBHOOK_URL, {
      method: "POST",
      headers: { "MyFatoorah-Signature": signature },
      body: "{",
    });
    expect(await s.gateway.verifyCallback(notJson)).toBeNull();
    expect(s.api.requests.length).toBe(before);
  });

  it("reads a signed refund event, and acknowledges events it does not act on", async () => {
    const s = setup();
    const refund = {
      Event: { Code: 2, Name: "REFUND_STATUS_CHANGED", CountryIsoCode: "SAU", CreationDate: "x", Reference: "WH-1" },
      Data: {
        Refund: { Id: "2840", Status: "REFUNDED", Reference: "2026000019" },
        Amount: { ValueInBaseCurrency: "50.25" },
        ReferencedInvoice: { Id: "6389662" },
      },
    };
    const good = await mfSign(
      WEBHOOK_SECRET,
      "Refund.Id=2840,Refund.Status=REFUNDED,Amount.ValueInBaseCurrency=50.25,ReferencedInvoice.Id=6389662",
    );
    expect(await s.gateway.readWebhook(webhookRequest(WEBHOOK_URL, refund, good))).toEqual({
      kind: "refund",
      refundId: "2840",
      refundStatus: "REFUNDED",
      invoiceId: "6389662",
      amount: "50.25",
    });
    expect(
      await s.gateway.readWebhook(webhookRequest(WEBHOOK_URL, refund, await mfSign(WEBHOOK_SECRET, "x"))),
    ).toBeNull();
    // Not a payment: verifyCallback has no outcome for it.
    expect(await s.gateway.verifyCallback(webhookRequest(WEBHOOK_URL, refund, good))).toBeNull();
    const balance = { Event: { Code: 3, Name: "BALANCE_TRANSFERRED" }, Data: {} };
    expect(await s.gateway.readWebhook(webhookRequest(WEBHOOK_URL, balance, "any"))).toEqual({
      kind: "ignored",
      event: "BALANCE_TRANSFERRED",
    });
    expect(s.api.requests).toHaveLength(0);
  });

  it("acknowledges a signed event of an invoice the API does not know", async () => {
    const s = setup();
    const { body, signature } = await paymentEvent(123, "0707", true);
    expect(await s.gateway.readWebhook(webhookRequest(WEBHOOK_URL, body, signature))).toMatchObject({
      kind: "ignored",
    });
  });
});

describe("MyFatoorah: refund (MakeRefund)", () => {
  it("asks for a refund by InvoiceId and reports it pending with its RefundId", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    s.api.attempt(invoiceId, "paid");
    const result = await s.gateway.refund({
      paymentReference: String(invoiceId),
      amountMinor: 5025,
      currency: "SAR",
      reason: "Damaged box",
    });
    const sent = s.api.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: "POST",
      url: `${BASE_URL}/v2/MakeRefund`,
      authorization: `Bearer ${API_KEY}`,
    });
    expect(sent.body).toEqual({
      Key: String(invoiceId),
      KeyType: "InvoiceId",
      ServiceChargeOnCustomer: false,
      Amount: 50.25,
      Comment: "Damaged box",
    });
    expect(result).toEqual({
      reference: "2840",
      status: "pending",
      details: { RefundId: 2840, RefundReference: "20262841", Amount: 50.25, InvoiceId: String(invoiceId) },
    });
  });

  it("refuses what MyFatoorah refuses", async () => {
    const s = setup();
    const { invoiceId } = await created(s);
    const unpaid = s.gateway.refund({
      paymentReference: String(invoiceId),
      amountMinor: 100,
      currency: "SAR",
      reason: "x",
    });
    await expect(unpaid).rejects.toThrow(new GatewayRefused("The invoice is not paid"));
  });
});

describe("paymentMethodOf", () => {
  it("names MyFatoorah's methods as checkout does", () => {
    expect(paymentMethodOf("VISA/MASTER")).toBe("visa_master");
    expect(paymentMethodOf("MADA")).toBe("mada");
    expect(paymentMethodOf("Apple Pay")).toBe("apple_pay");
    expect(paymentMethodOf("Apple Pay (Mada)")).toBe("apple_pay");
    expect(paymentMethodOf("STC Pay")).toBe("stc_pay");
    expect(paymentMethodOf(null)).toBeNull();
  });
});
