import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { problem } from "../helpers/request";
import { cashbackOf, eventsWhere, rowOf, type Store, shopperOf, storeFor } from "../orders/helpers";
import { at, M_SUBS, okJson, renewalsOf, runCron, subRow, subscribe } from "./helpers";

let A = 9600;
let store: Store;
beforeEach(async () => {
  A += 1;
  store = await storeFor(A);
});
afterAll(() => setClock(null));

const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  store.as(path, { method: "POST", body, headers });
const typesOf = async (id: number, types: string[]) => (await eventsWhere(A, types, "id", id)).map((e) => e.type);

describe("MS1-MS3", () => {
  it("lists with filters and search, and counts statistics", async () => {
    at("2026-04-01");
    const s = await shopperOf(A, { name: "Noura Filter" });
    const t = await shopperOf(A);
    const a = await subscribe(store, s, { priceMinor: 3_000, cashback: 100 });
    const b = await subscribe(store, t, {
      priceMinor: 7_000,
      cashback: 100,
      plan: { duration: 2, duration_unit: "week" },
    });
    await okJson(await post(`${M_SUBS}${b.id}/cancel-auto-renewal/`));
    const all = await okJson(await store.as(M_SUBS));
    expect(all.count).toBe(2);
    expect(all.results.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    const found = await okJson(await store.as(`${M_SUBS}?search=Noura`));
    expect(found.results.map((r: { id: number }) => r.id)).toEqual([a.id]);
    const off = await okJson(await store.as(`${M_SUBS}?auto_renew=false`));
    expect(off.results.map((r: { id: number }) => r.id)).toEqual([b.id]);
    const due = await okJson(await store.as(`${M_SUBS}?next_billing_date__lte=2026-04-20`));
    expect(due.results.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect((await problem(await store.as(`${M_SUBS}?colour=red`))).status).toBe(400);

    const stats = await okJson(await store.as(`${M_SUBS}statistics/?from=2026-03-01&to=2026-04-30`));
    expect(stats).toMatchObject({
      total: 2,
      by_status: { active: 2, paused: 0, cancelled: 0 },
      auto_renew_on: 1,
      auto_renew_off: 1,
      new_in_period: 2,
      cancelled_in_period: 0,
      renewals_due_7d: 0,
    });
    // 30 a month + 70 every 2 weeks (70 × 365/12/14 ≈ 152.08).
    expect(stats.mrr).toBeCloseTo(30 + (70 * 365) / 12 / 14, 1);
    expect((await problem(await store.as(`${M_SUBS}statistics/?from=2026-05-01&to=2026-04-01`))).status).toBe(400);
    expect((await problem(await store.as(`${M_SUBS}999999/`))).code).toBe("subscription_not_found");
  });
});

describe("MS4-MS7", () => {
  it("usage: increments within the limit, idempotent by key, 409 past the limit or below zero; resets at renewal", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, {
      priceMinor: 1_000,
      cashback: 100,
      plan: { duration: 1, duration_unit: "month", usage_limit: 5, usage_unit: "meal" },
    });
    const key = { "Idempotency-Key": `inc-${id}` };
    const inc = await okJson(await post(`${M_SUBS}${id}/increment-usage/`, { quantity: 3, reference: "box-1" }, key));
    expect(inc).toEqual({ id, usage_counter: 3, usage_limit: 5, usage_unit: "meal", remaining: 2 });
    // The same key replays, the counter does not move twice.
    await okJson(await post(`${M_SUBS}${id}/increment-usage/`, { quantity: 3, reference: "box-1" }, key));
    expect((await subRow(id)).usage_counter).toBe(3);
    const over = await problem(
      await post(`${M_SUBS}${id}/increment-usage/`, { quantity: 3 }, { "Idempotency-Key": `o-${id}` }),
    );
    expect(over).toMatchObject({ status: 409, code: "usage_limit_exceeded", remaining: 2 });
    const under = await problem(
      await post(`${M_SUBS}${id}/decrement-usage/`, { quantity: 4 }, { "Idempotency-Key": `u-${id}` }),
    );
    expect(under).toMatchObject({ status: 409, code: "usage_below_zero", usage_counter: 3 });
    const dec = await okJson(
      await post(`${M_SUBS}${id}/decrement-usage/`, { quantity: 1 }, { "Idempotency-Key": `d-${id}` }),
    );
    expect(dec.usage_counter).toBe(2);
    expect((await problem(await post(`${M_SUBS}${id}/increment-usage/`, { quantity: 0 }))).status).toBe(400);
    expect(await typesOf(id, ["subscription.usage_updated"])).toHaveLength(2);
    at("2026-05-01");
    await runCron(A);
    expect((await subRow(id)).usage_counter).toBe(0);
  });

  it("cancel now with a prorated refund through the refund path; illegal afterwards", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 3_000, cashback: 30 });
    expect(await cashbackOf(A, s.id)).toBe(0);
    at("2026-04-16");
    const d = await okJson(
      await post(
        `${M_SUBS}${id}/cancel/`,
        { refund: "prorated", reason: "Moving away" },
        { "Idempotency-Key": `c-${id}` },
      ),
    );
    expect(d).toMatchObject({
      status: "cancelled",
      cancellation_reason: "Moving away",
      end_date: "2026-04-16",
      next_invoice: null,
    });
    // 15 of April's 30 days unused: half of 30.
    expect(await cashbackOf(A, s.id)).toBe(1_500);
    const refund = await rowOf("SELECT * FROM invoices WHERE type = 'refund' AND app_id = ?", A);
    expect(refund.total_minor).toBe(1_500);
    expect(await typesOf(id, ["subscription.cancelled"])).toEqual(["subscription.cancelled"]);
    const again = await problem(await post(`${M_SUBS}${id}/cancel/`, {}, { "Idempotency-Key": `c2-${id}` }));
    expect(again).toMatchObject({ code: "invalid_state_transition", current_status: "cancelled" });
  });

  it("a refund that cannot be made leaves the subscription as it was", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 3_000, provider: "card" });
    const p = await problem(await post(`${M_SUBS}${id}/cancel/`, { refund: "full" }, { "Idempotency-Key": `r-${id}` }));
    expect(p).toMatchObject({ status: 409, code: "refund_not_possible" });
    expect((await subRow(id)).status).toBe("pending");
    const atEnd = await problem(
      await post(`${M_SUBS}${id}/cancel/`, { at_period_end: true, refund: "full" }, { "Idempotency-Key": `e-${id}` }),
    );
    expect(atEnd.status).toBe(400);
    const full = await okJson(await post(`${M_SUBS}${id}/cancel/`, {}, { "Idempotency-Key": `n-${id}` }));
    expect(full.status).toBe("cancelled");
  });
});

