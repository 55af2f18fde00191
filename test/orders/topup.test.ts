import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/core/permissions";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, problem, json as read } from "../helpers/request";
import { eventsWhere, orderEventTypes, rowOf, rowsOf, type Store, storeFor, writtenCounts } from "./helpers";

// Stores of this file's own: each test that reads a balance has its own store, so balances are exact.
const CARD = 8504;
const BANK = 8505;
const CHECKS = 8506;
const stores: Record<number, Store> = {};

beforeAll(async () => {
  for (const id of [CARD, BANK, CHECKS]) stores[id] = await storeFor(id);
});

const CHARGE = "/order/v1/merchant/wallet/charge/";
const WALLET = "/order/v1/merchant/wallet/";
const charge = (appId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  stores[appId]!.as(CHARGE, { method: "POST", body, headers });

async function charged(appId: number, body: Record<string, unknown>) {
  const res = await charge(appId, body);
  const out = await read(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  expect(schemaErrors("chargeWallet", out, "201")).toEqual([]);
  return out;
}

async function walletOf(appId: number) {
  const res = await stores[appId]!.as(WALLET);
  const out = await read(res);
  expect(res.status, JSON.stringify(out)).toBe(200);
  expect(schemaErrors("getStoreWallet", out)).toEqual([]);
  return out;
}

const entriesOf = (appId: number) =>
  rowsOf(
    "SELECT type, source, amount_minor, balance_after_minor, order_id FROM store_wallet_entries WHERE app_id = ? ORDER BY id",
    appId,
  );
const chargedEvents = async (appId: number, orderId: number) =>
  (await eventsWhere(appId, ["merchant.wallet.charged"], "order_id", orderId)).map((e) => e.data);

const deps = () => ({ db: db(CARD), appId: CARD, env, waitUntil: (_: Promise<unknown>) => undefined });
const outcome = (reference: string): GatewayOutcome => ({
  gateway: "fake",
  reference,
  status: "captured",
  paymentMethod: "visa_master",
  message: null,
  details: { outcome: "paid" },
});

/** Opens the pay link (303 to the development gateway's page): the payment's reference. */
async function startPayment(paymentUrl: string) {
  const u = new URL(paymentUrl);
  const res = await call(u.pathname + u.search, { appId: null });
  expect(res.status, await res.clone().text()).toBe(303);
  return /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(res.headers.get("location")!)![1]!;
}

describe("Charge Wallet (MA2) by card", () => {
  it("a pending wallet_topup order without VAT; paying it credits the store wallet once", async () => {
    const r = await charged(CARD, { amount: 100, payment_provider: "card", lang: "en" });
    const orderId = r.order.id as number;
    expect(r).toMatchObject({
      sub_total_amount: 100,
      total_amount: 100,
      total_amount_with_redeem: 100,
      wallet_redeem_amount: 0,
      tax_amount: 0,
      tax_percentage: 0,
      total_amount_excluding_tax: 100,
      currency: "SAR",
      vouchers: [],
    });
    expect(r.payment_url).toMatch(new RegExp(`^https://api\\.test/order/v1/checkout/${orderId}/\\?entity=order&`));
    expect(r.order).toMatchObject({
      app_id: CARD,
      kind: "wallet_topup",
      status: "pending",
      payment_status: "unpaid",
      payment_provider: "card",
      customer_id: null,
      cart_id: null,
      invoices: [{ type: "invoice", status: "unpaid", total_amount: 100, serial: "-" }],
    });
    expect(r.order.items).toEqual([
      expect.objectContaining({ item_id: null, qty: 1, total_amount: 100, tax_amount: 0, tax_percentage: 0 }),
    ]);
    const invoice = await rowOf("SELECT * FROM invoices WHERE order_id = ?", orderId);
    expect(invoice).toMatchObject({ tax_minor: 0, tax_percentage_bp: 0, total_minor: 10000, customer_id: null });
    expect(await rowsOf("SELECT tax_minor, total_minor FROM invoice_items WHERE invoice_id = ?", invoice.id)).toEqual([
      { tax_minor: 0, total_minor: 10000 },
    ]);
    // Not paid yet: pending, not in the balance.
    expect(await walletOf(CARD)).toMatchObject({ balance: 0, pending_amount: 100, recent_entries: [] });
    expect(await chargedEvents(CARD, orderId)).toEqual([]);

    // Paid through the gateway: the wallet credited, the top-up completed.
    const reference = await startPayment(r.payment_url);
    expect((await applyGatewayOutcome(deps(), outcome(reference)))!.status).toBe("captured");
    const wallet = await walletOf(CARD);
    expect(wallet).toMatchObject({ balance: 100, pending_amount: 0, currency: "SAR" });
    expect(wallet.recent_entries).toEqual([
      expect.objectContaining({ type: "credit", source: "charge", amount: 100, balance_after: 100, order_id: orderId }),
    ]);
    expect(await entriesOf(CARD)).toEqual([
      { type: "credit", source: "charge", amount_minor: 10000, balance_after_minor: 10000, order_id: orderId },
    ]);
    expect(await chargedEvents(CARD, orderId)).toEqual([{ order_id: orderId, amount: 100, balance: 100 }]);
    expect(await rowOf("SELECT status, payment_status FROM orders WHERE id = ?", orderId)).toEqual({
      status: "completed",
      payment_status: "paid",
    });
    expect((await rowOf("SELECT status, serial FROM invoices WHERE order_id = ?", orderId)).serial).toMatch(/^INV-/);
    expect(await orderEventTypes(CARD, orderId)).toEqual(["order.created", "order.paid", "order.completed"]);

    // The same capture again (a repeated callback), and two at once: nothing more.
    expect((await applyGatewayOutcome(deps(), outcome(reference)))!.status).toBe("unchanged");
    const again = await Promise.all([
      applyGatewayOutcome(deps(), outcome(reference)),
      applyGatewayOutcome(deps(), outcome(reference)),
    ]);
    expect(again.map((x) => x!.status)).toEqual(["unchanged", "unchanged"]);
    expect((await walletOf(CARD)).balance).toBe(100);
    expect(await entriesOf(CARD)).toHaveLength(1);
    expect(await chargedEvents(CARD, orderId)).toHaveLength(1);

    // The ledger lists it too.
    const listed = await read(await stores[CARD]!.as(`${WALLET}transactions/`));
    expect(listed).toMatchObject({ count: 1, results: [{ order_id: orderId, amount: 100, balance_after: 100 }] });

    // Its payment is not given back by Refund Invoice: the balance it bought stays in the wallet.
    const counts = await writtenCounts(CARD);
    const refund = await stores[CARD]!.as(`/order/v1/merchant/invoices/${invoice.id}/refund/`, {
      method: "POST",
      body: { refund_reason: "Changed my mind" },
    });
    expect(refund.status).toBe(409);
    expect(await problem(refund)).toMatchObject({ code: "invalid_state_transition", allowed_actions: [] });
    expect(await writtenCounts(CARD)).toEqual(counts);
    expect((await walletOf(CARD)).balance).toBe(100);
  });

  it("two top-ups paid at once: each credited once, the balance their sum", async () => {
    const before = (await walletOf(CARD)).balance;
    const [a, b] = await Promise.all([
      charged(CARD, { amount: 10.25, payment_provider: "card" }),
      charged(CARD, { amount: 4.75, payment_provider: "card" }),
    ]);
    const refs = await Promise.all([startPayment(a.payment_url), startPayment(b.payment_url)]);
    const results = await Promise.all(refs.map((ref) => applyGatewayOutcome(deps(), outcome(ref))));
    expect(results.map((x) => x!.status)).toEqual(["captured", "captured"]);
    expect((await walletOf(CARD)).balance).toBe(before + 15);
    const entries = await entriesOf(CARD);
    expect(entries.map((e) => e.balance_after_minor)).toEqual(
      entries.map((_, i) => entries.slice(0, i + 1).reduce((s, e) => s + e.amount_minor, 0)),
    );
  });
});

describe("Charge Wallet (MA2) by bank transfer", () => {
  it("pending review until the merchant captures it (MO10); credited once, even when captured twice", async () => {
    const r = await charged(BANK, { amount: 250.5, payment_provider: "bank_transfer" });
    const orderId = r.order.id as number;
    expect(r.payment_url).toBeNull();
    expect(r.order).toMatchObject({
      kind: "wallet_topup",
      status: "pending",
      payment_status: "pending_review",
      payment_provider: "bank_transfer",
    });
    const tx = await rowOf("SELECT * FROM transactions WHERE order_id = ?", orderId);
    expect(tx).toMatchObject({ type: "payment", status: "pending_review", amount_minor: 25050 });
    expect(await walletOf(BANK)).toMatchObject({ balance: 0, pending_amount: 250.5 });

    const capture = (key: string) =>
      stores[BANK]!.as(`/order/v1/merchant/transactions/${tx.id}/capture/`, {
        method: "POST",
        headers: { "Idempotency-Key": key },
      });
    // Two captures at once (different keys): one applies.
    const [first, second] = await Promise.all([capture("topup-a"), capture("topup-b")]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await walletOf(BANK)).toMatchObject({ balance: 250.5, pending_amount: 0 });
    expect(await entriesOf(BANK)).toEqual([
      { type: "credit", source: "charge", amount_minor: 25050, balance_after_minor: 25050, order_id: orderId },
    ]);
    expect(await chargedEvents(BANK, orderId)).toEqual([{ order_id: orderId, amount: 250.5, balance: 250.5 }]);

    // A replay of the winning key answers the same, and credits nothing more.
    const winner = first.status === 200 ? "topup-a" : "topup-b";
    const replay = await capture(winner);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const later = await capture("topup-c");
    expect(later.status).toBe(409);
    expect((await problem(later)).code).toBe("invalid_state_transition");
    expect((await walletOf(BANK)).balance).toBe(250.5);
    expect(await entriesOf(BANK)).toHaveLength(1);
    expect(await chargedEvents(BANK, orderId)).toHaveLength(1);
  });

  it("a declined top-up transfer credits nothing", async () => {
    const before = await walletOf(BANK);
    const r = await charged(BANK, { amount: 30, payment_provider: "bank_transfer" });
    const tx = await rowOf("SELECT id FROM transactions WHERE order_id = ?", r.order.id);
    const res = await stores[BANK]!.as(`/order/v1/merchant/transactions/${tx.id}/decline/`, {
      method: "POST",
      body: { reason: "Never arrived." },
    });
    expect(res.status).toBe(200);
    expect(await walletOf(BANK)).toMatchObject({ balance: before.balance, pending_amount: 0 });
    expect(await chargedEvents(BANK, r.order.id)).toEqual([]);
    expect((await rowOf("SELECT status FROM orders WHERE id = ?", r.order.id)).status).toBe("cancelled");
  });
});

describe("Charge Wallet (MA2): refused", () => {
  it("400 below 1.00, past 2 decimals, above the maximum, another provider or field; nothing written", async () => {
    const counts = await writtenCounts(CHECKS);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0.99 }, "amount"],
      [{ amount: 0 }, "amount"],
      [{ amount: -5 }, "amount"],
      [{ amount: 1.001 }, "amount"],
      [{ amount: 10.123 }, "amount"],
      [{ amount: 1_000_000.01 }, "amount"],
      [{ amount: "10" }, "amount"],
      [{}, "amount"],
      [{ amount: 10, payment_provider: "wallet" }, "payment_provider"],
      [{ amount: 10, payment_provider: "cash_on_delivery" }, "payment_provider"],
      [{ amount: 10, success_url: "not a url" }, "success_url"],
      [{ amount: 10, customer_id: 1 }, "customer_id"],
    ];
    for (const [body, field] of cases) {
      const res = await charge(CHECKS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const errors = (await problem(res)).errors ?? {};
      expect(Object.keys(errors), JSON.stringify(body)).toContain(field);
    }
    expect(await writtenCounts(CHECKS)).toEqual(counts);
    // The bounds themselves are fine.
    expect((await charged(CHECKS, { amount: 1 })).total_amount).toBe(1);
    expect((await charged(CHECKS, { amount: 1_000_000 })).total_amount).toBe(1_000_000);
  });

  it("403 for a token without can_update_app_config; 401 without a token", async () => {
    const counts = await writtenCounts(CHECKS);
    const token = await tokenFor(
      CHECKS,
      PERMISSIONS.filter((p) => p !== "can_update_app_config"),
    );
    const res = await call(CHARGE, { method: "POST", body: { amount: 10 }, token, appId: CHECKS });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("missing_permission");
    const anonymous = await call(CHARGE, { method: "POST", body: { amount: 10 }, appId: CHECKS });
    expect(anonymous.status).toBe(401);
    expect(await writtenCounts(CHECKS)).toEqual(counts);
    // Reading the wallet needs only can_retrieve_app_config.
    const reader = await tokenFor(CHECKS, ["can_retrieve_app_config"]);
    expect((await call(WALLET, { token: reader, appId: CHECKS })).status).toBe(200);
    expect((await call(CHARGE, { method: "POST", body: { amount: 10 }, token: reader, appId: CHECKS })).status).toBe(
      403,
    );
  });
});
