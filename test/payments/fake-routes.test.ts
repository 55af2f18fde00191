import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { payLink } from "../../src/modules/orders/orders/views";
import { fakeGateway } from "../../src/modules/orders/payments/gateways/fake";
import { db, ensureTenant } from "../helpers/factories";
import { problem } from "../helpers/request";
import { ORIGIN, paymentRequest } from "./helpers";
import { eventsOf, pathOf, pendingCardOrder, send, setReference, stateOf } from "./orders";

const APP = 71;
const SUCCESS = "https://shop.example.com/paid?order=1";
const ERROR = "https://shop.example.com/failed?order=1";

/** A pending card order whose payment the fake started: its page's path. */
async function started(urls: { successUrl?: string; errorUrl?: string } = {}) {
  const p = await pendingCardOrder(APP);
  const start = await fakeGateway(env).createPayment(
    paymentRequest({
      transactionId: p.transactionId,
      orderId: p.orderId,
      appId: APP,
      successUrl: urls.successUrl ?? SUCCESS,
      errorUrl: urls.errorUrl ?? ERROR,
    }),
  );
  await setReference(p, start.reference);
  return { p, page: pathOf(start.paymentUrl), reference: start.reference };
}

/** The page's two form actions (Pay, then Fail). */
async function actionsOf(page: string) {
  const res = await send(page);
  expect(res.status).toBe(200);
  const html = await res.text();
  const actions = [...html.matchAll(/<form method="post" action="([^"]+)">/g)].map((m) =>
    m[1]!.replaceAll("&amp;", "&"),
  );
  expect(actions).toHaveLength(2);
  return { pay: actions[0]!, fail: actions[1]! };
}

/** A button press as a browser sends it: a form POST with an empty body (`Content-Length: 0`). */
const press = (action: string, over: RequestInit & { env?: Record<string, unknown> } = {}) =>
  send(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "0" },
    ...over,
  });

const pending = { transaction: "pending", order: "pending", paymentStatus: "unpaid", invoice: "unpaid" };

beforeAll(() => ensureTenant(APP));