describe("MS8-MS11", () => {
  it("bulk pause and resume: one result per id, the term continues after the pause", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const a = await subscribe(store, s, { priceMinor: 1_000, cashback: 100 });
    const b = await subscribe(store, s, { priceMinor: 1_000, cashback: 100, provider: "card" });
    at("2026-04-11");
    const paused = await okJson(
      await post(
        `${M_SUBS}bulk-pause/`,
        { subscription_ids: [a.id, b.id, 999999] },
        { "Idempotency-Key": `p-${a.id}` },
      ),
    );
    expect(paused).toEqual({
      results: [
        { id: a.id, success: true, error: null },
        {
          id: b.id,
          success: false,
          error: { code: "invalid_state_transition", detail: expect.stringMatching(/pending/) },
        },
        { id: 999999, success: false, error: { code: "subscription_not_found", detail: expect.any(String) } },
      ],
      succeeded_count: 1,
      failed_count: 2,
    });
    expect((await subRow(a.id)).status).toBe("paused");
    // Paused: not renewed when its date comes.
    at("2026-05-01");
    expect((await runCron(A)).renewed).toBe(0);
    at("2026-05-11");
    const resumed = await okJson(
      await post(`${M_SUBS}bulk-resume/`, { subscription_ids: [a.id] }, { "Idempotency-Key": `r-${a.id}` }),
    );
    expect(resumed.succeeded_count).toBe(1);
    // Paused 30 days: the period end (May 1) moves to May 31.
    expect(await subRow(a.id)).toMatchObject({ status: "active", next_billing_date: "2026-05-31", paused_at: null });
    expect(await typesOf(a.id, ["subscription.paused", "subscription.resumed"])).toEqual([
      "subscription.paused",
      "subscription.resumed",
    ]);
    const tooMany = await problem(
      await post(
        `${M_SUBS}bulk-pause/`,
        { subscription_ids: Array.from({ length: 101 }, (_, i) => i + 1) },
        { "Idempotency-Key": "x" },
      ),
    );
    expect(tooMany.status).toBe(400);
    // A pause until a day: the scheduled run resumes it then.
    await okJson(
      await post(
        `${M_SUBS}bulk-pause/`,
        { subscription_ids: [a.id], resumes_at: "2026-05-21" },
        { "Idempotency-Key": `q-${a.id}` },
      ),
    );
    at("2026-05-21");
    expect((await runCron(A)).resumed).toBe(1);
    expect(await subRow(a.id)).toMatchObject({ status: "active", next_billing_date: "2026-06-10" });
  });

  it("updates: next period (applied at renewal, one pending at a time, cancellable) and immediate with proration", async () => {
    at("2026-04-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 3_000, cashback: 200 });
    const u = await okJson(await post(`${M_SUBS}${id}/updates/`, { price: 45, effective: "next_period" }), 201);
    expect(u).toMatchObject({
      subscription_id: id,
      status: "pending",
      effective_at: "2026-05-01",
      changes: { price: 45 },
    });
    const second = await problem(await post(`${M_SUBS}${id}/updates/`, { usage_limit: 3, effective: "next_period" }));
    expect(second).toMatchObject({ status: 409, code: "subscription_update_pending", update_id: u.id });
    const cancelled = await okJson(await post(`${M_SUBS}${id}/updates/${u.id}/cancel/`));
    expect(cancelled.status).toBe("cancelled");
    expect((await problem(await post(`${M_SUBS}${id}/updates/${u.id}/cancel/`))).code).toBe("invalid_state_transition");
    expect((await problem(await post(`${M_SUBS}${id}/updates/999999/cancel/`))).code).toBe(
      "subscription_update_not_found",
    );
    const next = await okJson(await post(`${M_SUBS}${id}/updates/`, { price: 45, effective: "next_period" }), 201);
    expect((await okJson(await store.as(`${M_SUBS}${id}/`))).pending_update).toMatchObject({ id: next.id });
    at("2026-05-01");
    await runCron(A);
    expect((await renewalsOf(id)).map((r) => r.amount_minor)).toEqual([4_500]);
    expect((await rowOf("SELECT status FROM subscription_updates WHERE id = ?", next.id)).status).toBe("applied");
    // Immediate on May 16: +10 on the 16 of May's 31 days left (5.16) is owed on the next renewal.
    at("2026-05-16");
    const now = await okJson(await post(`${M_SUBS}${id}/updates/`, { price: 55, effective: "immediate" }), 201);
    expect(now).toMatchObject({ status: "applied", proration_amount: 5.16 });
    at("2026-06-01");
    await runCron(A);
    expect((await renewalsOf(id)).map((r) => r.amount_minor)).toEqual([4_500, 6_016]);
    expect((await problem(await post(`${M_SUBS}${id}/updates/`, { effective: "immediate" }))).status).toBe(400);
    const events = (
      await eventsWhere(
        A,
        ["subscription.update_created", "subscription.update_applied", "subscription.update_cancelled"],
        "subscription_id",
        id,
      )
    ).map((e) => e.type);
    expect(events).toEqual([
      "subscription.update_created",
      "subscription.update_cancelled",
      "subscription.update_created",
      "subscription.update_applied",
      "subscription.update_created",
      "subscription.update_applied",
    ]);
  });
});
