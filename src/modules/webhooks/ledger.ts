import { and, eq, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { insertSelect } from "../../core/batch-plan";
import { notDeletedRow } from "../../core/crud/tenant-table";
import type { EventMessage } from "../../core/events/outbox";
import { inList } from "../../core/sql";
import type { Db } from "../../db/client";
import {
  type DeliveryRow,
  FINAL_STATES,
  type SKIP_REASONS,
  type WebhookRow,
  webhookDeliveries,
  webhooks,
} from "./tables";

/**
 * The delivery ledger's statements: fan-out (one row per event and subscribed webhook), the claim
 * an attempt takes, skips, and the queries of the consumer. See `tables.ts` for what a row means.
 */

export type SkipReason = (typeof SKIP_REASONS)[number];
export type DeliveryState = DeliveryRow["status"];

/** The `webhook-id` of one event's deliveries to one webhook: stable across attempts, and the ledger's key. */
export const deliveryIdOf = (eventId: string, webhookId: number) => `${eventId}.${webhookId}`;

/** `evt_….12` back into its event id and webhook id; null when it is not one. */
export function parseDeliveryId(id: string): { eventId: string; webhookId: number } | null {
  const m = /^(evt_[0-9A-Za-z]{1,64})\.([1-9]\d{0,15})$/.exec(id);
  return m && Number.isSafeInteger(Number(m[2])) ? { eventId: m[1]!, webhookId: Number(m[2]) } : null;
}

export const isFinal = (state: DeliveryState) => (FINAL_STATES as readonly string[]).includes(state);

/**
 * Open deliveries, written as literals so that SQLite can use the partial index of open rows (it
 * cannot prove that bound parameters match the index's condition).
 */
export const OPEN = sql`${webhookDeliveries.status} IN ('pending', 'retrying')`;

/** Open and not held by an attempt in flight. */
export const openUnleased = (now: string) =>
  and(OPEN, or(isNull(webhookDeliveries.leasedUntil), lt(webhookDeliveries.leasedUntil, now)));

/**
 * A delivery row of event `e` (a json_each row of id, type, app_id) for webhook `w`: `pending` and
 * due now when the webhook is active, else `skipped` as disabled.
 */
const deliveryRow = (now: string) => ({
  appId: sql`w.app_id`,
  webhookId: sql`w.id`,
  eventId: sql`e.value ->> '$.id'`,
  event: sql`e.value ->> '$.type'`,
  status: sql`CASE WHEN w.is_active THEN 'pending' ELSE 'skipped' END`,
  skipReason: sql`CASE WHEN w.is_active THEN NULL ELSE 'webhook_disabled' END`,
  attempts: 0,
  scheduleFrom: 0,
  nextAttemptAt: sql`CASE WHEN w.is_active THEN ${now} END`,
  createdAt: now,
  updatedAt: now,
});

/**
 * Fan-out: a row for every live webhook of the event's store subscribed to its type, `pending`
 * (due now) when the webhook is active and `skipped` when it is off, so that a recover can send
 * what a disabled webhook missed. Idempotent: the outbox publisher writes the rows before it sends
 * an event, and the consumer writes them again for an event that reached it another way.
 */
export async function recordDeliveries(db: Db, events: EventMessage[]): Promise<void> {
  if (!events.length) return;
  const now = new Date().toISOString();
  const keys = JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, app_id: e.app_id })));
  await db.batch([
    insertSelect(
      db,
      webhookDeliveries,
      deliveryRow(now),
      sql`FROM json_each(${keys}) e
        JOIN ${webhooks} w ON w.app_id = e.value ->> '$.app_id' AND ${notDeletedRow("w")}
        WHERE EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = e.value ->> '$.type')`,
      { onConflictDoNothing: true },
    ),
  ]);
}

/**
 * The row of a delivery message that has none: a message sent before the ledger existed, or by
 * hand. The message names the webhook, so only its being live counts, not its subscriptions.
 */
export async function recordNamedDeliveries(db: Db, named: { event: EventMessage; webhook_id: number }[]) {
  if (!named.length) return;
  const now = new Date().toISOString();
  const keys = JSON.stringify(
    named.map((m) => ({ id: m.event.id, type: m.event.type, app_id: m.event.app_id, webhook: m.webhook_id })),
  );
  await db.batch([
    insertSelect(
      db,
      webhookDeliveries,
      deliveryRow(now),
      sql`FROM json_each(${keys}) e
        JOIN ${webhooks} w ON w.id = e.value ->> '$.webhook' AND w.app_id = e.value ->> '$.app_id'
        WHERE ${notDeletedRow("w")}`,
      { onConflictDoNothing: true },
    ),
  ]);
}

