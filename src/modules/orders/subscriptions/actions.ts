import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent } from "../../../core/events/outbox";
import { inList } from "../../../core/sql";
import { nowIso, todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { readRefundable, refundInvoice } from "../refunds/service";
import { invoices } from "../tables";
import {
  applyChange,
  changeRow,
  daysBetween,
  guardedUpdate,
  newChangeToken,
  resumeSet,
  retrying,
  type SubscriptionSet,
} from "./change";
import { type SubscriptionAction, subscriptionMachine } from "./machine";
import { subscriptionRef } from "./plan";
import type { CancelSubscription, MerchantSubscription } from "./schemas";
import { findSubscription, merchantSubscriptionAnswer, type SubscriptionAnswer, type SubscriptionRow } from "./service";
import { subscriptions } from "./tables";

const label = (id: number) => `Subscription ${id}`;
const LIVE = new Set(["pending", "trialing", "active", "suspended", "paused"]);

/**
 * MS5 / U3: auto-renewal off; the subscription keeps its status until its period ends, then expires.
 * Idempotent: a live subscription already not renewing is answered as it is (no event). One read
 * (the answer's own), then the change with the answer read back in its batch.
 */
export async function cancelAutoRenewal<View>(
  ctx: ServiceContext,
  id: number,
  answer: SubscriptionAnswer<View>,
): Promise<View> {
  return retrying(id, async () => {
    const { row: r, view } = await answer.read();
    if (!r.autoRenew && LIVE.has(r.status)) return view;
    subscriptionMachine.next(r.status, "cancel_auto_renewal", label(id));
    const { applied, results } = await applyChange(
      ctx,
      r,
      { autoRenew: false },
      "subscription.auto_renewal_cancelled",
      { statements: [answer.statement()] },
    );
    return applied ? answer.of(results[0]).view : undefined;
  });
}

/** The paid invoice of the current period (its renewal's, or the checkout's), for a refund: subqueries on the row. */
function currentPeriodInvoice(ctx: ServiceContext, id: number) {
  return ctx.db
    .select({ id: invoices.id, status: invoices.status, totalMinor: invoices.totalMinor })
    .from(invoices)
    .where(and(sql`${invoices.id} = ${currentPeriodInvoiceId(id)}`, eq(invoices.type, "invoice")))
    .get();
}

/** The id of that invoice, as a subquery. */
function currentPeriodInvoiceId(id: number): SQL {
  const sub = sql`(SELECT * FROM subscriptions WHERE id = ${id})`;
  return sql`coalesce((SELECT r.invoice_id FROM subscription_renewals r, ${sub} AS s
      WHERE r.subscription_id = s.id AND r.period_start = coalesce(s.current_period_start_date, '')
        AND r.status = 'paid' AND r.invoice_id IS NOT NULL),
    (SELECT first_invoice_id FROM ${sub}))`;
}

/** The unused share of the period (paused days count as unused): 0..1. */
function unusedShare(r: SubscriptionRow, today: string, timeZone: string): number {
  if (!r.currentPeriodStartDate || !r.currentPeriodEndDate) return 0;
  const upTo = r.pausedAt ? todayIn(timeZone, new Date(r.pausedAt)) : today;
  const length = daysBetween(r.currentPeriodStartDate, r.currentPeriodEndDate);
  if (length <= 0) return 0;
  return Math.min(1, Math.max(0, daysBetween(upTo, r.currentPeriodEndDate) / length));
}

/**
 * MS4: now (cancelled, with `subscription.cancelled`) or at the period's end (as MS5). A refund of
 * the current period's paid invoice goes through Refund Invoice first (`full`, or `prorated`: the
 * unused days' share), so that a refused refund leaves the subscription as it was. Everything it
 * reads is read at once; the change reads the answer back in its batch.
 */
export async function cancelSubscription(
  ctx: ServiceContext,
  env: Env,
  id: number,
  body: CancelSubscription,
): Promise<MerchantSubscription> {
  const answer = merchantSubscriptionAnswer(ctx, id);
  if (body.at_period_end) {
    if (body.refund !== "none")
      throw ApiError.validation({ refund: ["A cancellation at the period's end refunds nothing: give `none`."] });
    return cancelAutoRenewal(ctx, id, answer);
  }
  // The refund's own reads come with these (of the same invoice, by its subquery); a refusal they
  // meet is told after the subscription's own.
  const refunding = body.refund !== "none";
  const [first, settings, invoice, refundable] = await Promise.all([
    answer.read(),
    readStoreSettings(ctx.db, ctx.appId),
    refunding ? currentPeriodInvoice(ctx, id) : undefined,
    refunding ? readRefundable(ctx, currentPeriodInvoiceId(id)).catch(() => undefined) : undefined,
  ]);
  let { row: r } = first;
  subscriptionMachine.next(r.status, "cancel", label(id));
  const today = todayIn(settings.timezone);
  if (body.refund !== "none") {
    if (invoice?.status !== "paid")
      throw ApiError.conflict("refund_not_possible", `${label(id)} has no paid invoice for its current period.`);
    const amount =
      body.refund === "full" ? undefined : Math.floor(invoice.totalMinor * unusedShare(r, today, settings.timezone));
    // Its own reads and batch (and a card's gateway): what it refunds must land before the cancellation.
    if (amount !== 0)
      await refundInvoice(
        ctx,
        env,
        invoice.id,
        { ...(amount !== undefined && { amount }), refund_reason: body.reason ?? `Subscription ${id} cancelled` },
        undefined,
        refundable?.invoice.id === invoice.id ? refundable : undefined,
      );
  }
  return retrying(id, async () => {
    if (r.status === "cancelled") return (await answer.read()).view;
    subscriptionMachine.next(r.status, "cancel", label(id));
    const { applied, results } = await applyChange(
      ctx,
      r,
      {
        status: "cancelled",
        cancelledAt: nowIso(),
        cancellationReason: body.reason ?? "Cancelled by the merchant.",
        endDate: today,
        retryDate: null,
        pauseResumesAt: null,
      },
      "subscription.cancelled",
      {
        data: sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'reason', cancellation_reason)`,
        statements: [answer.statement()],
      },
    );
    if (applied) return answer.of(results[0]).view;
    r = (await answer.read()).row;
    return undefined;
  });
}

/** MS6 / MS7: the usage counter moved by `change`, within 0..usage_limit. */
export async function changeUsage(
  ctx: ServiceContext,
  id: number,
  change: number,
  reference: string | null,
): Promise<{
  id: number;
  usage_counter: number;
  usage_limit: number | null;
  usage_unit: string;
  remaining: number | null;
}> {
  return retrying(id, async () => {
    const r = await findSubscription(ctx, id);
    subscriptionMachine.next(r.status, "record_usage", label(id));
    const next = r.usageCounter + change;
    const remaining = r.usageLimit === null ? null : r.usageLimit - r.usageCounter;
    if (r.usageLimit !== null && next > r.usageLimit)
      throw ApiError.conflict(
        "usage_limit_exceeded",
        `${label(id)} has ${remaining} ${r.usageUnit} left of ${r.usageLimit}; ${change} asked.`,
        { usage_counter: r.usageCounter, usage_limit: r.usageLimit, remaining },
      );
    if (next < 0)
      throw ApiError.conflict(
        "usage_below_zero",
        `${label(id)}'s usage counter is ${r.usageCounter}; ${-change} asked off.`,
        {
          usage_counter: r.usageCounter,
        },
      );
    const applied = await changeRow(ctx, r, { usageCounter: next }, "subscription.usage_updated", {
      data: sql`json_object('id', id, 'usage_counter', usage_counter, 'change', ${change}, 'reference', ${reference})`,
    });
    if (!applied) return undefined;
    return {
      id,
      usage_counter: next,
      usage_limit: r.usageLimit,
      usage_unit: r.usageUnit,
      remaining: r.usageLimit === null ? null : r.usageLimit - next,
    };
  });
}

type BulkResult = { id: number; success: boolean; error: { code: string; detail: string } | null };

/**
 * A bulk action (MS8, MS9): every id answered on its own (not found, an illegal move, changed
 * meanwhile), the legal ones changed in ONE batch, each guarded on its row as read, one event each.
 */
async function bulk(
  ctx: ServiceContext,
  ids: number[],
  rows: SubscriptionRow[],
  action: SubscriptionAction,
  /** What to set; `silent`: a change of no status (a resume scheduled for later), without the event. */
  setOf: (r: SubscriptionRow) => { set: SubscriptionSet; silent?: boolean },
  eventType: "subscription.paused" | "subscription.resumed",
) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const results = new Map<number, BulkResult>();
  const statements: BatchItem<"sqlite">[] = [];
  const changing: number[] = [];
  const token = newChangeToken();
  const at = nowIso();
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) {
      results.set(id, {
        id,
        success: false,
        error: { code: "subscription_not_found", detail: `${label(id)} not found.` },
      });
      continue;
    }
    try {
      subscriptionMachine.next(r.status, action, label(id));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.set(id, { id, success: false, error: { code: error.code, detail: error.detail } });
      continue;
    }
    const { set, silent } = setOf(r);
    statements.push(guardedUpdate(ctx, r, set, silent ? newChangeToken() : token, at));
    changing.push(id);
  }
  if (statements.length) {
    const { results: out } = await emit(
      ctx.db,
      ctx.events,
      statements,
      rowEvent(eventType, subscriptions, sql`change_token = ${token}`, subscriptionRef),
    );
    changing.forEach((id, i) => {
      const applied = (out[i] as unknown[]).length > 0;
      results.set(id, {
        id,
        success: applied,
        error: applied ? null : { code: "concurrent_update", detail: `${label(id)} changed meanwhile; retry.` },
      });
    });
  }
  const list = ids.map((id) => results.get(id)!);
  const succeeded = list.filter((r) => r.success).length;
  return { results: list, succeeded_count: succeeded, failed_count: list.length - succeeded };
}

