import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { json, problem } from "../helpers/request";
import { cashbackOf, eventsWhere, rowsOf, type Store, shopperOf, storeFor } from "../orders/helpers";
import { at, M_SUBS, MY_SUBS, okJson, renewalsOf, runCron, subRow, subscribe } from "./helpers";

const B = 9502;
let A = 9510;
let store: Store;
let other: Store;
beforeAll(async () => {
  other = await storeFor(B);
});
// Each test its own store: the cron renews every due subscription of a store.
beforeEach(async () => {
  A += 1;
  store = await storeFor(A);
});
afterAll(() => setClock(null));

const subEvents = (id: number, appId = A) =>
  eventsWhere(
    appId,
    [
      "subscription.created",
      "subscription.activated",
      "subscription.renewed",
      "subscription.suspended",
      "subscription.paused",
      "subscription.resumed",
      "subscription.auto_renewal_cancelled",
      "subscription.cancelled",
      "subscription.expired",
      "subscription.usage_updated",
    ],
    "id",
    id,
  );

describe("creation and renewal", () => {
  it("a checkout of a plan item creates the subscription, paid: active for its period, then renewed once a period", async () => {
    at("2026-01-31");
    const s = await shopperOf(A);
    const { id, order } = await subscribe(store, s, { priceMinor: 10_000, cashback: 250 });
    const d = await okJson(await store.as(`${M_SUBS}${id}/`));
    expect(d).toMatchObject({
      id,
      status: "active",
      order: order.id,
      customer_id: s.id,
      price: 100,
      start_date: "2026-01-31",
      current_period_start_date: "2026-01-31",
      // A month from Jan 31 is the last of February, never March.
      current_period_end_date: "2026-02-28",
      next_billing_date: "2026-02-28",
      next_invoice: { id: null, amount: 100, status: "upcoming", due_date: "2026-02-28" },
      customer: { id: s.id },
    });
    expect(d.invoices).toEqual([expect.objectContaining({ status: "paid", amount: 100 })]);
    expect((await subEvents(id)).map((e) => e.type)).toEqual(["subscription.created", "subscription.activated"]);

    // Not due yet: nothing happens.
    at("2026-02-27");
    expect((await runCron(A)).renewed).toBe(0);
    // Due: the cron runs twice, one charge.
    at("2026-02-28");
    const runs = [await runCron(A), await runCron(A)];
    expect(runs.reduce((n, r) => n + r.renewed, 0)).toBe(1);
    expect(await renewalsOf(id)).toEqual([
      expect.objectContaining({ period_start: "2026-02-28", status: "paid", amount_minor: 10_000 }),
    ]);
    expect(await subRow(id)).toMatchObject({
      status: "active",
      current_period_start_date: "2026-02-28",
      next_billing_date: "2026-03-28",
    });
    expect(await cashbackOf(A, s.id)).toBe(5_000);
    const after = await okJson(await store.as(`${M_SUBS}${id}/`));
    expect(after.invoices).toHaveLength(2);
    const renewed = (await subEvents(id)).filter((e) => e.type === "subscription.renewed");
    expect(renewed.map((e) => e.data)).toEqual([
      expect.objectContaining({ id, status: "active", period_start: "2026-02-28", previous_status: "active" }),
    ]);
  });

  it("two consumers at once charge a period once; a crash after the claim is taken over when stale", async () => {
    at("2026-01-10");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 1_000, cashback: 100 });
    at("2026-02-10");
    let crashed = 0;
    const crash = {
      faults: {
        afterClaim: () => {
          crashed += 1;
          throw new Error("crash between invoice and payment");
        },
      },
    };
    const r1 = await runCron(A, crash);
    expect(crashed).toBe(1);
    expect(r1.errors).toBe(1);
    expect(await renewalsOf(id)).toEqual([expect.objectContaining({ status: "pending", order_id: null })]);
    // Within the stale window another run leaves it alone.
    setClock("2026-02-10T12:05:00.000Z");
    expect((await runCron(A)).renewed).toBe(0);
    // Later, two runs at once: one takes the claim over and charges it.
    setClock("2026-02-10T13:00:00.000Z");
    const [a, b] = await Promise.all([runCron(A), runCron(A)]);
    expect(a.renewed + b.renewed).toBe(1);
    const rows = await renewalsOf(id);
    expect(rows).toEqual([expect.objectContaining({ status: "paid", attempts: 2 })]);
    const orders = await rowsOf("SELECT id FROM orders WHERE customer_id = ? ORDER BY id", s.id);
    expect(orders).toHaveLength(2);
  });

  it("a renewal the wallet cannot pay suspends, retries on schedule, and cancels after the grace period", async () => {
    at("2026-01-05");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 5_000, cashback: 50 });
    at("2026-02-05");
    expect((await runCron(A)).failed).toBe(1);
    expect(await subRow(id)).toMatchObject({ status: "suspended", retry_date: "2026-02-06", failed_attempts: 1 });
    const d = await okJson(await store.as(`${M_SUBS}${id}/`));
    expect(d.next_invoice).toMatchObject({ status: "unpaid", amount: 50, due_date: "2026-02-06" });
    for (const [day, retry] of [
      ["2026-02-06", "2026-02-08"],
      ["2026-02-08", "2026-02-10"],
      ["2026-02-10", "2026-02-12"],
    ] as const) {
      at(day);
      expect((await runCron(A)).failed).toBe(1);
      expect((await subRow(id)).retry_date).toBe(retry);
    }
    at("2026-02-12");
    expect((await runCron(A)).cancelled).toBe(1);
    expect(await subRow(id)).toMatchObject({ status: "cancelled", cancellation_reason: "unpaid" });
    expect((await renewalsOf(id)).map((r) => [r.status, r.attempts])).toEqual([["failed", 4]]);
    expect((await subEvents(id)).map((e) => e.type)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.suspended",
      "subscription.cancelled",
    ]);
  });

  it("a paid retry reactivates; a card subscription is not charged (no saved-card charge) and goes to dunning", async () => {
    at("2026-01-07");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, { priceMinor: 5_000, cashback: 50 });
    at("2026-02-07");
    await runCron(A);
    expect((await subRow(id)).status).toBe("suspended");
    await okJson(
      await store.as(`/order/v1/merchant/customers/${s.id}/wallet/deposit-cashback/`, {
        method: "POST",
        body: { amount: 50, reason: "top up" },
      }),
      201,
    );
    at("2026-02-08");
    expect((await runCron(A)).renewed).toBe(1);
    expect(await subRow(id)).toMatchObject({ status: "active", next_billing_date: "2026-03-07", failed_attempts: 0 });

    at("2026-01-07");
    const c = await shopperOf(A);
    const card = await subscribe(store, c, { priceMinor: 5_000, provider: "card" });
    expect((await subRow(card.id)).status).toBe("pending");
    expect((await subEvents(card.id)).map((e) => e.type)).toEqual(["subscription.created"]);
  });

  it("a trial: trialing until its end, then the first renewal makes it active; auto_renew off expires", async () => {
    at("2026-03-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, {
      priceMinor: 2_000,
      cashback: 100,
      plan: { duration: 2, duration_unit: "week", trial_days: 7, usage_limit: 5, auto_increment_usage: true },
    });
    expect(await subRow(id)).toMatchObject({
      status: "trialing",
      in_trial: 1,
      trial_end_date: "2026-03-08",
      next_billing_date: "2026-03-08",
      usage_counter: 1,
    });
    at("2026-03-08");
    await runCron(A);
    expect(await subRow(id)).toMatchObject({ status: "active", in_trial: 0, next_billing_date: "2026-03-22" });
    await okJson(await s.as(`${MY_SUBS}${id}/cancel-auto-renewal/`, { method: "POST" }));
    const again = await okJson(await s.as(`${MY_SUBS}${id}/cancel-auto-renewal/`, { method: "POST" }));
    expect(again).toMatchObject({
      auto_renew: false,
      cancel_at_period_end: true,
      end_date: "2026-03-22",
      next_invoice: null,
    });
    at("2026-03-22");
    expect((await runCron(A)).expired).toBe(1);
    expect(await subRow(id)).toMatchObject({ status: "expired", end_date: "2026-03-22" });
    const types = (await subEvents(id)).map((e) => e.type);
    expect(types.filter((t) => t === "subscription.auto_renewal_cancelled")).toHaveLength(1);
    expect(types.at(-1)).toBe("subscription.expired");
    // Expired: cancelling auto-renewal is a 409 naming the status.
    const p = await problem(await store.as(`${M_SUBS}${id}/cancel-auto-renewal/`, { method: "POST" }));
    expect(p).toMatchObject({ code: "invalid_state_transition", current_status: "expired", allowed_actions: [] });
  });

  it("total_billing_cycles: expires once the cycles are used", async () => {
    at("2026-05-01");
    const s = await shopperOf(A);
    const { id } = await subscribe(store, s, {
      priceMinor: 1_000,
      cashback: 100,
      plan: { duration: 1, duration_unit: "day", total_billing_cycles: 2 },
    });
    expect((await subRow(id)).remaining_billing_cycles).toBe(1);
    at("2026-05-02");
    expect((await runCron(A)).renewed).toBe(1);
    at("2026-05-03");
    expect((await runCron(A)).expired).toBe(1);
    expect((await renewalsOf(id)).length).toBe(1);
  });
});

