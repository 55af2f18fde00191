import { beforeAll, describe, expect, it } from "vitest";
import { minorOfMajor } from "../../src/core/money";
import { expiringOf } from "../../src/modules/customers/wallets/expiring";
import { WalletSchema, WalletUpdateSchema } from "../../src/modules/customers/wallets/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, createCustomerFor, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";

const base = (id: number) => `/order/v1/merchant/customers/${id}/wallet/`;
let token: string;

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
});

const newCustomer = async (appId = APP_1) => (await createCustomerFor(appId, { name: "Wallet test" })).id;

/** An order of the customer (nothing but the row: the wallet only asks whose it is). */
const newOrder = async (customerId: number | null, appId = APP_1) =>
  (await shardFor(appId)
    .prepare(
      "INSERT INTO orders (app_id, customer_id, currency, sub_total_minor, total_minor) VALUES (?, ?, 'SAR', 0, 0) RETURNING id",
    )
    .bind(appId, customerId)
    .first<{ id: number }>())!.id;

const send = (id: number, path: string, body: unknown, headers: Record<string, string> = {}, as = token) =>
  call(`${base(id)}${path}`, { method: "POST", token: as, appId: APP_1, body, headers });
const wallet = async (id: number) => {
  const res = await call(base(id), { token, appId: APP_1 });
  expect(res.status).toBe(200);
  return WalletSchema.parse(await json(res));
};

type Entry = { id: number; kind: string; type: string; amount: number; balance_after: number };
/** On the store's shard: ids are unique per shard only. */
const LEDGER = "SELECT id, kind, type, amount, balance_after FROM wallet_entries WHERE customer_id = ? AND app_id = ?";
const ledgerOf = async (id: number, appId = APP_1) =>
  (await shardFor(appId).prepare(`${LEDGER} ORDER BY id`).bind(id, appId).all<Entry>()).results;

async function walletEvents(id: number, appId = APP_1) {
  const rows = await shardFor(appId)
    .prepare(
      "SELECT payload FROM outbox_events WHERE type = 'customer.wallet.updated' AND app_id = ? AND json_extract(payload, '$.data.customer_id') = ? ORDER BY rowid",
    )
    .bind(appId, id)
    .all<{ payload: string }>();
  return rows.results.map((r) => JSON.parse(r.payload) as { app_id: number; data: Record<string, unknown> });
}

describe("Customer Wallet Details (MW1)", () => {
  it("a new customer's wallet: zero balances, no entries, nothing lapsing", async () => {
    const id = await newCustomer();
    expect(await wallet(id)).toEqual({
      customer_id: id,
      points_balance: 0,
      cashback_balance: 0,
      currency: "SAR",
      expiring: [],
      recent_entries: [],
    });
  });

  it("serves the last 20 entries, newest first, of both kinds", async () => {
    const id = await newCustomer();
    for (let i = 1; i <= 12; i++) {
      expect((await send(id, "deposit-points/", { amount: i, reason: `p${i}` })).status).toBe(201);
      expect((await send(id, "deposit-cashback/", { amount: i / 10, reason: `c${i}` })).status).toBe(201);
    }
    const w = await wallet(id);
    expect(w.points_balance).toBe(78);
    expect(w.cashback_balance).toBe(7.8);
    expect(w.recent_entries).toHaveLength(20);
    const ids = w.recent_entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(w.recent_entries[0]).toMatchObject({ kind: "cashback", type: "deposit", amount: 1.2, balance_after: 7.8 });
    expect(w.recent_entries[1]).toMatchObject({ kind: "points", amount: 12, balance_after: 78, reason: "p12" });
  });

  it("tells what lapses and when: redemptions use the soonest-lapsing amounts first", async () => {
    const id = await newCustomer();
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await send(id, "deposit-points/", { amount: 100, reason: "promo", expires_at: later });
    await send(id, "deposit-points/", { amount: 50, reason: "gift" });
    await send(id, "deposit-points/", { amount: 40, reason: "flash", expires_at: soon });
    await send(id, "redeem/", { kind: "points", amount: 60 });
    await send(id, "deposit-cashback/", { amount: 5.25, reason: "refund", expires_at: later });
    const w = await wallet(id);
    expect(w.points_balance).toBe(130);
    expect(w.expiring).toEqual([
      { kind: "points", amount: 80, expires_at: later },
      { kind: "cashback", amount: 5.25, expires_at: later },
    ]);
  });

  it("404 customer_not_found for another store's customer, a deleted one, or none", async () => {
    const theirs = (await rowCallerLacks("customers", APP_1, async () => ({ id: await newCustomer(APP_2) }))).id;
    const gone = await newCustomer();
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(gone).run();
    for (const id of [theirs, gone, 987654321]) {
      const res = await call(base(id), { token, appId: APP_1 });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("customer_not_found");
    }
  });
});

