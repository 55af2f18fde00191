import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, json } from "../helpers/request";
import { CARTS, orderRow, shopperOf, stocked, storeFor } from "../orders/helpers";

/**
 * A write that changes cached public reads replaces the store's cache generation in KV after it
 * committed. KV takes one write a second to a key, so a busy store's second checkout in a second is
 * refused there: that refusal must never turn the committed checkout into an error answer (a client
 * would retry and buy twice); the generation is written again after KV's second.
 */

const A = 8271;
beforeAll(async () => {
  await storeFor(A);
});

/** The test's KV, refusing the first `refusals` writes of the store's generation as KV does past one a second. */
function refusingKv(refusals: number) {
  const puts: string[] = [];
  let refused = 0;
  const kv = new Proxy(env.CACHE, {
    get(t, prop) {
      if (prop === "put")
        return async (key: string, ...rest: unknown[]) => {
          puts.push(key);
          if (key === `gen:${A}` && refused < refusals) {
            refused++;
            throw new Error("KV PUT failed: 429 Too Many Requests");
          }
          return (t.put as (...a: unknown[]) => Promise<void>)(key, ...rest);
        };
      const v = Reflect.get(t, prop, t);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
  return { env: { ...env, CACHE: kv } as Env, puts };
}

async function checkoutWith(bindings: Env) {
  const s = await shopperOf(A);
  const tea = await stocked(A, 1000, 5);
  const cart = await json(await s.as(CARTS, { method: "POST", body: { items: [{ item_id: tea.id, qty: 1 }] } }));
  const res = await call(`${CARTS}${cart.id}/checkout/`, {
    method: "POST",
    body: { payment_provider: "cash_on_delivery" },
    token: s.token,
    appId: A,
    env: bindings,
  });
  return { res, body: await json(res), cart };
}

describe("The cache generation after a committed write", () => {
  it("a refused generation write leaves the checkout's answer a 201, and is written again after KV's second", async () => {
    await env.CACHE.delete(`gen:${A}`);
    const kv = refusingKv(1);
    const { res, body, cart } = await checkoutWith(kv.env);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.order.cart_id).toBe(cart.id);
    // Refused once, then written (the deferred retry has run: call() waits for the deferred work).
    expect(kv.puts.filter((k) => k === `gen:${A}`)).toHaveLength(2);
    expect(await env.CACHE.get(`gen:${A}`)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a generation KV keeps refusing still answers 201 with the order stored, and gives up after its tries", async () => {
    const kv = refusingKv(Number.POSITIVE_INFINITY);
    const { res, body } = await checkoutWith(kv.env);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(await orderRow(body.order.id)).toMatchObject({ app_id: A, status: body.order.status });
    expect(kv.puts.filter((k) => k === `gen:${A}`)).toHaveLength(3);
  });
});
