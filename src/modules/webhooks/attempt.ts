import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { makeServiceContext } from "../../core/context";
import { type EventMessage, emit, newEvent } from "../../core/events/outbox";
import { deliveryLevel, log } from "../../core/logging";
import { chunkRows } from "../../core/sql";
import type { Db } from "../../db/client";
import { ATTEMPT_TIMEOUT_MS, type DeliveryResult, deliver, type Lane } from "./delivery";
import type { Gate } from "./gate";
import { deliveryIdOf, ofWebhook, type Settlement, settle, skipOpen } from "./ledger";
import { type DeliveryMessage, deliveryMessage } from "./messages";
import { type DeliveryRow, type WebhookRow, webhookLogs, webhooks } from "./tables";
import type { TargetPolicy } from "./target";

/** Seconds between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (10 attempts). */
export const DEFAULT_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
export const RETRY_AFTER_MAX_S = 86_400;
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export function retryDelays(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS;
  const parsed = raw?.split(",").map((s) => Number(s.trim()));
  return parsed?.length && parsed.every((n) => Number.isFinite(n) && n >= 0) ? parsed : DEFAULT_RETRY_DELAYS;
}

export const targetPolicy = (env: Env): TargetPolicy => ({
  allowLocalhost: env.WEBHOOKS_ALLOW_LOCALHOST === "true",
  resolveNames: env.ENVIRONMENT === "production",
});

/** ±10% so that a receiver's outage does not bring every retry back at the same second. */
const jitter = (s: number) => Math.max(1, Math.round(s * (0.9 + Math.random() * 0.2)));

export type Trigger = (typeof webhookLogs.$inferSelect)["trigger"];
type LogOutcome = (typeof webhookLogs.$inferSelect)["outcome"];

/** The webhook_logs row of one attempt. */
export function logRow(
  webhook: WebhookRow,
  event: EventMessage,
  result: DeliveryResult,
  extra: { attempt: number; trigger: Trigger; outcome: LogOutcome; nextAttemptAt: string | null },
): typeof webhookLogs.$inferInsert {
  return {
    appId: webhook.appId,
    webhookId: webhook.id,
    deliveryId: deliveryIdOf(event.id, webhook.id),
    eventId: event.id,
    event: event.type,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseBody: result.responseBody,
    errorClass: result.errorClass,
    createdAt: new Date().toISOString(),
    ...extra,
  };
}

/** What an attempt's result means for the delivery and its webhook. */
type Verdict =
  | { outcome: "delivered" }
  | { outcome: "retrying"; delayS: number }
  | { outcome: "failed" }
  | { outcome: "disabled"; reason: string };

function verdict(result: DeliveryResult, attempt: number, d: DeliveryRow, webhook: WebhookRow, env: Env): Verdict {
  if (result.ok) return { outcome: "delivered" };
  if (result.gone) return { outcome: "disabled", reason: "The target answered 410 Gone." };
  const failingFor = webhook.failingSince ? Date.now() - Date.parse(webhook.failingSince) : 0;
  if (failingFor >= DISABLE_AFTER_MS) return { outcome: "disabled", reason: "Every delivery failed for 5 days." };
  const delays = retryDelays(env);
  const step = attempt - d.scheduleFrom; // attempts made in the current schedule
  if (step > delays.length) return { outcome: "failed" };
  let delayS = jitter(delays[step - 1]!);
  if (result.retryAfterS !== null) delayS = Math.max(delayS, Math.min(result.retryAfterS, RETRY_AFTER_MAX_S));
  return { outcome: "retrying", delayS };
}

/**
 * Turns a webhook off, once: the UPDATE and the `webhook.disabled` event are guarded on it being
 * on, in one batch, so that of two attempts that both saw a 410 only one disables it and emits.
 * Its other open deliveries end skipped.
 */
export function disableWebhook(db: Db, webhook: WebhookRow, reason: string, now: string) {
  const on = and(eq(webhooks.id, webhook.id), eq(webhooks.appId, webhook.appId), eq(webhooks.isActive, true));
  return {
    changes: [
      db.update(webhooks).set({ isActive: false, disabledReason: reason, disabledAt: now, modifiedAt: now }).where(on),
      skipOpen(db, ofWebhook(webhook), "webhook_disabled", now),
    ],
    event: newEvent(webhook.appId, "webhook.disabled", { id: webhook.id, url: webhook.url, reason }),
    guard: sql`EXISTS (SELECT 1 FROM ${webhooks} WHERE ${on})`,
  };
}

/**
 * An attempt longer than this holds up a lane: the webhook's next deliveries go to the slow one. The
 * fast lane waits no longer (its timeout).
 */
export const SLOW_ATTEMPT_MS = ATTEMPT_TIMEOUT_MS.fast;

/**
 * What an attempt says of its webhook: a delivery stops the failure clock, a failure starts it; a
 * slow attempt (or a timeout) moves it to the slow lane, a quick one brings it back. Written only
 * when something changes, which is rare: most attempts cost no statement here.
 */
const wasSlow = (result: DeliveryResult) => result.errorClass === "timeout" || result.durationMs > SLOW_ATTEMPT_MS;

function healthChange(db: Db, webhook: WebhookRow, result: DeliveryResult, at: string) {
  const slow = wasSlow(result);
  const failing = !result.ok;
  if (failing === Boolean(webhook.failingSince) && slow === Boolean(webhook.slowSince)) return [];
  const scope = and(eq(webhooks.id, webhook.id), eq(webhooks.appId, webhook.appId));
  // No modified_at: the failure and slow clocks are not in the Webhook a list shows, so a mirror has
  // nothing to fetch (turning it off, which is shown, stamps it: disableWebhook).
  return [
    db
      .update(webhooks)
      .set({
        failingSince: failing ? sql`coalesce(${webhooks.failingSince}, ${at})` : null,
        slowSince: slow ? sql`coalesce(${webhooks.slowSince}, ${at})` : null,
      })
      .where(scope),
  ];
}