describe("the development gateway's page", () => {
  it("shows the order and the amount with Pay and Fail, without a token or app-id, under a strict CSP", async () => {
    const { p, page } = await started();
    const res = await send(page);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' https://shop.example.com");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("125.50 SAR");
    expect(html).toContain(`#${p.orderId}`);
    expect(html).toContain(">Pay</button>");
    expect(html).toContain(">Fail</button>");
    expect(html).not.toContain("<script");
    const { pay, fail } = await actionsOf(page);
    // The store first: db/session.ts sends the callback to its shard.
    expect(pay).toMatch(
      new RegExp(`^/order/v1/payments/fake/callback/\\?app_id=${APP}&reference=fake_.+&outcome=paid&`),
    );
    expect(fail).toMatch(/&outcome=failed&/);
  });

  it("speaks Arabic when the checkout did", async () => {
    const p = await pendingCardOrder(APP);
    const start = await fakeGateway(env).createPayment(paymentRequest({ transactionId: p.transactionId, lang: "ar" }));
    const html = await (await send(pathOf(start.paymentUrl))).text();
    expect(html).toContain('lang="ar" dir="rtl"');
    expect(html).toContain("ادفع");
  });

  it("answers a changed amount, URL or signature with 400 invalid_payment_signature", async () => {
    const { page } = await started();
    for (const [name, value] of [
      ["amount_minor", "100"],
      ["success_url", "https://evil.example/"],
      ["currency", "USD"],
      ["signature", "AAAA"],
      ["signature", null],
    ] as const) {
      const url = new URL(page, ORIGIN);
      if (value === null) url.searchParams.delete(name);
      else url.searchParams.set(name, value);
      const res = await send(url.pathname + url.search);
      expect(res.status, `${name}=${value}`).toBe(400);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
  });

  it("answers a malformed reference with 400 validation_error", async () => {
    const res = await send("/order/v1/payments/fake/not-a-reference/");
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("validation_error");
  });

  it("is not served in production", async () => {
    const { page, p } = await started();
    const { pay } = await actionsOf(page);
    for (const res of [
      await send(page, { env: { ENVIRONMENT: "production" } }),
      await press(pay, { env: { ENVIRONMENT: "production" } }),
    ]) {
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("route_not_found");
    }
    expect(await stateOf(p)).toMatchObject(pending);
  });
});

describe("the development gateway's callback", () => {
  it("Pay captures the payment, pays the order and its invoice, then sends the customer to the success URL", async () => {
    const { p, page } = await started();
    const { pay } = await actionsOf(page);
    const res = await press(pay);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(SUCCESS);
    const state = await stateOf(p);
    expect(state).toMatchObject({
      transaction: "captured",
      order: "completed",
      paymentStatus: "paid",
      invoice: "paid",
    });
    expect(state.serial).toMatch(/\d{5}$/);
    const events = await eventsOf(p);
    expect(events).toEqual(expect.arrayContaining(["transaction.captured", "order.paid", "invoice.paid"]));
  });

  it("is idempotent: Pay again, or Fail after Pay, changes nothing and still goes to the success URL", async () => {
    const { p, page } = await started();
    const { pay, fail } = await actionsOf(page);
    expect((await press(pay)).status).toBe(303);
    const before = { state: await stateOf(p), events: await eventsOf(p) };
    for (const action of [pay, fail]) {
      const res = await press(action);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(SUCCESS);
    }
    expect({ state: await stateOf(p), events: await eventsOf(p) }).toEqual(before);
  });

  it("Fail fails the transaction, leaves the order pending, and sends the customer to the error URL", async () => {
    const { p, page } = await started();
    const { fail } = await actionsOf(page);
    const res = await press(fail);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(ERROR);
    expect(await stateOf(p)).toMatchObject({
      transaction: "failed",
      order: "pending",
      paymentStatus: "failed",
      invoice: "unpaid",
    });
    expect(await eventsOf(p)).toContain("transaction.failed");
  });

  it("shows a small result page when the checkout gave no URL", async () => {
    const { p, page } = await started({ successUrl: "", errorUrl: "" });
    const { pay } = await actionsOf(page);
    const res = await press(pay);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await res.text()).toContain("<h1>Paid</h1>");
    expect((await stateOf(p)).transaction).toBe("captured");
  });

  it("takes a POST without any body or content type too", async () => {
    const { p, page } = await started();
    const { pay } = await actionsOf(page);
    expect((await send(pay, { method: "POST" })).status).toBe(303);
    expect((await stateOf(p)).transaction).toBe("captured");
  });

  it("changes nothing on a forged, changed or missing signature", async () => {
    const { p, page } = await started();
    const { pay, fail } = await actionsOf(page);
    const variants = [
      pay.replace(/signature=[^&]+/, "signature=forged"),
      pay.replace(/&signature=[^&]+/, ""),
      pay.replace("outcome=paid", "outcome=failed"),
      fail.replace("outcome=failed", "outcome=paid"),
      pay.replace(/success_url=[^&]+/, `success_url=${encodeURIComponent("https://evil.example/")}`),
      "/order/v1/payments/fake/callback/",
    ];
    for (const action of variants) {
      const res = await press(action);
      expect(res.status, action).toBe(400);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
    expect(await stateOf(p)).toMatchObject(pending);
    expect(await eventsOf(p)).toEqual([]);
  });

  it("answers 404 transaction_not_found for a signed payment that no transaction has", async () => {
    const start = await fakeGateway(env).createPayment(paymentRequest());
    const { pay } = await actionsOf(pathOf(start.paymentUrl));
    const res = await press(pay);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("transaction_not_found");
  });

  it("answers GET on the callback with 405", async () => {
    const res = await send("/order/v1/payments/fake/callback/");
    expect(res.status).toBe(405);
  });
});

describe("a pay link through the development gateway, end to end", () => {
  it("pays an order from its pay link: pay link → page → Pay → success URL", async () => {
    const p = await pendingCardOrder(APP, { reference: null });
    const link = await payLink({ origin: ORIGIN, secret: env.LINK_SIGNING_SECRET }, APP, p.orderId, {
      successUrl: SUCCESS,
      errorUrl: ERROR,
      lang: "en",
    });
    const opened = await send(pathOf(link));
    expect(opened.status).toBe(303);
    const page = opened.headers.get("location")!;
    expect(page.startsWith(`${ORIGIN}/order/v1/payments/fake/fake_`)).toBe(true);
    const { pay } = await actionsOf(pathOf(page));
    const res = await press(pay);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(SUCCESS);
    const rows = await db().all<{ status: string; gateway: string }>(
      sql`SELECT status, gateway FROM transactions WHERE order_id = ${p.orderId} AND provider_reference IS NOT NULL`,
    );
    expect(rows).toEqual([{ status: "captured", gateway: "fake" }]);
    expect(await stateOf(p)).toMatchObject({ order: "completed", paymentStatus: "paid", invoice: "paid" });
  });
});
