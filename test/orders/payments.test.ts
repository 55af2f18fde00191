import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { payLink } from "../../src/modules/orders/orders/views";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db } from "../helpers/factories";
import { call, problem, json as read } from "../helpers/request";
import {
  depositCashback,
  eventsWhere,
  M_ORDERS,
  orderEventTypes,
  orderOf,
  rowOf,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
} from "./helpers";

// A store of this file's own.
const A = 8401;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const ORIGIN = "https://api.test";
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** A browser following a link: no token, no app-id. */
const browse = (url: string, method = "GET") => call(pathOf(url), { appId: null, method });

const orderRow = (id: number) => rowOf("SELECT * FROM orders WHERE id = ?", id);
const cardTransactions = (orderId: number) =>
  rowsOf("SELECT * FROM transactions WHERE order_id = ? AND payment_provider = 'card' ORDER BY id", orderId);
const counter = async () =>
  (await rowOf<{ n: number | null }>("SELECT (SELECT last_number FROM invoice_counters WHERE app_id = ?) AS n", A)).n ??
  0;

/** The store's nth serial (the prefix, the year it was paid, five digits). */
const serialOf = (n: number) => `INV-${new Date().getUTCFullYear()}${String(n).padStart(5, "0")}`;

/** A pending card order of a new customer: the checkout result. */
async function cardOrder(qty = 1, priceMinor = 1500, checkoutExtra: Record<string, unknown> = {}) {
  const s = await shopperOf(A);
  const item = await stocked(A, priceMinor, 10);
  const cart = await s.as("/order/v1/carts/", { method: "POST", body: { items: [{ item_id: item.id, qty }] } });
  const cartId = (await read(cart)).id;
  const res = await s.as(`/order/v1/carts/${cartId}/checkout/`, {
    method: "POST",
    body: { payment_provider: "card", lang: "en", ...checkoutExtra },
  });
  const r = await read(res);
  expect(res.status, JSON.stringify(r)).toBe(201);
  return { ...r, shopper: s, item };
}

/** Opens the pay link: 303 to the fake gateway's page; the page URL and the payment's reference. */
async function startPayment(paymentUrl: string) {
  const res = await browse(paymentUrl);
  expect(res.status, await res.clone().text()).toBe(303);
  const page = res.headers.get("location")!;
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(page)?.[1];
  expect(reference).toMatch(/^fake_[A-Za-z0-9_-]{16}$/);
  return { page, reference: reference! };
}

function deps() {
  const pending: Promise<unknown>[] = [];
  return { db: db(), env, waitUntil: (p: Promise<unknown>) => void pending.push(p) };
}

const outcome = (reference: string, over: Partial<GatewayOutcome> = {}): GatewayOutcome => ({
  gateway: "fake",
  reference,
  status: "captured",
  paymentMethod: "mada",
  message: null,
  details: { outcome: "paid" },
  ...over,
});

describe("Pay link (CA14)", () => {
  it("303 to the card gateway's page, with a pending card transaction for what is owed", async () => {
    const r = await cardOrder(2, 1500, { success_url: "https://shop.example.com/ok" });
    expect(r.payment_url.startsWith(`${ORIGIN}/order/v1/checkout/${r.order.id}/?`)).toBe(true);
    const { page, reference } = await startPayment(r.payment_url);
    expect(page.startsWith(`${ORIGIN}/order/v1/payments/fake/${reference}/?`)).toBe(true);
    const query = new URL(page).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      order_id: String(r.order.id),
      amount_minor: "3000",
      currency: "SAR",
      lang: "en",
      success_url: "https://shop.example.com/ok",
      error_url: "",
    });
    const [tx] = await cardTransactions(r.order.id);
    expect(tx).toMatchObject({
      app_id: A,
      type: "payment",
      status: "pending",
      amount_minor: 3000,
      gateway: "fake",
      provider_reference: reference,
      payment_url: page,
      invoice_id: r.order.invoices[0].id,
    });
    expect(query.get("transaction_id")).toBe(String(tx!.id));
    expect((await eventsWhere(A, ["transaction.created"], "order_id", r.order.id)).map((e) => e.data)).toEqual([
      {
        id: tx!.id,
        order_id: r.order.id,
        invoice_id: tx!.invoice_id,
        status: "pending",
        amount: 30,
        payment_provider: "card",
      },
    ]);
  });

  it("a changed or unsigned link is refused (403, 400) and starts nothing", async () => {
    const r = await cardOrder();
    const other = await cardOrder();
    const url = new URL(r.payment_url);
    const changed = (name: string, value: string) => {
      const u = new URL(url);
      u.searchParams.set(name, value);
      return u.toString();
    };
    for (const link of [
      changed("success_url", "https://evil.example.com/"),
      changed("app_id", "1"),
      changed("lang", "ar"),
      changed("signature", "x".repeat(43)),
      // The same signed query on another order's path.
      `${ORIGIN}/order/v1/checkout/${other.order.id}/${url.search}`,
    ]) {
      const res = await browse(link);
      expect(res.status, link).toBe(403);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
    const unsigned = new URL(url);
    unsigned.searchParams.delete("signature");
    expect((await browse(unsigned.toString())).status).toBe(400);
    expect(await cardTransactions(r.order.id)).toEqual([]);
    expect(await cardTransactions(other.order.id)).toEqual([]);
  });

  it("an order that is not a pending card order is a 409 (paid, cancelled, or not paid by card)", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 10);
    await depositCashback(store, s.id, 10);
    const paid = await orderOf(s, [{ item_id: item.id, qty: 1 }], "wallet");
    const cod = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    const links = { origin: ORIGIN, secret: env.LINK_SIGNING_SECRET };
    for (const id of [paid.order.id, cod.order.id]) {
      const res = await browse(await payLink(links, A, id));
      expect(res.status).toBe(409);
      expect(await problem(res)).toMatchObject({ code: "invalid_state_transition" });
    }
    const cancelled = await cardOrder();
    expect(
      (await store.as(`${M_ORDERS}${cancelled.order.id}/`, { method: "PATCH", body: { status: "cancelled" } })).status,
    ).toBe(200);
    const res = await browse(cancelled.payment_url);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "invalid_state_transition", current_status: "cancelled" });
    expect(await cardTransactions(cancelled.order.id)).toEqual([]);
  });
});

