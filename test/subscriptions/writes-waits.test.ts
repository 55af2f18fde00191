import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { callWaits, json } from "../helpers/request";
import { cashbackOf, eventsWhere, rowOf, type Shopper, type Store, shopperOf, storeFor } from "../orders/helpers";
import { at, M_SUBS, MY_SUBS, subRow, subscribe } from "./helpers";

/**
 * How long the subscription actions keep a client waiting on D1, in round trips one after another
 * beyond the token check (never time): what each reads, at once, then one guarded batch that also
 * reads the answer back. Without an Idempotency-Key (its claim is one round trip of its own).
 */

// A store of this file's own.
const A = 9683;
let store: Store;
let shopper: Shopper;

beforeAll(async () => {
  at("2026-04-01");
  store = await storeFor(A);
  shopper = await shopperOf(A);
});
afterAll(() => setClock(null));

const post = (path: string, body: unknown = {}, token = store.token) =>
  callWaits(path, { method: "POST", body, token, appId: A });
const typesOf = async (id: number, types: string[]) => (await eventsWhere(A, types, "id", id)).map((e) => e.type);

describe("Subscription actions: D1 round trips", () => {
  it("cancel now without a refund: one round of reads, one batch that answers the subscription", async () => {
    at("2026-04-01");
    const { id } = await subscribe(store, shopper, { priceMinor: 2_000, cashback: 20 });
    at("2026-04-10");
    const { res, waits } = await post(`${M_SUBS}${id}/cancel/`, { reason: "Moving away" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      id,
      status: "cancelled",
      cancellation_reason: "Moving away",
      end_date: "2026-04-10",
      next_invoice: null,
      customer: { id: shopper.id },
    });
    expect(body.invoices).toHaveLength(1);
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await subRow(id)).status).toBe("cancelled");
    expect(await typesOf(id, ["subscription.cancelled"])).toEqual(["subscription.cancelled"]);
  });

  it("cancel now with a prorated refund: the refund's reads with the subscription's, its batch, then the cancellation's (3, was 9)", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 3_000, cashback: 30 });
    at("2026-04-16");
    const { res, waits } = await post(`${M_SUBS}${id}/cancel/`, { refund: "prorated" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id, status: "cancelled", end_date: "2026-04-16" });
    expect(waits.beyondAuth).toBeLessThanOrEqual(3);
    // 15 of April's 30 days unused: half of 30.
    expect(await cashbackOf(A, s.id)).toBe(1_500);
  });

  it("cancel auto-renewal, the merchant's and the customer's: one read, one batch; again: one read", async () => {
    at("2026-04-01");
    const { id } = await subscribe(store, shopper, { priceMinor: 1_000, cashback: 10 });
    const merchant = await post(`${M_SUBS}${id}/cancel-auto-renewal/`);
    const body = await json(merchant.res);
    expect(merchant.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id, auto_renew: false, cancel_at_period_end: true, customer: { id: shopper.id } });
    expect(merchant.waits.beyondAuth).toBeLessThanOrEqual(2);
    const again = await post(`${MY_SUBS}${id}/cancel-auto-renewal/`, {}, shopper.token);
    expect(again.res.status).toBe(200);
    expect(await json(again.res)).toMatchObject({ id, auto_renew: false, cancel_at_period_end: true });
    expect(again.waits.beyondAuth).toBe(1);
    expect(await typesOf(id, ["subscription.auto_renewal_cancelled"])).toEqual(["subscription.auto_renewal_cancelled"]);

    const other = await subscribe(store, shopper, { priceMinor: 1_000, cashback: 10 });
    const mine = await post(`${MY_SUBS}${other.id}/cancel-auto-renewal/`, {}, shopper.token);
    const mineBody = await json(mine.res);
    expect(mine.res.status).toBe(200);
    expect(mineBody).toMatchObject({ id: other.id, auto_renew: false });
    expect(mineBody).not.toHaveProperty("customer");
    expect(mine.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await subRow(other.id)).auto_renew).toBe(0);
  });

  it("usage up and down: one read, one batch", async () => {
    at("2026-04-01");
    const { id } = await subscribe(store, shopper, {
      priceMinor: 1_000,
      cashback: 10,
      plan: { duration: 1, duration_unit: "month", usage_limit: 5, usage_unit: "meal" },
    });
    const inc = await post(`${M_SUBS}${id}/increment-usage/`, { quantity: 3 });
    expect(await json(inc.res)).toEqual({ id, usage_counter: 3, usage_limit: 5, usage_unit: "meal", remaining: 2 });
    expect(inc.waits.beyondAuth).toBeLessThanOrEqual(2);
    const dec = await post(`${M_SUBS}${id}/decrement-usage/`, { quantity: 1 });
    expect((await json(dec.res)).usage_counter).toBe(2);
    expect(dec.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await subRow(id)).usage_counter).toBe(2);
  });

  it("usage with an Idempotency-Key: the key's claim rides with the reads (2); its replay changes nothing", async () => {
    at("2026-04-01");
    const { id } = await subscribe(store, shopper, {
      priceMinor: 1_000,
      cashback: 10,
      plan: { duration: 1, duration_unit: "month", usage_limit: 5, usage_unit: "meal" },
    });
    const keyed = () =>
      callWaits(`${M_SUBS}${id}/increment-usage/`, {
        method: "POST",
        body: { quantity: 2 },
        token: store.token,
        appId: A,
        headers: { "Idempotency-Key": `usage-${id}` },
      });
    const first = await keyed();
    expect(await json(first.res)).toMatchObject({ id, usage_counter: 2, remaining: 3 });
    expect(first.waits.beyondAuth).toBeLessThanOrEqual(2);
    const replay = await keyed();
    expect(replay.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(replay.res)).toMatchObject({ id, usage_counter: 2, remaining: 3 });
    expect((await subRow(id)).usage_counter).toBe(2);
  });

  it("bulk pause and resume: one round of reads, one batch", async () => {
    at("2026-04-01");
    const a = await subscribe(store, shopper, { priceMinor: 1_000, cashback: 10 });
    at("2026-04-11");
    const paused = await post(`${M_SUBS}bulk-pause/`, { subscription_ids: [a.id, 999_999] });
    expect(await json(paused.res)).toMatchObject({ succeeded_count: 1, failed_count: 1 });
    expect(paused.waits.beyondAuth).toBeLessThanOrEqual(2);
    at("2026-04-21");
    const resumed = await post(`${M_SUBS}bulk-resume/`, { subscription_ids: [a.id] });
    expect(await json(resumed.res)).toMatchObject({ results: [{ id: a.id, success: true, error: null }] });
    expect(resumed.waits.beyondAuth).toBeLessThanOrEqual(2);
    // Paused 10 days: the next billing date (May 1) moves to May 11.
    expect(await subRow(a.id)).toMatchObject({ status: "active", next_billing_date: "2026-05-11" });
  });

  it("an update made and cancelled: each one round of reads, one batch that answers the update", async () => {
    at("2026-04-01");
    const { id } = await subscribe(store, shopper, { priceMinor: 3_000, cashback: 30 });
    const made = await post(`${M_SUBS}${id}/updates/`, { price: 45, effective: "next_period" });
    const u = await json(made.res);
    expect(made.res.status, JSON.stringify(u)).toBe(201);
    expect(u).toMatchObject({
      subscription_id: id,
      status: "pending",
      effective_at: "2026-05-01",
      changes: { price: 45 },
    });
    expect(made.waits.beyondAuth).toBeLessThanOrEqual(2);
    const cancelled = await post(`${M_SUBS}${id}/updates/${u.id}/cancel/`);
    const c = await json(cancelled.res);
    expect(cancelled.res.status).toBe(200);
    expect(c).toMatchObject({ id: u.id, status: "cancelled", cancelled_at: expect.any(String) });
    expect(cancelled.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await rowOf("SELECT status FROM subscription_updates WHERE id = ?", u.id)).status).toBe("cancelled");
  });
});