describe("Deposit Points (MW2) and Deposit Cashback (MW3)", () => {
  it("201 with the new entry and both balances; one customer.wallet.updated", async () => {
    const id = await newCustomer();
    const res = await send(id, "deposit-points/", { amount: 150, reason: "Birthday", reference: "B-1" });
    expect(res.status).toBe(201);
    const body = WalletUpdateSchema.parse(await json(res));
    expect(body).toMatchObject({ customer_id: id, points_balance: 150, cashback_balance: 0, currency: "SAR" });
    expect(body.entry).toMatchObject({
      kind: "points",
      type: "deposit",
      amount: 150,
      balance_after: 150,
      reason: "Birthday",
      reference: "B-1",
      order_id: null,
      expires_at: null,
    });
    const cash = WalletUpdateSchema.parse(
      await json(await send(id, "deposit-cashback/", { amount: 25.5, reason: "Refund" })),
    );
    expect(cash).toMatchObject({ points_balance: 150, cashback_balance: 25.5 });
    expect(cash.entry).toMatchObject({ kind: "cashback", amount: 25.5, balance_after: 25.5 });
    const events = await walletEvents(id);
    expect(events.map((e) => e.data)).toEqual([
      { customer_id: id, kind: "points", type: "deposit", entry_id: body.entry.id, amount: 150, balance_after: 150 },
      {
        customer_id: id,
        kind: "cashback",
        type: "deposit",
        entry_id: cash.entry.id,
        amount: 25.5,
        balance_after: 25.5,
      },
    ]);
    expect(events[0]!.app_id).toBe(APP_1);
  });

  it("cashback: float noise is rounded to the cent; more decimals are a 400 naming amount", async () => {
    const id = await newCustomer();
    const noisy = await send(id, "deposit-cashback/", { amount: 0.1 + 0.2, reason: "noise" });
    expect(noisy.status).toBe(201);
    expect((await json(noisy)).cashback_balance).toBe(0.3);
    const row = await shardFor(APP_1)
      .prepare("SELECT amount FROM wallet_entries WHERE customer_id = ?")
      .bind(id)
      .first();
    expect(row).toEqual({ amount: 30 });
    for (const amount of [1e-9, 0.001, 1.005, 0, -1, 10_000_001, "5"]) {
      const res = await send(id, "deposit-cashback/", { amount, reason: "bad" });
      expect(res.status, String(amount)).toBe(400);
      expect((await problem(res)).errors).toHaveProperty("amount");
    }
  });

  it(
    "400 for points that are not a positive whole number, a missing reason, a past expiry or " + "an unknown field",
    async () => {
      const id = await newCustomer();
      const cases: [unknown, string][] = [
        [{ amount: 1.5, reason: "x" }, "amount"],
        [{ amount: 0, reason: "x" }, "amount"],
        [{ amount: 10 }, "reason"],
        [{ amount: 10, reason: " " }, "reason"],
        [{ amount: 10, reason: "x", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
        [{ amount: 10, reason: "x", expires_at: "tomorrow" }, "expires_at"],
        [{ amount: 10, reason: "x", balance_after: 1_000_000 }, "balance_after"],
      ];
      for (const [body, field] of cases) {
        const res = await send(id, "deposit-points/", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await problem(res)).errors).toHaveProperty([field]);
      }
      expect(await ledgerOf(id)).toEqual([]);
    },
  );

  it("an expiry is stored in UTC", async () => {
    const id = await newCustomer();
    const res = await send(id, "deposit-points/", { amount: 5, reason: "x", expires_at: "2099-01-01T03:00:00+03:00" });
    expect((await json(res)).entry.expires_at).toBe("2099-01-01T00:00:00.000Z");
  });

  it("an Idempotency-Key makes a retried deposit land once", async () => {
    const id = await newCustomer();
    const key = crypto.randomUUID();
    const body = { amount: 40, reason: "retry me" };
    const first = await send(id, "deposit-points/", body, { "Idempotency-Key": key });
    const again = await send(id, "deposit-points/", body, { "Idempotency-Key": key });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await ledgerOf(id)).toHaveLength(1);
    expect(await walletEvents(id)).toHaveLength(1);
    const other = await send(id, "deposit-points/", { ...body, amount: 41 }, { "Idempotency-Key": key });
    expect(other.status).toBe(409);
    expect((await problem(other)).code).toBe("idempotency_key_reused");
  });

  it("404 customer_not_found for another store's customer, and nothing is written", async () => {
    const theirs = (await rowCallerLacks("customers", APP_1, async () => ({ id: await newCustomer(APP_2) }))).id;
    for (const [path, body] of [
      ["deposit-points/", { amount: 1, reason: "x" }],
      ["deposit-cashback/", { amount: 1, reason: "x" }],
      ["redeem/", { kind: "points", amount: 1 }],
    ] as const) {
      const res = await send(theirs, path, body);
      expect(res.status, path).toBe(404);
      expect((await problem(res)).code).toBe("customer_not_found");
    }
    expect(await ledgerOf(theirs, APP_2)).toEqual([]);
    expect(await walletEvents(theirs, APP_2)).toEqual([]);
  });
});