/** One consumer invocation: its lane, and the gate its attempts share (gate.ts). */
export type AttemptContext = { env: Env; ctx: ExecutionContext; db: Db; lane: Lane; gate: Gate };

/** The trigger of a delivery's next attempt, from the ledger: its first, the first after a resend, or a retry. */
export const triggerOf = (d: DeliveryRow): Trigger =>
  d.attempts === 0 ? "event" : d.attempts === d.scheduleFrom ? "resend" : "retry";

/** How long an attempt holds its delivery: its timeout, and time to record it. */
export const leaseMs = (lane: Lane) => ATTEMPT_TIMEOUT_MS[lane] + 30_000;

/** What comes after an attempt: the seconds until the next one (0: none), and the lane it belongs on. */
export type Next = { retryS: number; lane: Lane };

/** An attempt made and not yet recorded: what records it, and what follows it. */
export type Made = {
  webhook: WebhookRow;
  event: EventMessage;
  settlement: Settlement;
  log: typeof webhookLogs.$inferInsert;
  /** The webhook's failure clock and lane, when they change. */
  health: BatchItem<"sqlite">[];
  /** The service disables the webhook: recorded with its event, guarded (see `disableWebhook`). */
  off: ReturnType<typeof disableWebhook> | null;
  next: Next;
  /** It ran out of attempts: the dead-letter queue gets it once it is recorded. */
  dead: boolean;
};

/**
 * Sends one claimed delivery and logs the attempt as one line; returns the statements that record
 * it (the ledger, the logs, the webhook's health), so that many attempts can be recorded at once.
 */
export async function makeAttempt(
  x: AttemptContext,
  d: DeliveryRow,
  webhook: WebhookRow,
  event: EventMessage,
): Promise<Made> {
  const { env, db } = x;
  const attempt = d.attempts + 1;
  const id = deliveryIdOf(event.id, webhook.id);
  const result = await deliver(webhook, event, id, targetPolicy(env), ATTEMPT_TIMEOUT_MS[x.lane]);
  const v = verdict(result, attempt, d, webhook, env);
  // One clock read: the next attempt is the attempt's time plus the message's delay, exactly.
  const now = Date.now();
  const at = new Date(now).toISOString();
  const nextAttemptAt = v.outcome === "retrying" ? new Date(now + v.delayS * 1000).toISOString() : null;
  logAttempt(webhook, event, attempt, v.outcome, result, nextAttemptAt);
  return {
    webhook,
    event,
    settlement: {
      id: d.id,
      attempt,
      status: v.outcome === "delivered" ? "delivered" : v.outcome === "retrying" ? "retrying" : "failed",
      nextAttemptAt,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      error: result.ok ? null : (result.responseBody ?? result.errorClass),
      at,
    },
    log: logRow(webhook, event, result, { attempt, trigger: triggerOf(d), outcome: v.outcome, nextAttemptAt }),
    health: healthChange(db, webhook, result, at),
    off: v.outcome === "disabled" ? disableWebhook(db, webhook, v.reason, at) : null,
    next: { retryS: v.outcome === "retrying" ? v.delayS : 0, lane: wasSlow(result) ? "slow" : "fast" },
    dead: v.outcome === "failed",
  };
}

/**
 * Records attempts: all in one D1 batch (a batch of events makes a hundred first attempts at once),
 * a disable with its one event apart; then the deliveries that ran out of attempts go to the
 * dead-letter queue, after the ledger says so.
 */
export async function recordAttempts(x: AttemptContext, made: Made[]): Promise<void> {
  const { db, env } = x;
  const statements = (some: Made[]): BatchItem<"sqlite">[] =>
    some.length
      ? [
          settle(
            db,
            some.map((m) => m.settlement),
          ),
          ...chunkRows(
            webhookLogs,
            some.map((m) => m.log),
          ).map((rows) => db.insert(webhookLogs).values(rows)),
          ...some.flatMap((m) => m.health),
        ]
      : [];
  const [first, ...rest] = statements(made.filter((m) => !m.off));
  if (first) await db.batch([first, ...rest]);
  for (const m of made) {
    if (!m.off) continue;
    const sink = makeServiceContext(db, m.webhook.appId, env, (p) => x.ctx.waitUntil(p)).events;
    await emit(db, sink, [...statements([m]), ...m.off.changes], [m.off.event], { guard: m.off.guard });
  }
  for (const m of made.filter((one) => one.dead)) {
    const dead: DeliveryMessage = { ...deliveryMessage(m.event, m.webhook.id), dead_lettered: true };
    await env.EVENTS_DLQ.send(dead, { contentType: "json" });
  }
}

function logAttempt(
  webhook: WebhookRow,
  event: EventMessage,
  attempt: number,
  outcome: LogOutcome,
  result: DeliveryResult,
  nextAttemptAt: string | null,
) {
  log({
    msg: "webhook delivery",
    level: deliveryLevel(outcome),
    app_id: webhook.appId,
    webhook_id: webhook.id,
    event_id: event.id,
    event_type: event.type,
    delivery_id: deliveryIdOf(event.id, webhook.id),
    attempt,
    outcome,
    status_code: result.statusCode,
    error_class: result.errorClass,
    ms: result.durationMs,
    next_attempt_at: nextAttemptAt,
  });
}
