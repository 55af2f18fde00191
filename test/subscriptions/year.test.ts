import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { DepositCashbackSchema } from "../../src/modules/customers/wallets/schemas";
import { depositCashback } from "../../src/modules/customers/wallets/service";
import { addDuration } from "../../src/modules/orders/recurring/dates";
import { bulkPause, bulkResume, changeUsage } from "../../src/modules/orders/subscriptions/actions";
import { subscriptions } from "../../src/modules/orders/subscriptions/tables";
import { createSubscriptionUpdate } from "../../src/modules/orders/subscriptions/updates";
import { scaled } from "../helpers/depth";
import { APP_1, createCustomerFor, db, serviceCtx, shardFor } from "../helpers/factories";
import { rowsOf, storeFor } from "../orders/helpers";
import { at, fakeQueue, planItem, runCron } from "./helpers";

/**
 * A year of monthly subscriptions, played day by day on the one clock: random pauses and resumes,
 * usage, price changes for the next period, the cron run twice a day and a crash injected between
 * the claim of a period and its order. A model of the rules, kept beside it, says which renewals
 * must exist; the store must hold exactly those, each period charged once, one event per change.
 *
 * SIZE: every run plays the whole year with 20 subscriptions: each kind of change (pause, resume,
 * usage, price change and its application, crash) still happens many times (9 crashes), a bulk pause
 * or resume takes several ids, and the subscriptions start on fewer days so that a cron run still
 * renews several at once, on 6 days with a crash among them. A day's renewals stay within one job of
 * RENEW_BATCH ids, as they did at 60: only the full size passes it. `npm run test:deep` plays the full
 * 1,000, as does `npm run bench -- --only year` (SIM_SUBSCRIPTIONS, given to the Worker's tests by
 * vitest.config.ts, names another size). The bench's `--only subscriptions` renews 10,000.
 */
const SIM_SUBSCRIPTIONS = Number(env.SIM_SUBSCRIPTIONS ?? scaled(20, 1_000));
const DAYS = 365;
/** The January days they start on: at least three a day (all 28 at full size). */
const START_DAYS = Math.min(28, Math.ceil(SIM_SUBSCRIPTIONS / 3));
const START = "2026-01-01";

const A = 9701;
beforeAll(async () => {
  // The store itself (its settings and merchant token): the plan item and the cron need it.
  await storeFor(A);
});
afterAll(() => setClock(null));