describe("Redeem From Wallet (MW4)", () => {
  it("takes from the balance of its kind; 409 insufficient_balance with what is available", async () => {
    const id = await newCustomer();
    await send(id, "deposit-points/", { amount: 100, reason: "x" });
    await send(id, "deposit-cashback/", { amount: 10, reason: "x" });
    const orderId = await newOrder(id);
    const res = await send(id, "redeem/", {
      kind: "cashback",
      amount: 0.1 + 0.2,
      order_id: orderId,
      reference: "O-77",
    });
    expect(res.status).toBe(201);
    const body = WalletUpdateSchema.parse(await json(res));
    expect(body).toMatchObject({ points_balance: 100, cashback_balance: 9.7 });
    expect(body.entry).toMatchObject({
      kind: "cashback",
      type: "redeem",
      amount: -0.3,
      balance_after: 9.7,
      order_id: orderId,
    });
    const over = await send(id, "redeem/", { kind: "points", amount: 101 });
    expect(over.status).toBe(409);
    expect(await problem(over)).toMatchObject({ code: "insufficient_balance", kind: "points", available: 100 });
    const overCash = await send(id, "redeem/", { kind: "cashback", amount: 9.71 });
    expect(await problem(overCash)).toMatchObject({ code: "insufficient_balance", available: 9.7 });
    expect((await wallet(id)).points_balance).toBe(100);
    expect(await walletEvents(id)).toHaveLength(3);
  });

  it("an order_id must be the customer's order in the store: 404 order_not_found, or 400 on order_id; nothing written", async () => {
    const id = await newCustomer();
    const someoneElse = await newCustomer();
    await send(id, "deposit-points/", { amount: 100, reason: "x" });
    const theirs = await newOrder(someoneElse);
    const topUp = await newOrder(null);
    const otherStore = (await rowCallerLacks("orders", APP_1, async () => ({ id: await newOrder(id, APP_2) }))).id;
    const deleted = await newOrder(id);
    await shardFor(APP_1).prepare("UPDATE orders SET is_deleted = 1 WHERE id = ?").bind(deleted).run();
    for (const orderId of [999_999_999, otherStore, deleted]) {
      const res = await send(id, "redeem/", { kind: "points", amount: 10, order_id: orderId });
      expect(res.status, String(orderId)).toBe(404);
      expect((await problem(res)).code).toBe("order_not_found");
    }
    for (const orderId of [theirs, topUp]) {
      const res = await send(id, "redeem/", { kind: "points", amount: 10, order_id: orderId });
      expect(res.status, String(orderId)).toBe(400);
      const body = await problem(res);
      expect(body.code).toBe("validation_error");
      expect(Object.keys(body.errors ?? {})).toEqual(["order_id"]);
    }
    // An order of another customer is refused even when the balance would not cover it either.
    const both = await send(id, "redeem/", { kind: "points", amount: 1000, order_id: theirs });
    expect(both.status).toBe(400);
    expect((await ledgerOf(id)).map((e) => e.type)).toEqual(["deposit"]);
    expect(await walletEvents(id)).toHaveLength(1);
    // The customer's own order is accepted.
    const mine = await send(id, "redeem/", { kind: "points", amount: 10, order_id: await newOrder(id) });
    expect(mine.status).toBe(201);
  });

  it("400 for fractional points, cashback with more than 2 decimals, or an unknown kind", async () => {
    const id = await newCustomer();
    for (const body of [
      { kind: "points", amount: 1.5 },
      { kind: "cashback", amount: 0.001 },
      { kind: "cashback", amount: 10_000_001 },
      { kind: "stars", amount: 1 },
      { kind: "points", amount: -5 },
    ]) {
      const res = await send(id, "redeem/", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const errors = (await problem(res)).errors ?? {};
      expect(
        Object.keys(errors).some((k) => k === "amount" || k === "kind"),
        JSON.stringify(errors),
      ).toBe(true);
    }
  });

  it("fifty concurrent redemptions never overdraw: exactly 20 of 10 succeed against 200", async () => {
    const id = await newCustomer();
    await send(id, "deposit-points/", { amount: 200, reason: "stock" });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(id, "redeem/", { kind: "points", amount: 10, reference: `r${i}` })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    for (const r of results.filter((x) => x.status === 409))
      expect((await problem(r)).code).toBe("insufficient_balance");
    expect((await wallet(id)).points_balance).toBe(0);
    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(21);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    let balance = 0;
    for (const e of ledger) {
      balance += e.amount;
      expect(e.balance_after).toBe(balance);
      expect(e.balance_after).toBeGreaterThanOrEqual(0);
    }
    // One event per entry, each with the entry's own balance.
    const events = await walletEvents(id);
    expect(events).toHaveLength(21);
    expect(events.map((e) => e.data.entry_id)).toEqual(ledger.map((e) => e.id));
    expect(events.map((e) => e.data.balance_after)).toEqual(ledger.map((e) => e.balance_after));
  });
});

describe("Expiring amounts and money parsing (units)", () => {
  it("expiringOf spends the soonest-lapsing amounts first; the opening balance never lapses", () => {
    const now = "2026-06-01T00:00:00.000Z";
    const a = "2026-07-01T00:00:00.000Z";
    const b = "2026-08-01T00:00:00.000Z";
    const past = "2026-05-01T00:00:00.000Z";
    expect(expiringOf([], 0, now)).toEqual([]);
    expect(
      expiringOf(
        [
          { amount: 30, expiresAt: past },
          { amount: 100, expiresAt: b },
          { amount: 40, expiresAt: a },
          { amount: -50, expiresAt: null },
        ],
        20,
        now,
      ),
    ).toEqual([
      { amount: 20, expiresAt: a },
      { amount: 100, expiresAt: b },
    ]);
    // Spent beyond every lapsing lot: nothing is left to lapse.
    expect(
      expiringOf(
        [
          { amount: 10, expiresAt: a },
          { amount: -15, expiresAt: null },
        ],
        5,
        now,
      ),
    ).toEqual([]);
  });

  it("minorOfMajor rounds float noise and refuses more decimals", () => {
    expect(minorOfMajor(0.1 + 0.2)).toBe(30);
    expect(minorOfMajor(19.99)).toBe(1999);
    expect(minorOfMajor(99_999_999_999.99)).toBe(9_999_999_999_999);
    expect(minorOfMajor(-0)).toBe(0);
    expect(minorOfMajor(-2.5)).toBe(-250);
    for (const bad of [1e-9, 0.001, 1.005, 0.305, Number.NaN, Number.POSITIVE_INFINITY, 1e308])
      expect(minorOfMajor(bad), String(bad)).toBeNull();
  });
});

describe("auth", () => {
  sharedAuthCases({ method: "GET", path: base(1), permission: "can_read_order" });
  sharedAuthCases({
    method: "POST",
    path: `${base(1)}deposit-points/`,
    permission: "can_write_order",
    body: { amount: 1, reason: "x" },
  });
  sharedAuthCases({
    method: "POST",
    path: `${base(1)}deposit-cashback/`,
    permission: "can_write_order",
    body: { amount: 1, reason: "x" },
  });
  sharedAuthCases({
    method: "POST",
    path: `${base(1)}redeem/`,
    permission: "can_write_order",
    body: { kind: "points", amount: 1 },
  });
});