/** The store's settings and the subscriptions `ids` names, read at once. */
const bulkReads = (ctx: ServiceContext, ids: number[]) =>
  Promise.all([
    readStoreSettings(ctx.db, ctx.appId),
    ctx.db
      .select()
      .from(subscriptions)
      .where(and(live(subscriptions, ctx.appId), inList(subscriptions.id, ids))),
  ]);

/** MS8: active or suspended subscriptions paused (no renewals), optionally until `resumes_at`. */
export async function bulkPause(ctx: ServiceContext, body: { subscription_ids: number[]; resumes_at?: string }) {
  const [{ timezone }, rows] = await bulkReads(ctx, body.subscription_ids);
  if (body.resumes_at !== undefined && body.resumes_at <= todayIn(timezone))
    throw ApiError.validation({ resumes_at: ["Must be after today (the store's calendar)."] });
  const at = nowIso();
  return bulk(
    ctx,
    body.subscription_ids,
    rows,
    "pause",
    () => ({ set: { status: "paused", pausedAt: at, pauseResumesAt: body.resumes_at ?? null, retryDate: null } }),
    "subscription.paused",
  );
}

/** MS9: paused subscriptions active again now (the term continues), or on `resume_on`. */
export async function bulkResume(ctx: ServiceContext, body: { subscription_ids: number[]; resume_on?: string }) {
  const [{ timezone }, rows] = await bulkReads(ctx, body.subscription_ids);
  const today = todayIn(timezone);
  const later = body.resume_on !== undefined && body.resume_on > today;
  return bulk(
    ctx,
    body.subscription_ids,
    rows,
    "resume",
    // Scheduled: the status stays paused until the day (the scheduled run resumes it, with the event).
    (r) =>
      later ? { set: { pauseResumesAt: body.resume_on! }, silent: true } : { set: resumeSet(r, today, timezone) },
    "subscription.resumed",
  );
}
