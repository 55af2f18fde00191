import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { forgetCustomerStanding } from "../../src/core/auth";
import { forgetHeldApp } from "../../src/core/tenancy";
import { directoryOf } from "../../src/db/shards";
import { HELD_CHECKS } from "../helpers/d1-waits";
import { shardFor, shardNameFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import {
  CARTS,
  keyedCheckoutWaits,
  MY_ORDERS,
  rowOf,
  type Shopper,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
} from "../orders/helpers";

/**
 * A customer request's admission (its store live, its customer neither blocked nor deleted) is read
 * beside the handler's first reads, not before them: one round trip for all, the handler's writes
 * held until it passes, and a refusal answered whatever the handler made of its reads. Counted in
 * round trips (test/helpers/d1-waits.ts), never timed. Nothing here relies on what an isolate held:
 * each case forgets the store's and the customer's checks first, as a cold isolate has them.
 */

/**
 * The test's D1, whose standing check gets no answer until another statement has been sent to the
 * store's shard: a request that waited for it before its own reads would never be answered (and the
 * test would fail on its timeout). So "beside" is proven by order, not by a clock. The store's check
 * is the directory's read, held the same way: the customer's token names the store's shard
 * (src/db/session.ts), so the request starts there without waiting for the directory.
 */
function checksAnsweredAfterTheHandlersRead() {
  let release!: () => void;
  const handlerSent = new Promise<void>((r) => {
    release = r;
  });
  const seen = { checks: 0, others: 0 };
  const held = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const s = stmt as unknown as Record<string, unknown>;
    for (const name of ["all", "raw", "first", "run"] as const) {
      const run = stmt[name].bind(stmt) as (...a: unknown[]) => Promise<unknown>;
      s[name] = async (...a: unknown[]) => {
        await handlerSent;
        return run(...a);
      };
    }
    const bind = stmt.bind.bind(stmt);
    s.bind = (...v: unknown[]) => held(bind(...v));
    return stmt;
  };
  const database = <T extends D1Database | D1DatabaseSession>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === "prepare")
          return (sql: string) => {
            if (HELD_CHECKS.test(sql)) {
              seen.checks++;
              return held(t.prepare(sql));
            }
            seen.others++;
            release();
            return t.prepare(sql);
          };
        if (prop === "batch")
          return (list: D1PreparedStatement[]) => {
            release();
            return t.batch(list);
          };
        if (prop === "withSession") return (c?: string) => database((t as D1Database).withSession(c));
        const v = Reflect.get(t, prop, t);
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  return {
    env: { ...env, DIRECTORY: database(env.DIRECTORY), [shardNameFor(A)]: database(shardFor(A)) } as Env,
    seen,
  };
}

const A = 8261;

beforeAll(async () => {
  await storeFor(A);
});

/** Sets a row's value behind the API's back, and forgets what this isolate held of it. */
async function setBlocked(s: Shopper, blocked: boolean) {
  await shardFor(A)
    .prepare("UPDATE customers SET is_blocked = ? WHERE id = ?")
    .bind(blocked ? 1 : 0, s.id)
    .run();
  forgetCustomerStanding(A, s.id);
}

async function setSuspended(suspended: boolean) {
  // The directory's row (what requests check) and the shard's copy, as the platform's suspension writes them.
  const at = suspended ? new Date().toISOString() : null;
  const update = "UPDATE apps SET suspended_at = ? WHERE id = ?";
  await Promise.all([shardFor(A), directoryOf(env)].map((d1) => d1.prepare(update).bind(at, A).run()));
  forgetHeldApp(A);
}

const cold = (s: Shopper) => {
  forgetHeldApp(A);
  forgetCustomerStanding(A, s.id);
};

const ordersOfCart = async (cartId: number) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM orders WHERE cart_id = ?", cartId)).n;

const keyRows = async (key: string) =>
  (await rowOf<{ n: number }>("SELECT count(*) AS n FROM idempotency_keys WHERE app_id = ? AND key = ?", A, key)).n;

