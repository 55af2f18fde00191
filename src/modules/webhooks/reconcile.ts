import { and, eq, lt } from "drizzle-orm";
import { outboxEvents } from "../../core/events/outbox";
import { createDb, type Db } from "../../db/client";
import { everyShardBinding } from "../../db/shards";
import { OPEN, openUnleased, type SkipReason } from "./ledger";
import { type DeliveryMessage, deliveryMessage, laneFor, lanesOf, sendDeliveries } from "./messages";
import { webhookDeliveries, webhooks } from "./tables";

/** How late a delivery must be before the reconciler takes it: a message in flight arrives well within it. */
export const OVERDUE_MS = 60_000;
const RECONCILE_MAX = 500;

export type Reconciled = { resent: number; skipped: number; failed: number };

/**
 * Runs on the schedule: every open delivery whose attempt is more than a minute overdue, and that no
 * attempt holds, lost its message (a queue that dropped it, a runtime that crashed, a send that
 * failed after the ledger was written). It is sent again, on its webhook's lane; one whose webhook
 * is off or deleted ends skipped. Its due time moves to now, so the next run leaves it to the message
 * for another minute; the claim keeps a late original and the copy from both attempting.
 */
export async function reconcileDeliveries(env: Env, now = Date.now()): Promise<Reconciled> {
  // Every shard's deliveries, one shard after another; the counts are the sums.
  const done: Reconciled = { resent: 0, skipped: 0, failed: 0 };
  for (const { d1 } of everyShardBinding(env)) {
    const one = await reconcileShard(env, createDb(d1), now);
    done.resent += one.resent;
    done.skipped += one.skipped;
    done.failed += one.failed;
  }
  return done;
}

/** One shard's overdue deliveries. */
async function reconcileShard(env: Env, db: Db, now: number): Promise<Reconciled> {
  const at = new Date(now).toISOString();
  const d = webhookDeliveries;
  const rows = await db
    .select({ delivery: d, webhook: webhooks, payload: outboxEvents.payload })
    .from(d)
    .leftJoin(webhooks, and(eq(webhooks.id, d.webhookId), eq(webhooks.appId, d.appId)))
    .leftJoin(outboxEvents, eq(outboxEvents.id, d.eventId))
    .where(and(OPEN, lt(d.nextAttemptAt, new Date(now - OVERDUE_MS).toISOString()), openUnleased(at)))
    .orderBy(d.nextAttemptAt)
    .limit(RECONCILE_MAX);
  const done: Reconciled = { resent: 0, skipped: 0, failed: 0 };
  if (!rows.length) return done;

  const one = (id: number, attempts: number) => and(eq(d.id, id), eq(d.attempts, attempts), openUnleased(at));
  const statements = rows.map(({ delivery: r, webhook, payload }) => {
    if (!webhook || webhook.isDeleted || !webhook.isActive) {
      const reason: SkipReason = webhook && !webhook.isDeleted ? "webhook_disabled" : "webhook_deleted";
      return db
        .update(d)
        .set({ status: "skipped", skipReason: reason, nextAttemptAt: null, updatedAt: at })
        .where(one(r.id, r.attempts));
    }
    if (!payload) {
      // Every event of the ledger went through the outbox, which keeps them: this is only defensive.
      const lastError = "The event is no longer in the outbox.";
      return db
        .update(d)
        .set({ status: "failed", nextAttemptAt: null, lastError, updatedAt: at })
        .where(one(r.id, r.attempts));
    }
    return db.update(d).set({ nextAttemptAt: at, updatedAt: at }).where(one(r.id, r.attempts));
  });
  const [first, ...rest] = statements;
  const results = await db.batch([first!, ...rest]);

  const lanes = { fast: [] as DeliveryMessage[], slow: [] as DeliveryMessage[] };
  for (const [i, { webhook, payload }] of rows.entries()) {
    if ((results[i]?.meta.changes ?? 0) === 0) continue; // an attempt or a message took it meanwhile
    if (!webhook || webhook.isDeleted || !webhook.isActive) done.skipped++;
    else if (!payload) done.failed++;
    else {
      lanes[laneFor(webhook)].push(deliveryMessage(payload, webhook.id));
      done.resent++;
    }
  }
  const queues = lanesOf(env);
  await sendDeliveries(queues.fast, lanes.fast);
  await sendDeliveries(queues.slow, lanes.slow);
  return done;
}
