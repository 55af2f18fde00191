import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { majorDecimal } from "../../src/modules/orders/payments/gateways/amounts";
import {
  FAKE_REFERENCE,
  fakeCallbackAction,
  fakeGateway,
  readFakeCallback,
  readFakePage,
} from "../../src/modules/orders/payments/gateways/fake";
import { cardGateway, cardGatewayById } from "../../src/modules/orders/payments/gateways/index";
import { pageCsp } from "../../src/modules/orders/payments/gateways/pages";
import { GatewayUnavailable } from "../../src/modules/orders/payments/provider";
import { ORIGIN, paymentRequest } from "./helpers";

/** The page URL's reference and query. */
function pageOf(paymentUrl: string) {
  const url = new URL(paymentUrl);
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/$/.exec(url.pathname)?.[1] ?? "";
  return { url, reference, query: url.searchParams };
}

describe("majorDecimal", () => {
  it("writes minor units as an exact two-decimal string", () => {
    expect(majorDecimal(0)).toBe("0.00");
    expect(majorDecimal(5)).toBe("0.05");
    expect(majorDecimal(1005)).toBe("10.05");
    expect(majorDecimal(12_550)).toBe("125.50");
    expect(majorDecimal(-1999)).toBe("-19.99");
    // 0.1 + 0.2 and friends never reach it: integer arithmetic only.
    expect(majorDecimal(900_719_925_474_099)).toBe("9007199254740.99");
    expect(() => majorDecimal(1.5)).toThrow(RangeError);
  });
});

