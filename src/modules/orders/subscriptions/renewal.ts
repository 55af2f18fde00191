import { and, eq, sql } from "drizzle-orm";
import { now as clockNow, nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { live, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { enqueueJobs } from "../../../core/jobs";
import { inList } from "../../../core/sql";
import { nowIso, todayIn } from "../../../core/time";
import type { Db } from "../../../db/client";
import { readStoreSettings, type StoreSettings } from "../../account";
import { itemsForPricing, type PricedItem } from "../../items";
import { placeOrder } from "../checkout/place";
import { addDuration } from "../recurring/dates";
import { changedRowEvent, changeRow, newChangeToken, resumeSet, type SubscriptionSet } from "./change";
import { type Claim, renewalOf, renewalQuote, renewedStep, stillClaimed } from "./renewal-order";
import type { SubscriptionRow } from "./service";
import { subscriptionRenewals, subscriptions, subscriptionUpdates } from "./tables";

declare module "../../../core/jobs" {
  interface JobRegistry {
    /** Subscriptions of one store to renew (or expire, cancel unpaid, resume): at most RENEW_BATCH ids. */
    "subscriptions.renew": { ids: number[] };
  }
}

/** Subscriptions a job message carries: each takes ~6 D1 round trips, well within a consumer's limits. */
export const RENEW_BATCH = 25;
/** Retries of an unpaid renewal, in days after the period's start; at the last, the grace is over. */
export const RETRY_OFFSETS_DAYS: readonly number[] = [1, 3, 5, 7];
export const GRACE_DAYS: number = RETRY_OFFSETS_DAYS[RETRY_OFFSETS_DAYS.length - 1]!;
/** A claim older than this whose charge never finished (the run died) is taken over by the next run. */
export const STALE_CLAIM_MS = 15 * 60_000;

export type Faults = {
  /** Called right after a period is claimed, before its order: a test throws here to play a crash. */
  afterClaim?: (subscriptionId: number) => void;
};

export type RenewalRun = Record<"renewed" | "failed" | "expired" | "cancelled" | "resumed" | "skipped", number>;

/**
 * The scheduled scan: subscriptions whose period has come (active, trialing), whose retry has come
 * (suspended), or whose pause ends (paused), queued as `subscriptions.renew` jobs of RENEW_BATCH ids
 * per store. Running it twice queues them twice: the claim per period keeps every period charged once.
 */
export async function queueDueSubscriptions(
  db: Db,
  jobs: Queue,
  at: Date = clockNow(),
  limit = 10_000,
): Promise<{ due: number; messages: number }> {
  // No store's calendar is more than a day ahead of UTC; each is checked on its store's own in the job.
  const horizon = addDuration(at.toISOString().slice(0, 10), 1, "day");
  const rows = await db
    .select({ id: subscriptions.id, appId: subscriptions.appId })
    .from(subscriptions)
    .where(
      sql`${notDeletedRow(subscriptions)} AND ((${subscriptions.status} IN ('active', 'trialing')
        AND ${subscriptions.nextBillingDate} <= ${horizon})
        OR (${subscriptions.status} = 'suspended' AND ${subscriptions.retryDate} <= ${horizon})
        OR (${subscriptions.status} = 'paused' AND ${subscriptions.pauseResumesAt} <= ${horizon}))`,
    )
    .orderBy(subscriptions.appId, subscriptions.id)
    .limit(limit);
  const byApp = new Map<number, number[]>();
  for (const r of rows) byApp.set(r.appId, [...(byApp.get(r.appId) ?? []), r.id]);
  let messages = 0;
  for (const [appId, ids] of byApp) {
    const payloads: { ids: number[] }[] = [];
    for (let i = 0; i < ids.length; i += RENEW_BATCH) payloads.push({ ids: ids.slice(i, i + RENEW_BATCH) });
    await enqueueJobs(jobs, appId, "subscriptions.renew", payloads);
    messages += payloads.length;
  }
  return { due: rows.length, messages };
}

type Ctx = {
  ctx: ServiceContext;
  settings: StoreSettings;
  today: string;
  items: Map<number, PricedItem>;
  pending: Map<number, typeof subscriptionUpdates.$inferSelect>;
  faults?: Faults;
};

/**
 * One job: each subscription renewed, expired, cancelled (unpaid past its grace) or resumed, as its
 * state and the store's calendar say. One subscription's unexpected error does not stop the others:
 * they are thrown together at the end, so the queue retries the message.
 */
export async function renewSubscriptions(
  ctx: ServiceContext,
  ids: number[],
  opts: { faults?: Faults } = {},
): Promise<RenewalRun> {
  const run: RenewalRun = { renewed: 0, failed: 0, expired: 0, cancelled: 0, resumed: 0, skipped: 0 };
  if (!ids.length) return run;
  const [[rows, pendingRows], settings] = await Promise.all([
    ctx.db.batch([
      ctx.db
        .select()
        .from(subscriptions)
        .where(and(live(subscriptions, ctx.appId), inList(subscriptions.id, ids))),
      ctx.db
        .select()
        .from(subscriptionUpdates)
        .where(and(inList(subscriptionUpdates.subscriptionId, ids), eq(subscriptionUpdates.status, "pending"))),
    ]),
    readStoreSettings(ctx.db, ctx.appId),
  ]);
  const pending = new Map(pendingRows.map((u) => [u.subscriptionId, u]));
  const itemIds = new Set(rows.map((r) => pending.get(r.id)?.changes.item_id ?? r.itemId));
  const c: Ctx = {
    ctx,
    settings,
    today: todayIn(settings.timezone),
    items: await itemsForPricing(ctx, [...itemIds]),
    pending,
    faults: opts.faults,
  };
  const errors: unknown[] = [];
  for (const r of rows) {
    try {
      run[await renewOne(c, r)] += 1;
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length) throw new AggregateError(errors, `${errors.length} subscription(s) failed to renew`);
  return run;
}

async function renewOne(c: Ctx, r: SubscriptionRow): Promise<keyof RenewalRun> {
  const { ctx, today } = c;
  if (r.status === "paused") {
    if (!r.pauseResumesAt || r.pauseResumesAt > today) return "skipped";
    return (await changeRow(ctx, r, resumeSet(r, today, c.settings.timezone), "subscription.resumed"))
      ? "resumed"
      : "skipped";
  }
  if ((r.status === "active" || r.status === "trialing") && r.nextBillingDate && r.nextBillingDate <= today) {
    if (!r.autoRenew || r.remainingBillingCycles === 0) {
      const set: SubscriptionSet = { status: "expired", inTrial: false, endDate: r.nextBillingDate };
      return (await changeRow(ctx, r, set, "subscription.expired")) ? "expired" : "skipped";
    }
    return attempt(c, r, r.nextBillingDate);
  }
  if (r.status === "suspended" && r.retryDate && r.retryDate <= today && r.nextBillingDate) {
    if (today >= addDuration(r.nextBillingDate, GRACE_DAYS, "day")) {
      const set: SubscriptionSet = {
        status: "cancelled",
        cancelledAt: nowIso(),
        cancellationReason: "unpaid",
        endDate: today,
        retryDate: null,
      };
      return (await changeRow(ctx, r, set, "subscription.cancelled", {
        data: sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'reason', cancellation_reason)`,
      }))
        ? "cancelled"
        : "skipped";
    }
    return attempt(c, r, r.nextBillingDate);
  }
  return "skipped";
}

/** Claims the period (its unique renewal row), then orders and pays it, or records the failure. */
async function attempt(c: Ctx, r: SubscriptionRow, period: string): Promise<keyof RenewalRun> {
  const { ctx } = c;
  const renewal = renewalOf(r, period, c.pending.get(r.id), c.items);
  const claim = await claimPeriod(c, r, period, renewal.amount);
  // Another run holds (or settled) this period.
  if (!claim) return "skipped";
  c.faults?.afterClaim?.(r.id);
  const { eff, amount } = renewal;
  if (eff.paymentProvider !== "wallet" && eff.paymentProvider !== "free" && amount > 0)
    return recordFailure(
      c,
      r,
      claim,
      period,
      "Charging a saved card is not available: the customer pays the renewal with their wallet.",
    );
  try {
    await placeOrder(
      ctx,
      renewalQuote(c.settings.vatPercentageBp, eff, renewal.item, amount),
      {
        kind: "purchase",
        customerId: r.customerId,
        cartId: null,
        provider: "wallet",
        paymentMethod: null,
        cartProvider: "app",
      },
      [renewedStep(ctx, c.today, r, period, claim, renewal)],
    );
    return "renewed";
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return recordFailure(c, r, claim, period, error.detail);
  }
}

/** The period's renewal row, claimed for this run: new, failed and due for a retry, or stale. */
async function claimPeriod(c: Ctx, r: SubscriptionRow, period: string, amount: number): Promise<Claim | null> {
  const at = nowIso();
  const claimed = await c.ctx.db
    .insert(subscriptionRenewals)
    .values({
      appId: c.ctx.appId,
      subscriptionId: r.id,
      periodStart: period,
      status: "pending",
      amountMinor: amount,
      attempts: 1,
      claimedAt: at,
      createdAt: at,
    })
    .onConflictDoUpdate({
      target: [subscriptionRenewals.subscriptionId, subscriptionRenewals.periodStart],
      set: {
        status: "pending",
        claimedAt: at,
        amountMinor: amount,
        attempts: sql`${subscriptionRenewals.attempts} + 1`,
      },
      setWhere: sql`(${subscriptionRenewals.status} = 'failed' AND ${subscriptionRenewals.nextRetryDate} <= ${c.today})
        OR (${subscriptionRenewals.status} = 'pending'
          AND ${subscriptionRenewals.claimedAt} < ${new Date(nowMs() - STALE_CLAIM_MS).toISOString()})`,
    })
    .returning({ id: subscriptionRenewals.id });
  return claimed.length ? { id: claimed[0]!.id, at } : null;
}

/**
 * An unpaid period: its renewal row failed with the reason and its next retry day, the subscription
 * suspended (its first failure emits `subscription.suspended`), both only while the claim is this run's.
 */
async function recordFailure(
  c: Ctx,
  r: SubscriptionRow,
  claim: Claim,
  period: string,
  message: string,
): Promise<keyof RenewalRun> {
  const { ctx } = c;
  const failures = r.status === "suspended" ? r.failedAttempts + 1 : 1;
  const offset = RETRY_OFFSETS_DAYS[Math.min(failures, RETRY_OFFSETS_DAYS.length) - 1]!;
  const retry = addDuration(period, offset, "day");
  const at = nowIso();
  const token = newChangeToken();
  try {
    await emit(
      ctx.db,
      ctx.events,
      [
        abortUnless(ctx.db, stillClaimed(claim), "subscription renewal claim"),
        ctx.db
          .update(subscriptionRenewals)
          .set({ status: "failed", errorMessage: message.slice(0, 500), nextRetryDate: retry })
          .where(eq(subscriptionRenewals.id, claim.id)),
        ctx.db
          .update(subscriptions)
          .set({
            status: "suspended",
            retryDate: retry,
            failedAttempts: failures,
            suspendedAt: r.status === "suspended" ? r.suspendedAt : at,
            modifiedAt: at,
            changeToken: token,
          })
          .where(
            and(
              eq(subscriptions.id, r.id),
              eq(subscriptions.status, r.status),
              eq(subscriptions.nextBillingDate, period),
            ),
          ),
      ],
      r.status === "suspended"
        ? sql`SELECT NULL AS id, NULL AS app_id, NULL AS type, NULL AS payload WHERE 0`
        : changedRowEvent(
            "subscription.suspended",
            r.id,
            token,
            sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'error_message', ${message})`,
          ),
    );
  } catch (error) {
    // Another run took the claim over meanwhile: the period is its to settle.
    if (!isGuardAbort(error)) throw error;
    return "skipped";
  }
  return "failed";
}