describe("A customer's admission beside the handler's reads", () => {
  it("a read by a cold isolate sends its own read before the store's and the customer's checks are answered", async () => {
    const s = await shopperOf(A);
    cold(s);
    const d1 = checksAnsweredAfterTheHandlersRead();
    const res = await call(MY_ORDERS, { token: s.token, appId: A, env: d1.env });
    expect(res.status).toBe(200);
    expect((await json(res)).results).toEqual([]);
    // Both checks were made (cold), and the read went out without waiting for them.
    expect(d1.seen.checks).toBe(2);
    expect(d1.seen.others).toBeGreaterThan(0);
    // Counted: one round trip for the directory's read of the store, the standing's check and the
    // read, since the token names the store's shard.
    cold(s);
    const { res: again, waits } = await callWaits(MY_ORDERS, { token: s.token, appId: A });
    expect(again.status).toBe(200);
    expect(waits).toEqual({ total: 1, beyondAuth: 1 });
  });

  it("a blocked customer's read is refused, with nothing of what the handler read", async () => {
    const s = await shopperOf(A);
    const tea = await stocked(A, 1000, 5);
    const cart = await json(await s.as(CARTS, { method: "POST", body: { items: [{ item_id: tea.id, qty: 1 }] } }));
    await setBlocked(s, true);
    const res = await s.as(`${CARTS}${cart.id}/`);
    const body = await problem(res);
    expect(res.status).toBe(403);
    expect(body.code).toBe("customer_blocked");
    expect(body).not.toHaveProperty("cart_items");
    expect(body).not.toHaveProperty("total_cart_price");
  });

  it("a suspended store's customer read is refused, and its 403 still comes before a bad token's 401", async () => {
    const s = await shopperOf(A);
    await setSuspended(true);
    try {
      const read = await s.as(MY_ORDERS);
      expect(read.status).toBe(403);
      expect((await problem(read)).code).toBe("app_suspended");
      const badToken = await call(MY_ORDERS, { token: "a.b.c", appId: A });
      expect(badToken.status).toBe(403);
      expect((await problem(badToken)).code).toBe("app_suspended");
    } finally {
      await setSuspended(false);
    }
    expect((await s.as(MY_ORDERS)).status).toBe(200);
  });

  it("a keyed Checkout of a blocked customer writes nothing and releases its key; unblocked, the same key runs", async () => {
    const s = await shopperOf(A);
    const tea = await stocked(A, 1000, 5);
    const cart = await json(await s.as(CARTS, { method: "POST", body: { items: [{ item_id: tea.id, qty: 2 }] } }));
    const key = `admission-${cart.id}`;
    const keyed = () => keyedCheckoutWaits(A, s, cart.id, key);
    await setBlocked(s, true);
    const refused = await keyed();
    expect(refused.res.status).toBe(403);
    expect((await problem(refused.res)).code).toBe("customer_blocked");
    expect(await ordersOfCart(cart.id)).toBe(0);
    expect(await stockOf(tea.id)).toBe(5);
    // Released, not kept for replay: the refusal is not the key's answer.
    expect(await keyRows(key)).toBe(0);

    await setBlocked(s, false);
    cold(s);
    const placed = await keyed();
    const result = await json(placed.res);
    expect(placed.res.status, JSON.stringify(result)).toBe(201);
    expect(placed.res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await ordersOfCart(cart.id)).toBe(1);
    expect(await stockOf(tea.id)).toBe(3);
    // Cold: the directory's read of the store, the standing's check and the key's claim in one round
    // trip (the token names the shard), then the one batch.
    expect(placed.waits.total).toBe(2);
    expect(placed.waits.beyondAuth).toBe(2);
  });

  it("Checkout by a cold isolate sends its reads before the checks are answered, and places the order once they pass", async () => {
    const s = await shopperOf(A);
    const tea = await stocked(A, 1000, 5);
    const cart = await json(await s.as(CARTS, { method: "POST", body: { items: [{ item_id: tea.id, qty: 1 }] } }));
    cold(s);
    const d1 = checksAnsweredAfterTheHandlersRead();
    const placed = await call(`${CARTS}${cart.id}/checkout/`, {
      method: "POST",
      body: { payment_provider: "cash_on_delivery" },
      token: s.token,
      appId: A,
      env: d1.env,
    });
    expect(placed.status).toBe(201);
    expect(d1.seen.checks).toBe(2);
    expect(await ordersOfCart(cart.id)).toBe(1);
    expect(await stockOf(tea.id)).toBe(4);
  });
});