describe("the development card gateway", () => {
  const gateway = fakeGateway(env);

  it("starts a payment on this Worker's page, with the payment signed in its query", async () => {
    const started = await gateway.createPayment(paymentRequest());
    expect(started.reference).toMatch(FAKE_REFERENCE);
    expect(started.paymentUrl.startsWith(`${ORIGIN}/order/v1/payments/fake/${started.reference}/?`)).toBe(true);
    const { reference, query } = pageOf(started.paymentUrl);
    expect(reference).toBe(started.reference);
    expect(Object.fromEntries(query)).toMatchObject({
      app_id: "1",
      transaction_id: "41",
      order_id: "7",
      amount_minor: "12550",
      currency: "SAR",
      lang: "en",
      success_url: "https://shop.example.com/paid?order=7",
      error_url: "https://shop.example.com/failed?order=7",
    });
    expect(query.get("signature")).toBeTruthy();
    expect(await readFakePage(env, reference, query)).toEqual({
      reference,
      appId: 1,
      transactionId: 41,
      orderId: 7,
      amountMinor: 12_550,
      currency: "SAR",
      lang: "en",
      successUrl: "https://shop.example.com/paid?order=7",
      errorUrl: "https://shop.example.com/failed?order=7",
    });
  });

  it("makes a new reference for every payment", async () => {
    const a = await gateway.createPayment(paymentRequest());
    const b = await gateway.createPayment(paymentRequest());
    expect(a.reference).not.toBe(b.reference);
  });

  it("refuses a page whose amount, URL, order, store, signature or reference was changed", async () => {
    const { reference, query } = pageOf((await gateway.createPayment(paymentRequest())).paymentUrl);
    const changed = (name: string, value: string | null) => {
      const q = new URLSearchParams(query);
      if (value === null) q.delete(name);
      else q.set(name, value);
      return q;
    };
    expect(await readFakePage(env, reference, changed("amount_minor", "1"))).toBeNull();
    expect(await readFakePage(env, reference, changed("success_url", "https://evil.example/"))).toBeNull();
    expect(await readFakePage(env, reference, changed("error_url", ""))).toBeNull();
    expect(await readFakePage(env, reference, changed("order_id", "8"))).toBeNull();
    // Another store's: its database is another shard, where the same ids name other rows.
    expect(await readFakePage(env, reference, changed("app_id", "2"))).toBeNull();
    expect(await readFakePage(env, reference, changed("app_id", null))).toBeNull();
    expect(await readFakePage(env, reference, changed("signature", null))).toBeNull();
    expect(await readFakePage(env, reference, changed("signature", "x".repeat(43)))).toBeNull();
    const twice = new URLSearchParams(query);
    twice.append("amount_minor", "1");
    expect(await readFakePage(env, reference, twice)).toBeNull();
    // Another payment's reference with this page's query.
    const other = (await gateway.createPayment(paymentRequest())).reference;
    expect(await readFakePage(env, other, query)).toBeNull();
    // Signed with another secret.
    expect(await readFakePage({ ...env, LINK_SIGNING_SECRET: "another-secret" }, reference, query)).toBeNull();
  });

  it("reads its own callbacks, and nothing forged, changed or unsigned", async () => {
    const page = (await readFakePage(env, ...pageOfPayment(await gateway.createPayment(paymentRequest()))))!;
    const paid = new Request(`${ORIGIN}${await fakeCallbackAction(env, page, "paid")}`, { method: "POST" });
    const failed = new Request(`${ORIGIN}${await fakeCallbackAction(env, page, "failed")}`, { method: "POST" });
    expect(await gateway.verifyCallback(paid)).toEqual({
      gateway: "fake",
      reference: page.reference,
      status: "captured",
      paymentMethod: null,
      message: null,
      details: { outcome: "paid" },
    });
    expect(await gateway.verifyCallback(failed)).toMatchObject({ reference: page.reference, status: "failed" });
    expect((await gateway.verifyCallback(failed))?.message).toBeTruthy();

    // The Pay button's signature on the Fail outcome, or on another reference.
    const swapped = new URL(paid.url);
    swapped.searchParams.set("outcome", "failed");
    expect(await gateway.verifyCallback(new Request(swapped, { method: "POST" }))).toBeNull();
    const moved = new URL(failed.url);
    moved.searchParams.set("reference", (await gateway.createPayment(paymentRequest())).reference);
    expect(await gateway.verifyCallback(new Request(moved, { method: "POST" }))).toBeNull();
    const elsewhere = new URL(paid.url);
    elsewhere.searchParams.set("success_url", "https://evil.example/");
    expect(await readFakeCallback(env, elsewhere.searchParams)).toBeNull();
    // The callback names the page's store, signed: sent to another store's shard, it is refused.
    expect((await readFakeCallback(env, new URL(paid.url).searchParams))?.appId).toBe(page.appId);
    const otherStore = new URL(paid.url);
    otherStore.searchParams.set("app_id", String(page.appId + 1));
    expect(await gateway.verifyCallback(new Request(otherStore, { method: "POST" }))).toBeNull();
    const unsigned = new URL(paid.url);
    unsigned.searchParams.delete("signature");
    expect(await gateway.verifyCallback(new Request(unsigned, { method: "POST" }))).toBeNull();
    // A page's signature is no callback's.
    const pageQuery = pageOf((await gateway.createPayment(paymentRequest())).paymentUrl).query;
    expect(await readFakeCallback(env, pageQuery)).toBeNull();
  });

  it("refunds at once", async () => {
    const refund = await gateway.refund({ paymentReference: "fake_x", amountMinor: 500, currency: "SAR", reason: "r" });
    expect(refund.status).toBe("refunded");
    expect(refund.reference).toMatch(/^fake_rf_[A-Za-z0-9_-]{16}$/);
    expect(refund.details).toEqual({ payment_reference: "fake_x", amount_minor: 500 });
  });

  it("is refused in production: no payment, no page, no callback", async () => {
    const started = await gateway.createPayment(paymentRequest());
    const { reference, query } = pageOf(started.paymentUrl);
    const prod = fakeGateway({ ...env, ENVIRONMENT: "production" });
    await expect(prod.createPayment(paymentRequest())).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(await readFakePage({ ...env, ENVIRONMENT: "production" }, reference, query)).toBeNull();
    const page = (await readFakePage(env, reference, query))!;
    const paid = new Request(`${ORIGIN}${await fakeCallbackAction(env, page, "paid")}`, { method: "POST" });
    expect(await prod.verifyCallback(paid)).toBeNull();
  });
});

function pageOfPayment(started: { paymentUrl: string }): [string, URLSearchParams] {
  const { reference, query } = pageOf(started.paymentUrl);
  return [reference, query];
}

describe("cardGateway", () => {
  it("is the fake by default (wrangler.toml) and when unset, MyFatoorah when named", () => {
    expect(env.CARD_GATEWAY).toBe("fake");
    expect(cardGateway(env).id).toBe("fake");
    expect(cardGateway({ ...env, CARD_GATEWAY: "" }).id).toBe("fake");
    expect(cardGateway({ ...env, CARD_GATEWAY: "myfatoorah" }).id).toBe("myfatoorah");
    expect(cardGatewayById(env, "myfatoorah").id).toBe("myfatoorah");
  });

  it("fails every call of an unknown gateway as unavailable, naming the known ones", async () => {
    const gateway = cardGateway({ ...env, CARD_GATEWAY: "pigeon" });
    await expect(gateway.createPayment(paymentRequest())).rejects.toThrow(/pigeon is not one of fake, myfatoorah/);
    await expect(
      gateway.refund({ paymentReference: "1", amountMinor: 1, currency: "SAR", reason: "" }),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

describe("pageCsp", () => {
  it("allows no script, and forms only to this Worker and the checkout's URLs", () => {
    const csp = pageCsp(["https://shop.example.com/paid?x=1", "myapp://paid", "not a url", ""]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(csp).toContain("form-action 'self' https://shop.example.com myapp:");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
