import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sha256Hex } from "../../src/core/crypto";
import { countRows, shardFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { depositCashback, type Shopper } from "../orders/helpers";
import { type MealShop, mealCustomerOf, mealShopFor, ORDERS, orderBody } from "./helpers";

/**
 * How long Place Order keeps a customer waiting on D1, counted in round trips one after another
 * beyond the customer's standing check (test/helpers/d1-waits.ts), never timed: the cart's and the
 * prices' reads at once, then the order's one guarded batch. With an `Idempotency-Key` the key's
 * claim goes beside those reads (`idempotent: "with-first-read"`), so the key costs no round trip;
 * what the key promises is kept: the same answer again, one order for concurrent duplicates, 409s
 * for a key held or reused, and a key released by an answer that says "try again".
 */

const A = 9963;
let shop: MealShop;

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(A, 9_210_000);
});
afterAll(() => setClock(null));

/** A new customer with a location, the Keto week's body, and the wallet funded for it unless told. */
async function buyer(funded = true) {
  const c = await mealCustomerOf(shop);
  const { body, term } = await orderBody(shop, c.locationId);
  if (funded) await depositCashback(shop.store, c.shopper.id, (term.priceMinor + term.deliveryMinor) / 100);
  return { shopper: c.shopper, body };
}

const place = (shopper: Shopper, body: Record<string, unknown>, key?: string) =>
  callWaits(ORDERS, {
    method: "POST",
    body,
    token: shopper.token,
    appId: A,
    headers: key === undefined ? {} : { "Idempotency-Key": key },
  });

const ordersOf = (customerId: number) => countRows("orders", `app_id = ${A} AND customer_id = ${customerId}`);
const keyRows = (key: string) => countRows("idempotency_keys", `app_id = ${A} AND key = '${key}'`);
const newKey = () => `meal-${crypto.randomUUID()}`;

describe("D1 round trips of Place Order", () => {
  it("places the order in two round trips, without a key and with one", async () => {
    const plain = await buyer();
    const first = await place(plain.shopper, plain.body);
    const out = await json(first.res);
    expect(first.res.status, JSON.stringify(out)).toBe(201);
    expect(out.order).toMatchObject({ kind: "meal", status: "completed", payment_status: "paid" });
    expect(first.waits.beyondAuth).toBeLessThanOrEqual(2);

    const keyed = await buyer();
    const key = newKey();
    const placed = await place(keyed.shopper, keyed.body, key);
    const keyedOut = await json(placed.res);
    expect(placed.res.status, JSON.stringify(keyedOut)).toBe(201);
    expect(placed.res.headers.get("idempotent-replayed")).toBeNull();
    expect(placed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await ordersOf(keyed.shopper.id)).toBe(1);

    // The same key and body: the first answer again, and no second order.
    const replay = await place(keyed.shopper, keyed.body, key);
    expect(replay.res.status).toBe(201);
    expect(replay.res.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(replay.res)).toEqual(keyedOut);
    expect(await ordersOf(keyed.shopper.id)).toBe(1);
  });
});

describe("Place Order's Idempotency-Key, claimed with the cart's reads", () => {
  it("409 idempotency_key_reused for another body under the key, and nothing placed", async () => {
    const b = await buyer();
    const key = newKey();
    expect((await place(b.shopper, b.body, key)).res.status).toBe(201);
    const other = await place(b.shopper, { ...b.body, notes: "another body" }, key);
    expect(other.res.status).toBe(409);
    expect((await problem(other.res)).code).toBe("idempotency_key_reused");
    expect(await ordersOf(b.shopper.id)).toBe(1);
  });

  it("409 idempotency_key_in_flight with Retry-After while a request holds the key; its reads ran, nothing was written", async () => {
    const b = await buyer();
    const key = newKey();
    // The claim a running request holds: its lease has not expired.
    await shardFor(A)
      .prepare(
        "INSERT INTO idempotency_keys (app_id, principal, key, method, path, body_hash, state, created_at, expires_at) " +
          "VALUES (?, ?, ?, 'POST', ?, ?, 'in_flight', ?, ?)",
      )
      .bind(
        A,
        `customer:${b.shopper.id}`,
        key,
        ORDERS,
        await sha256Hex(JSON.stringify(b.body)),
        new Date().toISOString(),
        new Date(Date.now() + 60_000).toISOString(),
      )
      .run();
    const held = await place(b.shopper, b.body, key);
    expect(held.res.status).toBe(409);
    expect(held.res.headers.get("retry-after")).toBe("1");
    expect((await problem(held.res)).code).toBe("idempotency_key_in_flight");
    expect(await ordersOf(b.shopper.id)).toBe(0);
    expect(await countRows("wallet_entries", `app_id = ${A} AND customer_id = ${b.shopper.id}`)).toBe(1);
  });

  it("concurrent requests with one key: exactly one places the order, the others replay it or are told it is in flight", async () => {
    const b = await buyer();
    const key = newKey();
    const results = await Promise.all([1, 2, 3].map(() => place(b.shopper, b.body, key)));
    const ran = results.filter((r) => r.res.status === 201 && r.res.headers.get("idempotent-replayed") === null);
    expect(ran, results.map((r) => r.res.status).join()).toHaveLength(1);
    for (const r of results) if (r !== ran[0]) expect([201, 409]).toContain(r.res.status);
    expect(await ordersOf(b.shopper.id)).toBe(1);
  });

  it("a refusal is the answer: kept and replayed, as for any keyed write", async () => {
    const b = await buyer(false);
    const key = newKey();
    const refused = await place(b.shopper, b.body, key);
    expect(refused.res.status).toBe(409);
    const body = await problem(refused.res);
    expect(body.code).toBe("insufficient_balance");
    const again = await place(b.shopper, b.body, key);
    expect(again.res.status).toBe(409);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect((await problem(again.res)).code).toBe("insufficient_balance");
    expect(await ordersOf(b.shopper.id)).toBe(0);
  });

  it("an answer that says 'try again' releases the key: the next request with it runs", async () => {
    const first = await buyer();
    const reference = `meal-ref-${crypto.randomUUID()}`;
    expect((await place(first.shopper, { ...first.body, reference })).res.status).toBe(201);
    const b = await buyer();
    const key = newKey();
    const taken = await place(b.shopper, { ...b.body, reference }, key);
    expect(taken.res.status).toBe(409);
    expect((await problem(taken.res)).code).toBe("conflict");
    expect(await keyRows(key)).toBe(0);
    const retried = await call(ORDERS, {
      method: "POST",
      body: { ...b.body, reference: `${reference}-2` },
      token: b.shopper.token,
      appId: A,
      headers: { "Idempotency-Key": key },
    });
    expect(retried.status, await retried.clone().text()).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await ordersOf(b.shopper.id)).toBe(1);
  });
});