describe("applyGatewayOutcome (settling a card payment)", () => {
  it("a capture pays the order: completed, invoice paid with the next serial, transaction captured, events", async () => {
    const r = await cardOrder(1, 2300);
    const { reference } = await startPayment(r.payment_url);
    const before = await counter();
    const result = await applyGatewayOutcome(deps(), outcome(reference));
    const [tx] = await cardTransactions(r.order.id);
    expect(result).toEqual({ appId: A, orderId: r.order.id, transactionId: tx!.id, status: "captured" });
    expect(tx).toMatchObject({ status: "captured", payment_method: "mada" });
    expect(JSON.parse(tx!.provider_details)).toEqual({ reference, outcome: "paid" });
    const order = await orderRow(r.order.id);
    expect(order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      captured_minor: 2300,
      expires_at: null,
    });
    expect(order.paid_at).toBeTruthy();
    const [invoice] = await rowsOf("SELECT * FROM invoices WHERE order_id = ?", r.order.id);
    expect(await counter()).toBe(before + 1);
    expect(invoice).toMatchObject({ status: "paid", serial: serialOf(before + 1) });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).map((e) => e.data.serial)).toEqual([
      invoice!.serial,
    ]);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).map((e) => e.data)).toEqual([
      {
        id: tx!.id,
        order_id: r.order.id,
        invoice_id: invoice!.id,
        status: "captured",
        amount: 23,
        payment_provider: "card",
      },
    ]);
    // The customer and the merchant see it paid; the pay link is spent.
    const mine = await read(await r.shopper.as(`/order/v1/orders/${r.order.id}/`));
    expect(mine).toMatchObject({
      status: "completed",
      payment_url: null,
      invoices: [{ serial: invoice!.serial, status: "paid" }],
    });
    expect((await browse(r.payment_url)).status).toBe(409);

    // The same outcome again changes nothing: one serial, one order.paid.
    expect((await applyGatewayOutcome(deps(), outcome(reference)))!.status).toBe("unchanged");
    expect(await counter()).toBe(before + 1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid", "transaction.captured"], "order_id", r.order.id)).length).toBe(2);
  });

  it("a reference no transaction has changes nothing (null)", async () => {
    expect(await applyGatewayOutcome(deps(), outcome("fake_AAAAAAAAAAAAAAAA"))).toBeNull();
    expect(await applyGatewayOutcome(deps(), { ...outcome("x"), gateway: "myfatoorah" })).toBeNull();
  });

  it("a failure fails the transaction; the order stays pending and payable, and a new attempt can pay it", async () => {
    const r = await cardOrder(2, 1000);
    const first = await startPayment(r.payment_url);
    const failed = await applyGatewayOutcome(
      deps(),
      outcome(first.reference, { status: "failed", message: "Declined", details: { outcome: "failed" } }),
    );
    expect(failed!.status).toBe("failed");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ status: "failed" });
    expect(await orderRow(r.order.id)).toMatchObject({ status: "pending", payment_status: "failed" });
    expect(await stockOf(r.item.id)).toBe(8);
    expect((await eventsWhere(A, ["transaction.failed"], "order_id", r.order.id)).length).toBe(1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created"]);
    expect((await rowsOf("SELECT status, serial FROM invoices WHERE order_id = ?", r.order.id))[0]).toEqual({
      status: "unpaid",
      serial: null,
    });
    // A paid attempt after a failed one (MyFatoorah's page lets the customer retry) pays the order.
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("captured");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", payment_status: "paid" });
    expect((await cardTransactions(r.order.id)).map((t) => t.status)).toEqual(["captured"]);
    // Settled: a repeat of either outcome changes nothing.
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("unchanged");
  });

  it("two captures of the same payment at once: one applies, one serial, one order.paid", async () => {
    const r = await cardOrder();
    const { reference } = await startPayment(r.payment_url);
    const before = await counter();
    const results = await Promise.all([
      applyGatewayOutcome(deps(), outcome(reference)),
      applyGatewayOutcome(deps(), outcome(reference)),
      applyGatewayOutcome(deps(), outcome(reference)),
    ]);
    expect(results.map((x) => x!.status).sort()).toEqual(["captured", "unchanged", "unchanged"]);
    expect(await counter()).toBe(before + 1);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).length).toBe(1);
    expect((await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).length).toBe(1);
  });

  it("six payments of one order captured at once: one pays it, five are recorded and refunded; one serial, one order.paid", async () => {
    const r = await cardOrder(1, 5750);
    const sessions = [];
    for (let i = 0; i < 6; i++) sessions.push(await startPayment(r.payment_url));
    const before = await counter();
    const results = await Promise.all(sessions.map((p) => applyGatewayOutcome(deps(), outcome(p.reference))));
    expect(results.map((x) => x!.status)).toEqual(Array(6).fill("captured"));
    const txs = await cardTransactions(r.order.id);
    const payments = txs.filter((t) => t.type === "payment");
    const refunds = txs.filter((t) => t.type === "refund");
    expect(payments.map((t) => t.status)).toEqual(Array(6).fill("captured"));
    expect(refunds.map((t) => [t.status, t.amount_minor])).toEqual(Array(5).fill(["refunded", 5750]));
    const order = await orderRow(r.order.id);
    expect(order).toMatchObject({
      status: "completed",
      payment_status: "paid",
      captured_minor: 5750,
      refunded_minor: 0,
    });
    // One serial taken, by the one invoice paid.
    expect(await counter()).toBe(before + 1);
    expect(await rowsOf("SELECT status, serial FROM invoices WHERE order_id = ?", r.order.id)).toEqual([
      { status: "paid", serial: serialOf(before + 1) },
    ]);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["invoice.paid"], "order_id", r.order.id)).length).toBe(1);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).length).toBe(6);
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", r.order.id)).length).toBe(5);
  });

  it("concurrent double payments over many orders leave the store's serials gapless", async () => {
    const orders = [];
    for (let i = 0; i < 4; i++) {
      const r = await cardOrder();
      orders.push({ r, a: await startPayment(r.payment_url), b: await startPayment(r.payment_url) });
    }
    const before = await counter();
    await Promise.all(
      orders.flatMap(({ a, b }) => [
        applyGatewayOutcome(deps(), outcome(a.reference)),
        applyGatewayOutcome(deps(), outcome(b.reference)),
      ]),
    );
    expect(await counter()).toBe(before + 4);
    const serials = (
      await rowsOf<{ serial: string }>(
        "SELECT serial FROM invoices WHERE app_id = ? AND serial IS NOT NULL AND serial > ? ORDER BY serial",
        A,
        serialOf(before),
      )
    ).map((x) => x.serial);
    expect(serials).toEqual([1, 2, 3, 4].map((n) => serialOf(before + n)));
  });

  it("a second attempt captured after the first paid the order is recorded and given back, the order paid once", async () => {
    const r = await cardOrder();
    const first = await startPayment(r.payment_url);
    const second = await startPayment(r.payment_url);
    expect((await applyGatewayOutcome(deps(), outcome(first.reference)))!.status).toBe("captured");
    const serial = (await rowOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).serial;
    expect((await applyGatewayOutcome(deps(), outcome(second.reference)))!.status).toBe("captured");
    // The second payment is recorded, then refunded whole through the gateway (a refund transaction).
    expect((await cardTransactions(r.order.id)).map((t) => [t.type, t.status])).toEqual([
      ["payment", "captured"],
      ["payment", "captured"],
      ["refund", "refunded"],
    ]);
    expect((await eventsWhere(A, ["transaction.refunded"], "order_id", r.order.id)).length).toBe(1);
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", captured_minor: 1500 });
    expect(await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).toEqual([{ serial }]);
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await eventsWhere(A, ["transaction.captured"], "order_id", r.order.id)).length).toBe(2);
  });

  // Cancelling leaves a card transaction pending (the customer may still pay at the gateway): a
  // capture that lands then is recorded, and given straight back through the gateway.
  it("a capture that lands after the order was cancelled is still recorded (captured, for a refund)", async () => {
    const r = await cardOrder();
    const { reference } = await startPayment(r.payment_url);
    expect(
      (await store.as(`${M_ORDERS}${r.order.id}/`, { method: "PATCH", body: { status: "cancelled" } })).status,
    ).toBe(200);
    const result = await applyGatewayOutcome(deps(), outcome(reference));
    expect(result!.status).toBe("captured");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ status: "captured" });
    expect((await orderRow(r.order.id)).status).toBe("cancelled");
    const refunds = await rowsOf(
      "SELECT status, amount_minor FROM transactions WHERE order_id = ? AND type = 'refund'",
      r.order.id,
    );
    expect(refunds).toEqual([
      { status: "refunded", amount_minor: (await cardTransactions(r.order.id))[0]!.amount_minor },
    ]);
  });
});

