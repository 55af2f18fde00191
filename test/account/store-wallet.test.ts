import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { abortUnless, isGuardAbort } from "../../src/core/guards";
import { StoreWalletEntryListSchema, StoreWalletSchema } from "../../src/modules/orders/store-wallet/schemas";
import {
  type StoreWalletEntryInput,
  storeWalletBalanceSql,
  storeWalletEntryStatement,
} from "../../src/modules/orders/store-wallet/service";
import { orders } from "../../src/modules/orders/tables";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, db, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";

const WALLET = "/order/v1/merchant/wallet/";
const ENTRIES = `${WALLET}transactions/`;

let nextStore = 600;
async function freshStore() {
  const appId = ++nextStore;
  await ensureTenant(appId);
  const token = await tokenFor(appId, ["can_retrieve_app_config", "can_update_app_config"]);
  return { appId, token, get: (path: string) => call(path, { token, appId }) };
}

const entry = (
  type: "credit" | "debit",
  amountMinor: StoreWalletEntryInput["amountMinor"],
  more: Partial<StoreWalletEntryInput> = {},
): StoreWalletEntryInput => ({ type, source: "adjustment", amountMinor, orderId: null, ...more });

/** Runs one entry in a batch of its own; true when it was written. */
async function record(appId: number, e: StoreWalletEntryInput): Promise<boolean> {
  const d = db();
  const [result] = await d.batch([storeWalletEntryStatement(d, appId, e)]);
  return ((result as D1Result).meta?.changes ?? 0) === 1;
}

async function ledger(appId: number) {
  const rows = await shardFor(appId)
    .prepare(
      "SELECT id, type, amount_minor AS amount, balance_after_minor AS after FROM store_wallet_entries WHERE app_id = ? ORDER BY id",
    )
    .bind(appId)
    .all<{ id: number; type: string; amount: number; after: number }>();
  return rows.results;
}

async function balance(appId: number) {
  const d = db();
  const [row] = await d.all<{ b: number }>(sql`SELECT ${storeWalletBalanceSql(appId)} AS b`);
  return row!.b;
}

