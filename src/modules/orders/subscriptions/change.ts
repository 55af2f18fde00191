import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { nowIso, todayIn } from "../../../core/time";
import { addDuration } from "../recurring/dates";
import { subscriptionRef } from "./plan";
import type { SubscriptionRow } from "./service";
import { subscriptions } from "./tables";

/** The helpers every change of a subscription row uses: a guarded UPDATE and its events by token. */

export type SubscriptionSet = SQLiteUpdateSetSource<typeof subscriptions>;

export const newChangeToken = () => crypto.randomUUID();

/**
 * The UPDATE of one row as it was read: its status and `modified_at` repeated in the WHERE, so that
 * of two racing changes only one applies; `change_token` marks the row for the change's events.
 */
export function guardedUpdate(
  ctx: ServiceContext,
  r: SubscriptionRow,
  set: SubscriptionSet,
  token: string,
  at: string,
) {
  return ctx.db
    .update(subscriptions)
    .set({ ...set, modifiedAt: at, changeToken: token })
    .where(
      and(eq(subscriptions.id, r.id), eq(subscriptions.status, r.status), eq(subscriptions.modifiedAt, r.modifiedAt)),
    )
    .returning({ id: subscriptions.id });
}

/** An event of the row the change marked with `token` (none when the change did not apply). */
export const changedRowEvent = (type: EventType, id: number, token: string, data: SQL = subscriptionRef) =>
  rowEvent(type, subscriptions, sql`id = ${id} AND change_token = ${token}`, data);

/**
 * Applies `set` to `r` (with `type`'s event, when given) in one batch, with `more` statements and
 * events; true when the row was still as read.
 */
export async function changeRow(
  ctx: ServiceContext,
  r: SubscriptionRow,
  set: SubscriptionSet,
  type: EventType | null,
  more: { statements?: BatchItem<"sqlite">[]; events?: SQL[]; data?: SQL } = {},
): Promise<boolean> {
  return (await applyChange(ctx, r, set, type, more)).applied;
}

/** `changeRow`, answering also the results of `more.statements` (a read of the answer, in the same batch). */
export async function applyChange(
  ctx: ServiceContext,
  r: SubscriptionRow,
  set: SubscriptionSet,
  type: EventType | null,
  more: { statements?: BatchItem<"sqlite">[]; events?: SQL[]; data?: SQL } = {},
): Promise<{ applied: boolean; results: unknown[] }> {
  const token = newChangeToken();
  const at = nowIso();
  const events = [...(type ? [changedRowEvent(type, r.id, token, more.data)] : []), ...(more.events ?? [])];
  const update = guardedUpdate(ctx, r, set, token, at);
  const results: unknown[] = events.length
    ? (await emit(ctx.db, ctx.events, [update, ...(more.statements ?? [])], unionEvents(events))).results
    : await ctx.db.batch([update, ...(more.statements ?? [])]);
  return { applied: (results[0] as unknown[]).length > 0, results: results.slice(1) };
}

/** Reads, decides and writes again while another change lands in between (three times at most). */
export async function retrying<T>(id: number, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 3; i++) {
    const out = await attempt();
    if (out !== undefined) return out;
  }
  throw ApiError.conflict("concurrent_update", `Subscription ${id} kept changing; retry.`);
}

export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * What resuming a paused subscription sets (MS9, or its `pause_resumes_at` reached): active again,
 * its period end and next billing date moved on by the days it was paused, so the term it had left
 * continues (a plan paused at month 3 of 12 still has 9 to go).
 */
export function resumeSet(r: SubscriptionRow, today: string, timeZone: string): SubscriptionSet {
  const pausedOn = r.pausedAt ? todayIn(timeZone, new Date(r.pausedAt)) : today;
  const days = Math.max(0, daysBetween(pausedOn, today));
  const shift = (d: string | null) => (d ? addDuration(d, days, "day") : d);
  return {
    status: "active",
    pausedAt: null,
    pauseResumesAt: null,
    retryDate: null,
    failedAttempts: 0,
    currentPeriodEndDate: shift(r.currentPeriodEndDate),
    nextBillingDate: shift(r.nextBillingDate),
  };
}