describe("The whole card flow over HTTP (development gateway)", () => {
  const formAction = (html: string, cls: "pay" | "fail") => {
    const m = new RegExp(`<form method="post" action="([^"]+)"><button class="${cls}"`).exec(html);
    expect(m, html).toBeTruthy();
    return `${ORIGIN}${m![1]!.replaceAll("&amp;", "&")}`;
  };

  it("checkout → pay link → the gateway's page → Pay → back to success_url, the order paid", async () => {
    const r = await cardOrder(1, 4999, {
      success_url: "https://shop.example.com/ok?o=1",
      error_url: "https://shop.example.com/ko",
    });
    const { page } = await startPayment(r.payment_url);
    const shown = await browse(page);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(`#${r.order.id}`);
    expect(html).toContain("49.99 SAR");
    const back = await browse(formAction(html, "pay"), "POST");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("https://shop.example.com/ok?o=1");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", payment_status: "paid" });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    // Posting the button again (a reload) goes back to success, changing nothing.
    const again = await browse(formAction(html, "pay"), "POST");
    expect(again.headers.get("location")).toBe("https://shop.example.com/ok?o=1");
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
  });

  it("two gateway sessions' Pay posted at once, three times each: one order.paid, the second payment refunded", async () => {
    const r = await cardOrder(1, 5750, { success_url: "https://shop.example.com/ok" });
    const actions = [];
    for (let i = 0; i < 2; i++) {
      const { page } = await startPayment(r.payment_url);
      actions.push(formAction(await (await browse(page)).text(), "pay"));
    }
    const answers = await Promise.all([...actions, ...actions, ...actions].map((a) => browse(a, "POST")));
    for (const a of answers) expect(a.headers.get("location")).toBe("https://shop.example.com/ok");
    const txs = await cardTransactions(r.order.id);
    expect(txs.map((t) => [t.type, t.status])).toEqual([
      ["payment", "captured"],
      ["payment", "captured"],
      ["refund", "refunded"],
    ]);
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", captured_minor: 5750, refunded_minor: 0 });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).length).toBe(1);
  });

  it("Fail goes to error_url and leaves the order pending; without URLs a result page is shown", async () => {
    const r = await cardOrder(1, 1000, { error_url: "https://shop.example.com/ko" });
    const { page } = await startPayment(r.payment_url);
    const html = await (await browse(page)).text();
    const failed = await browse(formAction(html, "fail"), "POST");
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toBe("https://shop.example.com/ko");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "pending", payment_status: "failed" });

    const plain = await cardOrder();
    const p = await startPayment(plain.payment_url);
    const paid = await browse(formAction(await (await browse(p.page)).text(), "pay"), "POST");
    expect(paid.status).toBe(200);
    expect(paid.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await orderRow(plain.order.id)).toMatchObject({ status: "completed" });
  });

  it("a forged callback changes nothing (400)", async () => {
    const r = await cardOrder();
    const { page, reference } = await startPayment(r.payment_url);
    const action = new URL(formAction(await (await browse(page)).text(), "fail"));
    action.searchParams.set("outcome", "paid");
    const res = await browse(action.toString(), "POST");
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("invalid_payment_signature");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ provider_reference: reference, status: "pending" });
    expect((await orderRow(r.order.id)).status).toBe("pending");
  });
});
