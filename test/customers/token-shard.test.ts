import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetHeldApp } from "../../src/core/tenancy";
import { shardOf } from "../../src/db/shards";
import { APP_2, createCustomerFor, customerTokenFor, shardFor, shardNameFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { CARTS, MY_ORDERS, stocked } from "../orders/helpers";

/**
 * A customer's access token names its store's shard (`shard` claim), so that a cold isolate starts
 * the request there without waiting for the directory (src/db/session.ts). The claim is only where
 * the request starts: the directory's row, read beside, decides, and a claim that disagrees with it
 * (a store moved since the token was issued) is refused as an expired token before anything is
 * written. APP_2's store is on the second shard.
 */
const A = APP_2;

async function customerWith(shard: string | undefined) {
  const row = await createCustomerFor(A);
  const token = await customerTokenFor(A, row.id, shard === undefined ? {} : { shard });
  return { id: row.id, token };
}

const cold = () => forgetHeldApp(A);

describe("the store's shard in a customer's access token", () => {
  it("serves a token naming the store's shard, one without the claim, and one naming no bound shard", async () => {
    expect(shardNameFor(A)).toBe("SHARD_2");
    for (const shard of ["SHARD_2", undefined, "SHARD_9"]) {
      const c = await customerWith(shard);
      cold();
      const res = await call(MY_ORDERS, { token: c.token, appId: A });
      expect(res.status, String(shard)).toBe(200);
      expect((await json(res)).results).toEqual([]);
    }
  });

  it("refuses a token naming another shard than the directory's with 401 token_expired, writing nothing", async () => {
    const stale = await customerWith("SHARD_1");
    const fresh = await customerTokenFor(A, stale.id);
    const tea = await stocked(A, 1000, 5);
    const cart = await json(
      await call(CARTS, { method: "POST", token: fresh, appId: A, body: { items: [{ item_id: tea.id, qty: 2 }] } }),
    );
    for (const send of [
      () => call(MY_ORDERS, { token: stale.token, appId: A }),
      () =>
        call(`${CARTS}${cart.id}/checkout/`, {
          method: "POST",
          token: stale.token,
          appId: A,
          body: { payment_provider: "cash_on_delivery" },
          headers: { "Idempotency-Key": `stale-${cart.id}` },
        }),
    ]) {
      cold();
      const res = await send();
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("token_expired");
    }
    // Nothing was written on either shard: no order, the stock whole, the key free for a retry.
    for (const shard of ["SHARD_1", "SHARD_2"]) {
      const orders = await shardOf(env, shard)
        .prepare("SELECT count(*) AS n FROM orders WHERE app_id = ? AND cart_id = ?")
        .bind(A, cart.id)
        .first<{ n: number }>();
      expect(orders!.n, shard).toBe(0);
    }
    const stock = await shardFor(A).prepare("SELECT stock_qty FROM items WHERE id = ?").bind(tea.id).first();
    expect(stock).toEqual({ stock_qty: 5 });
    const retried = await call(`${CARTS}${cart.id}/checkout/`, {
      method: "POST",
      token: fresh,
      appId: A,
      body: { payment_provider: "cash_on_delivery" },
      headers: { "Idempotency-Key": `stale-${cart.id}` },
    });
    expect(retried.status, await retried.clone().text()).toBe(201);
    expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
  });
});