/** A seeded generator: the same year every run. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

type Model = {
  id: number;
  next: string;
  price: number;
  pendingPrice: number | null;
  paused: string | null;
  renewals: { period: string; amount: number }[];
};

// About 0.6 s a subscription on CI's 2 cores, with room; the small year alone takes up to 2 minutes
// on 2 cores shared with other runs, so it has 10.
const TIMEOUT_MS = Math.max(600_000, SIM_SUBSCRIPTIONS * 3_000);

it(`plays a year of ${SIM_SUBSCRIPTIONS} monthly subscriptions`, { timeout: TIMEOUT_MS }, async () => {
  at(START);
  const random = rng(42);
  const item = await planItem(A, 1_000, { duration: 1, duration_unit: "month", usage_limit: 1000 });
  const models: Model[] = [];
  // The runtime's queues stand in by fakes that keep what is sent: the local Queues broker holds
  // about 10,000 messages in flight, fewer than the full year's events.
  const sentEvents = fakeQueue();
  const queues = { events: sentEvents.queue, jobs: fakeQueue().queue };
  const setup = serviceCtx(A, queues);
  for (let i = 0; i < SIM_SUBSCRIPTIONS; i++) {
    const c = await createCustomerFor(A, { name: `Sim ${i}` });
    // Through the service, not the merchant API: a thousand deposits in a minute would meet its rate limit.
    await depositCashback(setup, c.id, DepositCashbackSchema.parse({ amount: 500, reason: "Year simulation" }));
    // Started on a spread of January days, as if checked out then (creation is tested on its own).
    const start = addDuration(START, i % START_DAYS, "day");
    const next = addDuration(start, 1, "month");
    const [row] = await db(A)
      .insert(subscriptions)
      .values({
        appId: A,
        customerId: c.id,
        itemId: item.id,
        orderId: 0,
        nameEn: "Plan",
        nameAr: "خطة",
        status: "active",
        unitPriceMinor: 1_000,
        currency: "SAR",
        paymentProvider: "wallet",
        duration: 1,
        durationUnit: "month",
        usageLimit: 1000,
        startDate: start,
        currentPeriodStartDate: start,
        currentPeriodEndDate: next,
        nextBillingDate: next,
        createdAt: `${START}T00:00:00.000Z`,
        modifiedAt: `${START}T00:00:00.000Z`,
      })
      .returning({ id: subscriptions.id });
    models.push({ id: row!.id, next, price: 1_000, pendingPrice: null, paused: null, renewals: [] });
  }
  await setup.settle();

  const counts = { paused: 0, resumed: 0, usage: 0, updates: 0, applied: 0, crashes: 0 };
  for (let d = 0; d < DAYS; d++) {
    const today = addDuration(START, d, "day");
    at(today);
    const ctx = serviceCtx(A, queues);
    const toPause: number[] = [];
    const toResume: Model[] = [];
    for (const m of models) {
      const r = random();
      if (m.paused === null && r < 0.01) toPause.push(m.id);
      else if (m.paused !== null && r < 0.1) toResume.push(m);
      else if (m.paused === null && r < 0.06) {
        await changeUsage(ctx, m.id, 1, null);
        counts.usage += 1;
      } else if (m.paused === null && m.pendingPrice === null && r < 0.07) {
        const price = 1_000 + Math.floor(random() * 10) * 100;
        await createSubscriptionUpdate(ctx, m.id, { price, effective: "next_period" });
        m.pendingPrice = price;
        counts.updates += 1;
      }
    }
    if (toPause.length) {
      const out = await bulkPause(ctx, { subscription_ids: toPause });
      expect(out.failed_count).toBe(0);
      for (const id of toPause) models.find((m) => m.id === id)!.paused = today;
      counts.paused += toPause.length;
    }
    if (toResume.length) {
      const out = await bulkResume(ctx, { subscription_ids: toResume.map((m) => m.id) });
      expect(out.failed_count).toBe(0);
      for (const m of toResume) {
        const days = Math.round((Date.parse(today) - Date.parse(m.paused!)) / 86_400_000);
        m.next = addDuration(m.next, days, "day");
        m.paused = null;
      }
      counts.resumed += toResume.length;
    }
    await ctx.settle();
    // Which due periods crash today (after their claim, before their order): renewed tomorrow.
    const crash = new Set<number>();
    for (const m of models) {
      if (m.paused === null && m.next <= today) {
        if (random() < 0.03) crash.add(m.id);
        else {
          const amount = m.pendingPrice ?? m.price;
          m.renewals.push({ period: m.next, amount });
          m.price = amount;
          if (m.pendingPrice !== null) counts.applied += 1;
          m.pendingPrice = null;
          m.next = addDuration(m.next, 1, "month");
        }
      }
    }
    counts.crashes += crash.size;
    const faults = {
      afterClaim: (id: number) => {
        if (crash.has(id)) throw new Error("crash between invoice and payment");
      },
    };
    // Twice a tick: the second run finds every period claimed or charged.
    const first = await runCron(A, { faults, queues });
    const second = await runCron(A, { faults, queues });
    if (first.errors !== crash.size || second.renewed + second.errors !== 0) {
      // Which subscriptions the store and the model disagree on, to find the day's cause.
      const ids = [...crash].join(",") || "0";
      const state = await rowsOf(
        `SELECT s.id, s.status, s.next_billing_date, s.pause_resumes_at, r.period_start, r.status AS renewal, r.claimed_at
           FROM subscriptions s LEFT JOIN subscription_renewals r ON r.subscription_id = s.id
          WHERE s.id IN (${ids}) ORDER BY s.id, r.period_start`,
      );
      expect.fail(
        `${today}: ${JSON.stringify({ first, second, state, model: models.filter((m) => crash.has(m.id)) })}`,
      );
    }
  }

  // Exactly the renewals the model says, each period once.
  const paid = await rowsOf<{ subscription_id: number; period_start: string; amount_minor: number; order_id: number }>(
    "SELECT subscription_id, period_start, amount_minor, order_id FROM subscription_renewals WHERE app_id = ? AND status = 'paid' ORDER BY subscription_id, period_start",
    A,
  );
  const expected = models.flatMap((m) => m.renewals.map((r) => ({ id: m.id, period: r.period, amount: r.amount })));
  expected.sort((a, b) => a.id - b.id || a.period.localeCompare(b.period));
  expect(paid.map((p) => ({ id: p.subscription_id, period: p.period_start, amount: p.amount_minor }))).toEqual(
    expected,
  );
  expect(new Set(paid.map((p) => p.order_id)).size).toBe(paid.length);
  const invoices = await rowsOf<{ n: number }>(
    `SELECT count(*) AS n FROM invoices WHERE app_id = ? AND type = 'invoice'
       AND order_id IN (SELECT order_id FROM subscription_renewals WHERE app_id = ?)`,
    A,
    A,
  );
  expect(invoices[0]!.n).toBe(expected.length);
  // Each subscription where the model left it.
  const rows = await rowsOf<{ id: number; status: string; next_billing_date: string }>(
    "SELECT id, status, next_billing_date FROM subscriptions WHERE app_id = ? ORDER BY id",
    A,
  );
  expect(rows).toEqual(
    models.map((m) => ({ id: m.id, status: m.paused ? "paused" : "active", next_billing_date: m.next })),
  );
  // One event per change.
  const events = await rowsOf<{ type: string; n: number }>(
    "SELECT type, count(*) AS n FROM outbox_events WHERE app_id = ? AND type LIKE 'subscription.%' GROUP BY type",
    A,
  );
  const byType = Object.fromEntries(events.map((e) => [e.type, e.n]));
  expect(byType).toEqual({
    "subscription.renewed": expected.length,
    ...(counts.paused && { "subscription.paused": counts.paused }),
    ...(counts.resumed && { "subscription.resumed": counts.resumed }),
    ...(counts.usage && { "subscription.usage_updated": counts.usage }),
    ...(counts.updates && { "subscription.update_created": counts.updates }),
    ...(counts.applied && { "subscription.update_applied": counts.applied }),
  });
  // Each of them sent to the queue once.
  const outbox = await rowsOf<{ id: string; enqueued: number }>(
    "SELECT id, enqueued_at IS NOT NULL AS enqueued FROM outbox_events WHERE app_id = ? ORDER BY id",
    A,
  );
  const sent = (sentEvents.sent as unknown as { id: string }[]).map((e) => e.id).sort();
  expect(sent).toEqual(outbox.map((e) => e.id).sort());
  expect(outbox.every((e) => e.enqueued === 1)).toBe(true);
  expect(counts.crashes).toBeGreaterThan(0);
  await shardFor(APP_1).prepare("SELECT 1").run();
});
