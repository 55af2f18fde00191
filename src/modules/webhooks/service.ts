import type { z } from "@hono/zod-openapi";
import { and, desc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { live } from "../../core/crud/tenant-table";
import { ApiError } from "../../core/errors";
import { type EventMessage, emit, newEvent } from "../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../core/listing";
import { nowIso } from "../../core/time";
import type { Db } from "../../db/client";
import { type DeliveryResult, deliver } from "./delivery";
import type { CreateWebhookSchema, UpdateWebhookSchema, Webhook, WebhookLog } from "./schemas";
import { newSecret } from "./signing";
import { DELIVERY_OUTCOMES, DELIVERY_TRIGGERS, type WebhookRow, webhookLogs, webhooks } from "./tables";
import { refuseTarget, type TargetPolicy } from "./target";

export type { WebhookRow };

type LogRow = typeof webhookLogs.$inferSelect;

/** How long a rotated-out secret still signs. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function webhookView(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    secret_key: row.secretKey,
    is_active: row.isActive,
    events: row.events,
    headers: row.headers,
    created_at: row.createdAt,
  };
}

export function logView(row: LogRow): WebhookLog {
  return {
    id: row.id,
    webhook: row.webhookId,
    delivery_id: row.deliveryId,
    event_id: row.eventId,
    event: row.event,
    attempt: row.attempt,
    trigger: row.trigger,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    response_body: row.responseBody,
    error_class: row.errorClass,
    status: row.outcome,
    next_attempt_at: row.nextAttemptAt,
    created_at: row.createdAt,
  };
}

function checkTarget(url: string, policy: TargetPolicy) {
  const why = refuseTarget(url, policy);
  if (why) throw ApiError.validation({ url: [why] }, "The webhook URL cannot be used; see `errors`.");
}

async function found(ctx: ServiceContext, id: number): Promise<WebhookRow> {
  const row = await ctx.db
    .select()
    .from(webhooks)
    .where(and(live(webhooks, ctx.appId), eq(webhooks.id, id)))
    .get();
  if (!row) throw ApiError.notFound("webhook_not_found", `Webhook ${id}`);
  return row;
}

export const WEBHOOK_LIST: ListSpec = {
  fields: {
    id: { column: webhooks.id, kind: "integer" },
    url: { column: webhooks.url, kind: "string" },
    is_active: { column: webhooks.isActive, kind: "boolean" },
    created_at: { column: webhooks.createdAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: webhooks.id,
};

export async function listWebhooks(ctx: ServiceContext, q: ListQuery): Promise<Page<Webhook>> {
  return mapPage(await listPage(ctx.db, q, { table: webhooks, scope: () => live(webhooks, ctx.appId) }), webhookView);
}

export async function createWebhook(
  ctx: ServiceContext,
  input: z.infer<typeof CreateWebhookSchema>,
  policy: TargetPolicy,
): Promise<Webhook> {
  checkTarget(input.url, policy);
  const [row] = await ctx.db
    .insert(webhooks)
    .values({
      appId: ctx.appId,
      url: input.url,
      secretKey: newSecret(),
      isActive: input.is_active,
      events: input.events,
      headers: input.headers,
    })
    .returning();
  return webhookView(row!);
}

export async function updateWebhook(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof UpdateWebhookSchema>,
  policy: TargetPolicy,
): Promise<Webhook> {
  await found(ctx, id);
  if (input.url !== undefined) checkTarget(input.url, policy);
  const [row] = await ctx.db
    .update(webhooks)
    .set({
      modifiedAt: nowIso(),
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.headers !== undefined && { headers: input.headers }),
      // Turning a webhook back on starts its failure clock again.
      ...(input.is_active !== undefined && {
        isActive: input.is_active,
        ...(input.is_active && { failingSince: null, disabledReason: null }),
      }),
    })
    .where(and(live(webhooks, ctx.appId), eq(webhooks.id, id)))
    .returning();
  return webhookView(row!);
}

/** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
export async function rotateSecret(ctx: ServiceContext, id: number): Promise<Webhook> {
  const current = await found(ctx, id);
  const at = new Date();
  const [row] = await ctx.db
    .update(webhooks)
    .set({
      secretKey: newSecret(),
      previousSecretKey: current.secretKey,
      previousSecretExpiresAt: new Date(at.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      modifiedAt: at.toISOString(),
    })
    .where(and(live(webhooks, ctx.appId), eq(webhooks.id, id)))
    .returning();
  return webhookView(row!);
}

const softDelete = () => ({ isDeleted: true, isActive: false, deletedAt: nowIso(), modifiedAt: nowIso() });

export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  await found(ctx, id);
  await ctx.db
    .update(webhooks)
    .set(softDelete())
    .where(and(live(webhooks, ctx.appId), eq(webhooks.id, id)));
}

export async function deleteWebhooksByUrl(ctx: ServiceContext, url: string): Promise<number> {
  const rows = await ctx.db
    .update(webhooks)
    .set(softDelete())
    .where(and(live(webhooks, ctx.appId), eq(webhooks.url, url)))
    .returning({ id: webhooks.id });
  if (rows.length === 0) throw ApiError.notFound("webhook_not_found", "A webhook with that URL");
  return rows.length;
}

export const WEBHOOK_LOG_LIST: ListSpec = {
  fields: {
    id: { column: webhookLogs.id, kind: "integer" },
    webhook: { column: webhookLogs.webhookId, kind: "integer" },
    delivery_id: { column: webhookLogs.deliveryId, kind: "string" },
    event_id: { column: webhookLogs.eventId, kind: "string" },
    event: { column: webhookLogs.event, kind: "string" },
    attempt: { column: webhookLogs.attempt, kind: "integer" },
    trigger: { column: webhookLogs.trigger, kind: "string", values: DELIVERY_TRIGGERS },
    status: { column: webhookLogs.outcome, kind: "string", values: DELIVERY_OUTCOMES },
    status_code: { column: webhookLogs.statusCode, kind: "integer", nullable: true },
    created_at: { column: webhookLogs.createdAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: webhookLogs.id,
};

export async function listWebhookLogs(ctx: ServiceContext, q: ListQuery): Promise<Page<WebhookLog>> {
  // Logs are never deleted, so only the tenant scopes them.
  const page = await listPage(ctx.db, q, { table: webhookLogs, scope: () => eq(webhookLogs.appId, ctx.appId) });
  return mapPage(page, logView);
}

/** Test Webhook: sends a signed `webhook.test` event now, through the same sender, and returns the attempt. */
export async function testWebhook(ctx: ServiceContext, id: number, policy: TargetPolicy): Promise<WebhookLog> {
  const webhook = await found(ctx, id);
  const event = newEvent(ctx.appId, "webhook.test", { webhook: webhook.id, message: "This is a test delivery." });
  const result = await deliver(webhook, event, deliveryIdOf(event, webhook.id), policy);
  const [log] = await ctx.db
    .insert(webhookLogs)
    .values(
      logRow(webhook, event, result, {
        attempt: 1,
        trigger: "test",
        outcome: result.ok ? "delivered" : "failed",
        nextAttemptAt: null,
      }),
    )
    .returning();
  return logView(log!);
}

// ---- used by the queue consumer ----

/** The `webhook-id` of one event's deliveries to one webhook: stable across retries. */
export const deliveryIdOf = (event: EventMessage, webhookId: number) => `${event.id}.${webhookId}`;

/** Active webhooks of the tenant subscribed to `type`. */
export async function subscribers(db: Db, appId: number, type: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(
      and(
        live(webhooks, appId),
        eq(webhooks.isActive, true),
        sql`EXISTS (SELECT 1 FROM json_each(${webhooks.events}) WHERE value = ${type})`,
      ),
    );
}

export async function webhookForDelivery(db: Db, appId: number, id: number): Promise<WebhookRow | undefined> {
  return db
    .select()
    .from(webhooks)
    .where(and(live(webhooks, appId), eq(webhooks.id, id)))
    .get();
}

export async function lastAttempt(db: Db, deliveryId: string): Promise<LogRow | undefined> {
  return db
    .select()
    .from(webhookLogs)
    .where(eq(webhookLogs.deliveryId, deliveryId))
    .orderBy(desc(webhookLogs.attempt))
    .limit(1)
    .get();
}

export function logRow(
  webhook: WebhookRow,
  event: EventMessage,
  result: DeliveryResult,
  extra: Pick<LogRow, "attempt" | "trigger" | "outcome" | "nextAttemptAt">,
): typeof webhookLogs.$inferInsert {
  return {
    appId: webhook.appId,
    webhookId: webhook.id,
    deliveryId: deliveryIdOf(event, webhook.id),
    eventId: event.id,
    event: event.type,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseBody: result.responseBody,
    errorClass: result.errorClass,
    createdAt: nowIso(),
    ...extra,
  };
}

/**
 * Records an attempt and what it means for the webhook: a delivery clears its failure clock; a
 * failure starts it; `disable` turns the webhook off and emits `webhook.disabled` with the log, in
 * one batch.
 */
export async function recordAttempt(
  ctx: ServiceContext,
  webhook: WebhookRow,
  log: typeof webhookLogs.$inferInsert,
  effect: { delivered: true } | { delivered: false; disable?: string },
): Promise<void> {
  const { db } = ctx;
  const insert = db.insert(webhookLogs).values(log);
  const scope = and(eq(webhooks.id, webhook.id), eq(webhooks.appId, webhook.appId));
  if (effect.delivered) {
    await db.batch([insert, db.update(webhooks).set({ failingSince: null }).where(scope)]);
    return;
  }
  const failing = db
    .update(webhooks)
    .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${log.createdAt})` })
    .where(scope);
  if (!effect.disable) {
    await db.batch([insert, failing]);
    return;
  }
  await emit(
    db,
    ctx.events,
    [
      insert,
      db.update(webhooks).set({ isActive: false, disabledReason: effect.disable, modifiedAt: nowIso() }).where(scope),
    ],
    [newEvent(webhook.appId, "webhook.disabled", { id: webhook.id, url: webhook.url, reason: effect.disable })],
  );
}