export type Delivery = { delivery: DeliveryRow; webhook: WebhookRow | null };

/** Every delivery of these events, with its webhook (null if it no longer exists). */
export async function deliveriesOf(db: Db, eventIds: string[]): Promise<Delivery[]> {
  if (!eventIds.length) return [];
  return db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .leftJoin(webhooks, and(eq(webhooks.id, webhookDeliveries.webhookId), eq(webhooks.appId, webhookDeliveries.appId)))
    .where(inList(webhookDeliveries.eventId, eventIds));
}

/**
 * Takes the next attempt of a delivery: counts it and holds the row for `leaseMs`. Guarded on the
 * count it was read with, so that of two messages carrying the same delivery (a duplicate, or one
 * the reconciler re-sent) only one attempts it. False when another has it or it moved on.
 */
export async function claim(db: Db, d: DeliveryRow, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const result = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      leasedUntil: new Date(now + leaseMs).toISOString(),
      updatedAt: at,
    })
    .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.attempts, d.attempts), openUnleased(at)))
    .run();
  return result.meta.changes > 0;
}

/**
 * Takes the first attempts of many deliveries in one statement (a batch of events fans out to
 * them together); returns the ids it took. The same guard as `claim`.
 */
export async function claimFirsts(db: Db, ids: number[], leaseMs: number): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const now = Date.now();
  const at = new Date(now).toISOString();
  const rows = await db
    .update(webhookDeliveries)
    .set({ attempts: 1, leasedUntil: new Date(now + leaseMs).toISOString(), updatedAt: at })
    .where(and(inList(webhookDeliveries.id, ids), eq(webhookDeliveries.attempts, 0), openUnleased(at)))
    .returning({ id: webhookDeliveries.id });
  return new Set(rows.map((r) => r.id));
}

/**
 * Gives back a claim whose attempt was not made (its webhook turned out slow in the same batch, see
 * gate.ts), so that the message that now carries the delivery can take it.
 */
export async function releaseClaim(db: Db, id: number, attempt: number): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ attempts: attempt - 1, leasedUntil: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.attempts, attempt), OPEN));
}

/** Ends the open, unheld deliveries that `where` selects as skipped, for `reason`. */
export function skipOpen(db: Db, where: SQL | undefined, reason: SkipReason, now = new Date().toISOString()) {
  return db
    .update(webhookDeliveries)
    .set({ status: "skipped", skipReason: reason, nextAttemptAt: null, updatedAt: now })
    .where(and(where, openUnleased(now)));
}

/** The open deliveries of one webhook. */
export const ofWebhook = (webhook: Pick<WebhookRow, "id" | "appId">) =>
  and(eq(webhookDeliveries.appId, webhook.appId), eq(webhookDeliveries.webhookId, webhook.id));

/** What an attempt changes in its delivery's row. */
export type Settlement = {
  id: number;
  /** The attempt it records: the claim made it the row's count, and the change is guarded on it. */
  attempt: number;
  status: "delivered" | "retrying" | "failed";
  nextAttemptAt: string | null;
  statusCode: number | null;
  errorClass: DeliveryRow["lastErrorClass"];
  error: string | null;
  at: string;
};

/**
 * The ledger's changes after attempts, in one statement however many (a batch of events makes a
 * hundred first attempts at once): an UPDATE … FROM the settlements as JSON, each row guarded on
 * the attempt it records.
 */
export function settle(db: Db, settlements: Settlement[]) {
  const rows = JSON.stringify(settlements.map((s) => ({ ...s, error: s.error?.slice(0, 300) ?? null })));
  const field = (name: keyof Settlement) => sql`s.value ->> ${`$.${name}`}`;
  return db
    .update(webhookDeliveries)
    .set({
      status: field("status"),
      nextAttemptAt: field("nextAttemptAt"),
      leasedUntil: null,
      lastAttemptAt: field("at"),
      lastStatusCode: field("statusCode"),
      lastErrorClass: field("errorClass"),
      lastError: field("error"),
      updatedAt: field("at"),
    })
    .from(sql`json_each(${rows}) s`)
    .where(and(eq(webhookDeliveries.id, field("id")), eq(webhookDeliveries.attempts, field("attempt"))));
}
