import { beforeAll, describe, expect, it } from "vitest";
import { expireLapsedBalances } from "../../src/modules/customers/wallets/service";
import { APP_1, createCustomerFor, serviceCtx, shardFor, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";

/** The expiry sweep of the scheduled handler: lapsed, unspent amounts leave the balance once. */
let token: string;
beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_read_order", "can_write_order"]);
});

const newCustomer = async (appId = APP_1) => (await createCustomerFor(appId, { name: "Wallet test" })).id;

const post = (id: number, path: string, body: unknown) =>
  call(`/order/v1/merchant/customers/${id}/wallet/${path}`, { method: "POST", token, appId: APP_1, body });

async function ledger(id: number) {
  const rows = await shardFor(APP_1)
    .prepare(
      "SELECT type, amount, balance_after FROM wallet_entries WHERE customer_id = ? AND kind = 'points' ORDER BY id",
    )
    .bind(id)
    .all<{ type: string; amount: number; balance_after: number }>();
  return rows.results;
}

describe("wallet expiry sweep", () => {
  it("takes out what of a lapsed deposit is unspent, soonest-lapsing first, and only once", async () => {
    const id = await newCustomer();
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const later = new Date(Date.now() + 30 * 86400_000).toISOString();
    expect((await post(id, "deposit-points/", { amount: 100, reason: "Promo", expires_at: soon })).status).toBe(201);
    expect((await post(id, "deposit-points/", { amount: 50, reason: "Gift", expires_at: later })).status).toBe(201);
    expect((await post(id, "redeem/", { kind: "points", amount: 30, reason: "Order" })).status).toBe(201);

    // Two hours on: the first deposit lapsed with 70 of it unspent (the redemption took from it first).
    const ctx = serviceCtx(APP_1);
    const at = new Date(Date.now() + 7200_000).toISOString();
    expect(await expireLapsedBalances(() => ctx, ctx.db, at)).toBeGreaterThanOrEqual(1);
    await ctx.settle();
    expect((await ledger(id)).at(-1)).toEqual({ type: "expiry", amount: -70, balance_after: 50 });

    // Running again writes nothing more.
    await expireLapsedBalances(() => ctx, ctx.db, at);
    expect((await ledger(id)).filter((e) => e.type === "expiry")).toHaveLength(1);
    const wallet = await json(await call(`/order/v1/merchant/customers/${id}/wallet/`, { token, appId: APP_1 }));
    expect(wallet.points_balance).toBe(50);

    // The expiry is an event like every other ledger entry.
    const events = await shardFor(APP_1)
      .prepare(
        "SELECT payload FROM outbox_events WHERE app_id = ? AND type = 'customer.wallet.updated' ORDER BY created_at DESC LIMIT 1",
      )
      .bind(APP_1)
      .first<{ payload: string }>();
    expect(JSON.parse(events!.payload).data).toMatchObject({ customer_id: id, type: "expiry", amount: -70 });
  });

  it("leaves a deposit that was fully spent before it lapsed", async () => {
    const id = await newCustomer();
    const soon = new Date(Date.now() + 3600_000).toISOString();
    await post(id, "deposit-points/", { amount: 20, reason: "Promo", expires_at: soon });
    await post(id, "redeem/", { kind: "points", amount: 20, reason: "Order" });
    const ctx = serviceCtx(APP_1);
    await expireLapsedBalances(() => ctx, ctx.db, new Date(Date.now() + 7200_000).toISOString());
    expect((await ledger(id)).some((e) => e.type === "expiry")).toBe(false);
  });
});
