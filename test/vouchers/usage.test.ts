import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emit } from "../../src/core/events/outbox";
import { isGuardAbort } from "../../src/core/guards";
import { orders } from "../../src/modules/orders/tables";
import { releaseVoucherStatements, useVoucherStatements, voucherUsedEventsSql } from "../../src/modules/vouchers";
import { VoucherUsageSchema } from "../../src/modules/vouchers/usage/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, createCustomerFor, serviceCtx, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { call, json, problem } from "../helpers/request";
import { createVoucher, insertOrder, usedEvents } from "./helpers";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

let token: string;
beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
});

const usage = (code: string, body: unknown, headers: Record<string, string> = {}) =>
  call(`/order/v1/merchant/vouchers/${code}/usage/`, { method: "POST", token, appId: APP_1, body, headers });
const ok = async (res: Response) => {
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(200);
  return VoucherUsageSchema.parse(out);
};
const usesOf = (voucherId: number) =>
  shardFor(APP_1)
    .prepare("SELECT order_id, customer_id, released_at FROM voucher_usages WHERE voucher_id = ? ORDER BY id")
    .bind(voucherId)
    .all<{ order_id: number; customer_id: number | null; released_at: string | null }>()
    .then((r) => r.results);
const countOf = async (voucherId: number) =>
  (await shardFor(APP_1)
    .prepare("SELECT usage_count FROM vouchers WHERE id = ?")
    .bind(voucherId)
    .first<{ usage_count: number }>())!.usage_count;