describe("customer operations (U1-U3)", () => {
  it("lists and shows only the customer's own", async () => {
    at("2026-06-01");
    const s = await shopperOf(A);
    const t = await shopperOf(A);
    const mine = await subscribe(store, s, { priceMinor: 1_000, cashback: 20 });
    const theirs = await subscribe(store, t, { priceMinor: 1_000, cashback: 20 });
    const list = await okJson(await s.as(MY_SUBS));
    expect(list.results.map((r: { id: number }) => r.id)).toEqual([mine.id]);
    expect(list.results[0].customer).toBeUndefined();
    expect((await s.as(`${MY_SUBS}${theirs.id}/`)).status).toBe(404);
    const p = await problem(await s.as(`${MY_SUBS}${theirs.id}/cancel-auto-renewal/`, { method: "POST" }));
    expect(p).toMatchObject({ status: 404, code: "subscription_not_found" });
    expect((await subRow(theirs.id)).auto_renew).toBe(1);
    // Another store's token cannot name it either.
    expect((await other.as(`${M_SUBS}${mine.id}/`)).status).toBe(404);
    // A merchant token on the customer path is refused.
    expect((await store.as(MY_SUBS)).status).toBe(403);
    expect(await json(await s.as(`${MY_SUBS}${mine.id}/`))).toMatchObject({ id: mine.id, status: "active" });
  });
});