describe("storeWalletEntryStatement: one guarded statement for any batch", () => {
  it("credits and debits, each entry carrying the balance after it", async () => {
    const { appId } = await freshStore();
    expect(await balance(appId)).toBe(0);
    expect(await record(appId, entry("credit", 10_000, { source: "charge", reference: "top-up" }))).toBe(true);
    expect(await record(appId, entry("debit", -3_050, { source: "label" }))).toBe(true);
    expect(await balance(appId)).toBe(6_950);
    expect((await ledger(appId)).map(({ type, amount, after }) => [type, amount, after])).toEqual([
      ["credit", 10_000, 10_000],
      ["debit", -3_050, 6_950],
    ]);
  });

  it("refuses a debit below zero: nothing is written, the batch still lands", async () => {
    const { appId } = await freshStore();
    await record(appId, entry("credit", 500));
    expect(await record(appId, entry("debit", -501))).toBe(false);
    expect(await record(appId, entry("debit", -500))).toBe(true);
    expect(await balance(appId)).toBe(0);
    expect(await record(appId, entry("debit", -1))).toBe(false);
    expect(await ledger(appId)).toHaveLength(2);
  });

  it("a caller that needs the entry aborts its whole batch with `changes() = 1` after it", async () => {
    const { appId } = await freshStore();
    const d = db();
    const error = await d
      .batch([
        d.insert(orders).values({ appId, kind: "purchase", currency: "SAR", subTotalMinor: 100, totalMinor: 100 }),
        storeWalletEntryStatement(d, appId, entry("debit", -100, { source: "label" })),
        abortUnless(d, sql`changes() = 1`, "store wallet covers the label"),
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isGuardAbort(error)).toBe(true);
    expect(
      await shardFor(appId).prepare("SELECT count(*) AS n FROM orders WHERE app_id = ?").bind(appId).first("n"),
    ).toBe(0);
  });

  it("concurrent debits never overdraw: the ledger sums to the balance", async () => {
    const { appId } = await freshStore();
    await record(appId, entry("credit", 5_000));
    const written = await Promise.all(Array.from({ length: 10 }, () => record(appId, entry("debit", -1_000))));
    expect(written.filter(Boolean)).toHaveLength(5);
    const rows = await ledger(appId);
    expect(rows).toHaveLength(6);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(await balance(appId));
    expect(await balance(appId)).toBe(0);
    // Every balance_after is the one before plus the amount, and never negative.
    rows.forEach((r, i) => {
      expect(r.after).toBe((rows[i - 1]?.after ?? 0) + r.amount);
      expect(r.after).toBeGreaterThanOrEqual(0);
    });
  });

  it("takes SQL for the amount, the order and a condition evaluated in the batch", async () => {
    const { appId } = await freshStore();
    const d = db();
    const order = sql`(SELECT max(id) FROM orders WHERE app_id = ${appId})`;
    const credit = (kind: "wallet_topup" | "purchase") =>
      d.batch([
        d.insert(orders).values({ appId, kind, currency: "SAR", subTotalMinor: 2_500, totalMinor: 2_500 }),
        storeWalletEntryStatement(d, appId, {
          type: "credit",
          source: "charge",
          amountMinor: sql`(SELECT total_minor FROM orders WHERE id = ${order})`,
          orderId: order,
          when: sql`(SELECT kind FROM orders WHERE id = ${order}) = 'wallet_topup'`,
        }),
      ]);
    await credit("purchase");
    expect(await ledger(appId)).toEqual([]);
    await credit("wallet_topup");
    const [row] = await ledger(appId);
    expect(row).toMatchObject({ type: "credit", amount: 2_500, after: 2_500 });
    const orderId = await shardFor(appId)
      .prepare("SELECT max(id) AS id FROM orders WHERE app_id = ?")
      .bind(appId)
      .first("id");
    const credited = await shardFor(APP_1)
      .prepare("SELECT order_id FROM store_wallet_entries WHERE id = ?")
      .bind(row!.id)
      .first();
    expect(credited).toEqual({ order_id: orderId });
    // The same order credited twice breaks the unique index: the second batch fails whole.
    await expect(
      d.batch([
        storeWalletEntryStatement(d, appId, entry("credit", 1, { source: "charge", orderId: orderId as number })),
      ]),
    ).rejects.toThrow();
    expect(await balance(appId)).toBe(2_500);
  });

  it("refuses an amount whose sign is not the type's, or not whole", () => {
    const d = db();
    expect(() => storeWalletEntryStatement(d, APP_1, entry("credit", -1))).toThrow(/credit/);
    expect(() => storeWalletEntryStatement(d, APP_1, entry("debit", 1))).toThrow(/debit/);
    expect(() => storeWalletEntryStatement(d, APP_1, entry("credit", 1.5))).toThrow(/whole/);
  });
});

describe("Wallet Details (MA1)", () => {
  it("a store without entries: zero, in the store's currency, nothing pending", async () => {
    const s = await freshStore();
    const res = await s.get(WALLET);
    expect(res.status).toBe(200);
    expect(StoreWalletSchema.strict().parse(await json(res))).toEqual({
      balance: 0,
      currency: "SAR",
      pending_amount: 0,
      updated_at: null,
      recent_entries: [],
    });
  });

  it("the balance, pending top-ups, the currency, and the 20 latest entries newest first", async () => {
    const s = await freshStore();
    const d = db();
    const order = (kind: "wallet_topup" | "purchase", status: "pending" | "completed" | "cancelled", minor: number) =>
      d
        .insert(orders)
        .values({ appId: s.appId, kind, status, currency: "SAR", subTotalMinor: minor, totalMinor: minor });
    await d.batch([
      order("wallet_topup", "pending", 10_000),
      order("wallet_topup", "pending", 2_550),
      // Not pending top-ups: paid, cancelled, deleted, or a purchase.
      order("wallet_topup", "completed", 700),
      order("wallet_topup", "cancelled", 800),
      d.insert(orders).values({
        appId: s.appId,
        kind: "wallet_topup",
        isDeleted: true,
        currency: "SAR",
        subTotalMinor: 900,
        totalMinor: 900,
      }),
      order("purchase", "pending", 600),
    ]);
    for (let i = 1; i <= 22; i++) await record(s.appId, entry("credit", i * 100, { reference: `r${i}` }));
    await record(s.appId, entry("debit", -1_000, { source: "fee" }));
    const settings = await call("/api/v1/dashboard/admin/settings/", {
      method: "PATCH",
      token: s.token,
      appId: s.appId,
      body: { currency: "AED" },
    });
    expect(settings.status).toBe(200);

    const w = StoreWalletSchema.strict().parse(await json(await s.get(WALLET)));
    const total = (22 * 23 * 100) / 2 - 1_000;
    expect(w.balance).toBe(total / 100);
    expect(w.currency).toBe("AED");
    expect(w.pending_amount).toBe(125.5);
    expect(w.recent_entries).toHaveLength(20);
    expect(w.recent_entries[0]).toEqual({
      id: expect.any(Number),
      type: "debit",
      source: "fee",
      amount: -10,
      balance_after: total / 100,
      order_id: null,
      reference: null,
      created_at: expect.any(String),
    });
    expect(w.recent_entries[1]).toMatchObject({ type: "credit", amount: 22, reference: "r22" });
    expect(w.updated_at).toBe(w.recent_entries[0]!.created_at);
    const ids = w.recent_entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("lists the whole ledger, paged and filtered", async () => {
    const s = await freshStore();
    for (let i = 1; i <= 5; i++) await record(s.appId, entry("credit", 1_000, { source: "charge" }));
    await record(s.appId, entry("debit", -250, { source: "label" }));
    const page = StoreWalletEntryListSchema.parse(await json(await s.get(`${ENTRIES}?page_size=4`)));
    expect(page.count).toBe(6);
    expect(page.results).toHaveLength(4);
    expect(page.results[0]).toMatchObject({ type: "debit", amount: -2.5, balance_after: 47.5, source: "label" });
    expect(page.next).toContain("page=2");
    const debits = await json(await s.get(`${ENTRIES}?type=debit`));
    expect(debits.count).toBe(1);
    expect((await json(await s.get(`${ENTRIES}?amount__gte=10`))).count).toBe(5);
    expect((await json(await s.get(`${ENTRIES}?order_by=id`))).results[0].balance_after).toBe(10);
    expect((await s.get(`${ENTRIES}?source=gift`)).status).toBe(400);
  });

  it("a store sees only its own wallet", async () => {
    await record(APP_1, entry("credit", 12_345, { reference: "store one" }));
    const token = await tokenFor(APP_2, ["can_retrieve_app_config"]);
    const w = await json(await call(WALLET, { token, appId: APP_2 }));
    expect(w.recent_entries.some((e: { reference: string }) => e.reference === "store one")).toBe(false);
    const list = await json(await call(`${ENTRIES}?reference=x`, { token, appId: APP_2 }));
    expect(list.errors).toHaveProperty("reference");
    const all = await json(await call(ENTRIES, { token, appId: APP_2 }));
    expect(all.results.some((e: { reference: string }) => e.reference === "store one")).toBe(false);
  });

  sharedAuthCases({ method: "GET", path: WALLET, permission: "can_retrieve_app_config" });
  sharedAuthCases({ method: "GET", path: ENTRIES, permission: "can_retrieve_app_config" });
});