describe("Update Voucher Usage (MV2)", () => {
  it("use: counts the order's use once (a repeat changes nothing); voucher.used with action use", async () => {
    const v = await createVoucher(token, { usage_limit: 10, per_customer_limit: 3 });
    const customer = await createCustomerFor(APP_1);
    const order = await insertOrder(APP_1, customer.id);
    const first = await ok(await usage(v.code.toLowerCase(), { order_id: order, action: "use" }));
    expect(first).toEqual({
      code: v.code,
      usage_count: 1,
      usage_limit: 10,
      per_customer_limit: 3,
      customer_id: customer.id,
      customer_usage_count: 1,
    });
    const again = await ok(await usage(v.code, { order_id: order, customer_id: customer.id, action: "use" }));
    expect(again).toEqual(first);
    expect(await usesOf(v.id)).toEqual([{ order_id: order, customer_id: customer.id, released_at: null }]);
    const events = await usedEvents(v.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.rowId).toBe(events[0]!.id);
    expect(events[0]!.rowId).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(events[0]!.data).toEqual({
      id: v.id,
      code: v.code,
      order_id: order,
      customer_id: customer.id,
      action: "use",
      usage_count: 1,
    });
  });

  it("release: gives the use back (released_at, count − 1), a no-op the second time; use again brings it back", async () => {
    const v = await createVoucher(token);
    const order = await insertOrder(APP_1, null);
    await ok(await usage(v.code, { order_id: order, action: "use" }));
    const released = await ok(await usage(v.code, { order_id: order, action: "release" }));
    expect(released).toMatchObject({ usage_count: 0, customer_id: null, customer_usage_count: null });
    const [use] = await usesOf(v.id);
    expect(use!.released_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await ok(await usage(v.code, { order_id: order, action: "release" }))).usage_count).toBe(0);
    expect((await ok(await usage(v.code, { order_id: order, action: "use" }))).usage_count).toBe(1);
    expect(await usesOf(v.id)).toEqual([{ order_id: order, customer_id: null, released_at: null }]);
    expect((await usedEvents(v.id)).map((e) => [e.data.action, e.data.usage_count])).toEqual([
      ["use", 1],
      ["release", 0],
      ["use", 1],
    ]);
  });

  it("409 voucher_usage_limit_reached past usage_limit; a released use frees its place", async () => {
    const v = await createVoucher(token, { usage_limit: 1 });
    const [o1, o2] = [await insertOrder(APP_1, null), await insertOrder(APP_1, null)];
    await ok(await usage(v.code, { order_id: o1, action: "use" }));
    const res = await usage(v.code, { order_id: o2, action: "use" });
    expect(res.status).toBe(409);
    const p = await problem(res);
    expect(p).toMatchObject({
      code: "voucher_usage_limit_reached",
      limit: "usage_limit",
      usage_count: 1,
      usage_limit: 1,
    });
    expect(await countOf(v.id)).toBe(1);
    await ok(await usage(v.code, { order_id: o1, action: "release" }));
    expect((await ok(await usage(v.code, { order_id: o2, action: "use" }))).usage_count).toBe(1);
  });

  it("409 past the customer's own limit; other customers may still use it", async () => {
    const v = await createVoucher(token, { per_customer_limit: 1 });
    const [a, b] = [await createCustomerFor(APP_1), await createCustomerFor(APP_1)];
    await ok(await usage(v.code, { order_id: await insertOrder(APP_1, a.id), action: "use" }));
    const res = await usage(v.code, { order_id: await insertOrder(APP_1, a.id), action: "use" });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ limit: "per_customer_limit", customer_usage_count: 1 });
    expect(
      (await ok(await usage(v.code, { order_id: await insertOrder(APP_1, b.id), action: "use" }))).usage_count,
    ).toBe(2);
  });

  it("404s: unknown or another store's code, unknown order, unknown customer; 400 for another customer's order", async () => {
    const v = await createVoucher(token);
    const theirs = await createVoucher(await tokenFor(APP_2, ["can_write_order"]), {}, APP_2);
    const customer = await createCustomerFor(APP_1);
    const order = await insertOrder(APP_1, customer.id);
    const anonymous = await insertOrder(APP_1, null);
    // After the caller's orders: a later one of theirs could take the id.
    const theirOrder = (await rowCallerLacks("orders", APP_1, async () => ({ id: await insertOrder(APP_2, null) }))).id;
    const cases: [string, unknown, string][] = [
      ["NOSUCHCODE", { order_id: order, action: "use" }, "voucher_not_found"],
      [theirs.code, { order_id: order, action: "use" }, "voucher_not_found"],
      [v.code, { order_id: 987654321, action: "use" }, "order_not_found"],
      [v.code, { order_id: theirOrder, action: "use" }, "order_not_found"],
      [v.code, { order_id: anonymous, customer_id: 987654321, action: "use" }, "customer_not_found"],
    ];
    for (const [code, body, expected] of cases) {
      const res = await usage(code, body);
      expect(res.status, expected).toBe(404);
      expect((await problem(res)).code).toBe(expected);
    }
    const other = await createCustomerFor(APP_1);
    const mismatch = await usage(v.code, { order_id: order, customer_id: other.id, action: "use" });
    expect(mismatch.status).toBe(400);
    expect((await problem(mismatch)).errors).toHaveProperty(["customer_id"]);
    for (const body of [
      { order_id: order, action: "redeem" },
      { action: "use" },
      { order_id: order, action: "use", x: 1 },
    ]) {
      expect((await usage(v.code, body)).status).toBe(400);
    }
    expect((await usage("a b", { order_id: order, action: "use" })).status).toBe(400);
    expect(await countOf(v.id)).toBe(0);
  });

  it("3 parallel uses for the same order count once", async () => {
    const v = await createVoucher(token, { usage_limit: 10 });
    const order = await insertOrder(APP_1, null);
    const results = await Promise.all([1, 2, 3].map(() => usage(v.code, { order_id: order, action: "use" })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of results) expect((await json(r)).usage_count).toBe(1);
    expect(await countOf(v.id)).toBe(1);
    expect(await usedEvents(v.id)).toHaveLength(1);
  });

  it("takes an Idempotency-Key: a retry replays the answer", async () => {
    const v = await createVoucher(token);
    const order = await insertOrder(APP_1, null);
    const key = crypto.randomUUID();
    const first = await usage(v.code, { order_id: order, action: "use" }, { "Idempotency-Key": key });
    const second = await usage(v.code, { order_id: order, action: "use" }, { "Idempotency-Key": key });
    expect(second.status).toBe(200);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(second)).toEqual(await json(first));
  });

  it("5 parallel uses of a usage_limit=1 voucher by 5 orders: exactly one succeeds", async () => {
    const v = await createVoucher(token, { usage_limit: 1 });
    const orders = await Promise.all(Array.from({ length: 5 }, () => insertOrder(APP_1, null)));
    const results = await Promise.all(orders.map((o) => usage(v.code, { order_id: o, action: "use" })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(await countOf(v.id)).toBe(1);
    expect((await usesOf(v.id)).length).toBe(1);
    expect(await usedEvents(v.id)).toHaveLength(1);
  });
});

