import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type EventMessage, outboxEvents } from "../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../core/listing";
import { inList } from "../../core/sql";
import { deliveryIdOf, parseDeliveryId } from "./ledger";
import { deliveryMessage, type Lanes, laneFor, sendDeliveries } from "./messages";
import type { WebhookDelivery } from "./schemas";
import { found } from "./service";
import { DELIVERY_STATES, type DeliveryRow, SKIP_REASONS, type WebhookRow, webhookDeliveries } from "./tables";

/**
 * The ledger as merchants see it (List Webhook Deliveries) and what they may do with it: Resend one
 * delivery, Recover a webhook's failed and skipped deliveries since a time. Both put deliveries back
 * on a fresh schedule (`schedule_from`), send them on their webhook's lane after the response, and
 * leave the rest to the reconciler if that send is lost. Re-enabling a webhook replays nothing.
 */

export function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: deliveryIdOf(row.eventId, row.webhookId),
    webhook: row.webhookId,
    event_id: row.eventId,
    event: row.event,
    status: row.status,
    skip_reason: row.skipReason,
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt,
    last_attempt_at: row.lastAttemptAt,
    last_status_code: row.lastStatusCode,
    last_error_class: row.lastErrorClass,
    last_error: row.lastError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

const d = webhookDeliveries;

export const DELIVERY_LIST: ListSpec = {
  fields: {
    webhook: { column: d.webhookId, kind: "integer" },
    event_id: { column: d.eventId, kind: "string" },
    event: { column: d.event, kind: "string" },
    status: { column: d.status, kind: "string", values: DELIVERY_STATES },
    skip_reason: { column: d.skipReason, kind: "string", values: SKIP_REASONS, nullable: true },
    attempts: { column: d.attempts, kind: "integer" },
    next_attempt_at: { column: d.nextAttemptAt, kind: "datetime", nullable: true },
    created_at: { column: d.createdAt, kind: "datetime" },
    updated_at: { column: d.updatedAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: d.id,
};

export async function listDeliveries(ctx: ServiceContext, q: ListQuery): Promise<Page<WebhookDelivery>> {
  // The ledger is never deleted from, so only the tenant scopes it.
  const page = await listPage(ctx.db, q, { table: d, scope: () => eq(d.appId, ctx.appId) });
  return mapPage(page, deliveryView);
}

function mustBeOn(webhook: WebhookRow) {
  if (!webhook.isActive)
    throw new ApiError(409, "webhook_inactive", "The webhook is off: turn it on (`is_active: true`) first.");
}

/** Back on a fresh schedule, due now; guarded on the state it was read in. */
const restart = (now: string) => ({
  status: "pending" as const,
  skipReason: null,
  scheduleFrom: sql`${d.attempts}`,
  nextAttemptAt: now,
  updatedAt: now,
});

/** The events of these deliveries, from the outbox, which keeps every event. */
async function eventsOf(ctx: ServiceContext, eventIds: string[]): Promise<Map<string, EventMessage>> {
  const byId = new Map<string, EventMessage>();
  for (let i = 0; i < eventIds.length; i += 100) {
    const rows = await ctx.db
      .select({ id: outboxEvents.id, payload: outboxEvents.payload })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.appId, ctx.appId), inList(outboxEvents.id, eventIds.slice(i, i + 100))));
    for (const r of rows) byId.set(r.id, r.payload);
  }
  return byId;
}

function sendLater(ctx: ServiceContext, lanes: Lanes, webhook: WebhookRow, rows: DeliveryRow[]) {
  if (!rows.length) return;
  ctx.events.defer(
    (async () => {
      const events = await eventsOf(
        ctx,
        rows.map((r) => r.eventId),
      );
      const messages = rows.flatMap((r) => {
        const event = events.get(r.eventId);
        return event ? [deliveryMessage(event, webhook.id)] : [];
      });
      await sendDeliveries(lanes[laneFor(webhook)], messages);
    })(),
  );
}

/** Resend: one delivery that ended (delivered, failed or skipped), sent again on a fresh schedule. */
export async function resendDelivery(ctx: ServiceContext, lanes: Lanes, id: string): Promise<WebhookDelivery> {
  const key = parseDeliveryId(id);
  const scope = key && and(eq(d.appId, ctx.appId), eq(d.eventId, key.eventId), eq(d.webhookId, key.webhookId));
  if (!scope) throw ApiError.notFound("delivery_not_found", `Delivery ${id}`);
  // The id names the webhook: it is read with the delivery (a missing delivery is the 404 told first).
  const [row, webhook] = await Promise.allSettled([
    ctx.db.select().from(d).where(scope).get(),
    found(ctx, key.webhookId),
  ]);
  if (row.status === "rejected") throw row.reason;
  if (!row.value) throw ApiError.notFound("delivery_not_found", `Delivery ${id}`);
  if (webhook.status === "rejected") throw webhook.reason;
  mustBeOn(webhook.value);
  const now = new Date().toISOString();
  const [updated] = await ctx.db
    .update(d)
    .set(restart(now))
    .where(and(eq(d.id, row.value.id), sql`${d.status} IN ('delivered', 'failed', 'skipped')`))
    .returning();
  if (!updated)
    throw new ApiError(
      409,
      "delivery_in_progress",
      "The delivery has not ended yet: it will be attempted at `next_attempt_at`.",
    );
  sendLater(ctx, lanes, webhook.value, [updated]);
  return deliveryView(updated);
}

/** The most deliveries one Recover puts back; the answer says when more remain. */
export const RECOVER_MAX = 1_000;

/** Recover: a webhook's failed and skipped deliveries created in [since, until), oldest first. */
export async function recoverWebhook(
  ctx: ServiceContext,
  lanes: Lanes,
  webhookId: number,
  window: { since: string; until?: string },
): Promise<{ recovered: number; more: boolean }> {
  const now = new Date().toISOString();
  const since = new Date(window.since).toISOString();
  const until = window.until ? new Date(window.until).toISOString() : now;
  // The deliveries to put back are picked with the webhook's read (its id is the path's).
  const picked = ctx.db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        eq(d.appId, ctx.appId),
        eq(d.webhookId, webhookId),
        gte(d.createdAt, since),
        lt(d.createdAt, until),
        sql`${d.status} IN ('failed', 'skipped')`,
      ),
    )
    .orderBy(asc(d.createdAt))
    .limit(RECOVER_MAX + 1);
  const [webhook, pickedRows] = await Promise.all([found(ctx, webhookId), picked]);
  mustBeOn(webhook);
  const ids = pickedRows.map((r) => r.id);
  const take = ids.slice(0, RECOVER_MAX);
  const rows = take.length
    ? await ctx.db
        .update(d)
        .set(restart(now))
        .where(and(inList(d.id, take), sql`${d.status} IN ('failed', 'skipped')`))
        .returning()
    : [];
  sendLater(ctx, lanes, webhook, rows);
  return { recovered: rows.length, more: ids.length > RECOVER_MAX };
}