describe("useVoucherStatements / releaseVoucherStatements (for checkout)", () => {
  /** A checkout-like batch: the order, then the voucher's use of it, with the events. */
  async function checkout(voucherId: number, customerId: number | null) {
    const ctx = serviceCtx(APP_1);
    const at = new Date().toISOString();
    const orderId = sql`(SELECT max(id) FROM orders)`;
    const insertOrderStmt = ctx.db
      .insert(orders)
      .values({ appId: APP_1, customerId, currency: "SAR", subTotalMinor: 1000, totalMinor: 900 });
    await emit(
      ctx.db,
      ctx.events,
      [insertOrderStmt, ...useVoucherStatements(ctx, { voucherId, customerId, orderId, at })],
      voucherUsedEventsSql(ctx, { orderId, action: "use", at }),
    );
    await ctx.settle();
  }

  it("5 parallel checkouts of a usage_limit=1 voucher: one lands (order, use, count, event), four roll back", async () => {
    const v = await createVoucher(token, { usage_limit: 1 });
    const ordersBefore = (await shardFor(APP_1).prepare("SELECT count(*) AS n FROM orders").first<{ n: number }>())!.n;
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => checkout(v.id, null)));
    const failed = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(failed).toHaveLength(4);
    for (const f of failed) expect(isGuardAbort(f.reason)).toBe(true);
    expect((await shardFor(APP_1).prepare("SELECT count(*) AS n FROM orders").first<{ n: number }>())!.n).toBe(
      ordersBefore + 1,
    );
    expect(await countOf(v.id)).toBe(1);
    expect(await usesOf(v.id)).toHaveLength(1);
    expect((await usedEvents(v.id)).map((e) => e.data.action)).toEqual(["use"]);
  });

  it("refuses a disabled, expired or not-started voucher, and one over the customer's limit", async () => {
    const customer = await createCustomerFor(APP_1);
    const once = await createVoucher(token, { per_customer_limit: 1 });
    await checkout(once.id, customer.id);
    await expect(checkout(once.id, customer.id)).rejects.toSatisfy(isGuardAbort);
    await checkout(once.id, null);
    for (const extra of [
      { status: "disabled" },
      { ends_at: "2020-01-01T00:00:00Z" },
      { starts_at: "2099-01-01T00:00:00Z" },
    ]) {
      const v = await createVoucher(token, extra);
      await expect(checkout(v.id, null)).rejects.toSatisfy(isGuardAbort);
      expect(await countOf(v.id)).toBe(0);
    }
  });

  it("release: count − 1, released_at, one voucher.used release event; a second run is a no-op", async () => {
    const v = await createVoucher(token, { usage_limit: 5 });
    await checkout(v.id, null);
    const orderId = (await usesOf(v.id))[0]!.order_id;
    const release = async () => {
      const ctx = serviceCtx(APP_1);
      const at = new Date().toISOString();
      await emit(
        ctx.db,
        ctx.events,
        releaseVoucherStatements(ctx, orderId, at),
        voucherUsedEventsSql(ctx, { orderId, action: "release", at }),
      );
      await ctx.settle();
    };
    await release();
    expect(await countOf(v.id)).toBe(0);
    expect((await usesOf(v.id))[0]!.released_at).not.toBeNull();
    await release();
    expect(await countOf(v.id)).toBe(0);
    expect((await usedEvents(v.id)).map((e) => [e.data.action, e.data.usage_count, e.data.order_id])).toEqual([
      ["use", 1, orderId],
      ["release", 0, orderId],
    ]);
  });
});

sharedAuthCases({
  method: "POST",
  path: "/order/v1/merchant/vouchers/ANYCODE/usage/",
  permission: "can_write_order",
  body: { order_id: 1, action: "use" },
});
