import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { auditCreated, auditedChange } from "../../core/audit";
import { BatchPlan } from "../../core/batch-plan";
import type { ServiceContext } from "../../core/context";
import { listed, live } from "../../core/crud/tenant-table";
import { ApiError } from "../../core/errors";
import { insertedRowEvent, newEvent, rowEvent } from "../../core/events/outbox";
import type { EventType } from "../../core/events/registry";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../core/listing";
import { inList } from "../../core/sql";
import { nowIso } from "../../core/time";
import { logRow } from "./attempt";
import { WEBHOOK_AUDIT } from "./audit";
import { deliver, TEST_TIMEOUT_MS } from "./delivery";
import { deliveryIdOf, ofWebhook, skipOpen } from "./ledger";
import type { CreateWebhookSchema, UpdateWebhookSchema, Webhook, WebhookLog } from "./schemas";
import { newSecret, SECRET_PREFIX } from "./signing";
import {
  DELIVERY_OUTCOMES,
  DELIVERY_TRIGGERS,
  type WebhookRow,
  webhookDeliveries,
  webhookLogs,
  webhooks,
} from "./tables";
import { refuseTarget, type TargetPolicy } from "./target";

export type { WebhookRow };

type LogRow = typeof webhookLogs.$inferSelect;

/**
 * `secret_key` as a reader sees it: enough to tell secrets apart, not enough to sign with. The
 * whole secret goes only to who may change the webhook (it forges deliveries otherwise).
 */
export const maskSecret = (secret: string) => `${SECRET_PREFIX}…${secret.slice(-4)}`;

/** How long a rotated-out secret still signs. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function webhookView(row: WebhookRow, secret: "reveal" | "mask"): Webhook {
  return {
    id: row.id,
    url: row.url,
    secret_key: secret === "reveal" ? row.secretKey : maskSecret(row.secretKey),
    is_active: row.isActive,
    events: row.events,
    headers: row.headers,
    disabled_reason: row.isActive ? null : row.disabledReason,
    disabled_at: row.isActive ? null : row.disabledAt,
    created_at: row.createdAt,
    modified_at: row.modifiedAt,
    is_deleted: row.isDeleted,
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

export async function found(ctx: ServiceContext, id: number): Promise<WebhookRow> {
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
  sync: { modifiedAt: webhooks.modifiedAt, softDeleted: true },
};

export async function listWebhooks(
  ctx: ServiceContext,
  q: ListQuery,
  secret: "reveal" | "mask",
): Promise<Page<Webhook>> {
  const page = await listPage(ctx.db, q, { table: webhooks, scope: () => listed(webhooks, ctx.appId, q) });
  return mapPage(page, (row) => webhookView(row, secret));
}

export async function createWebhook(
  ctx: ServiceContext,
  input: z.infer<typeof CreateWebhookSchema>,
  policy: TargetPolicy,
): Promise<Webhook> {
  checkTarget(input.url, policy);
  const plan = new BatchPlan(ctx.db);
  const created = plan.insert(
    "webhook",
    ctx.db
      .insert(webhooks)
      .values({
        appId: ctx.appId,
        url: input.url,
        secretKey: newSecret(),
        isActive: input.is_active,
        events: input.events,
        headers: input.headers,
      })
      .returning(),
  );
  auditCreated(plan, ctx.audit, WEBHOOK_AUDIT, { appId: ctx.appId, action: "webhook.created", row: created });
  plan.event(insertedRowEvent("webhook.created", webhooks, created));
  return webhookView((await plan.run(ctx.events)).row<WebhookRow>(created), "reveal");
}

/**
 * A change to the live webhook that `scope` selects, as one batch: its audit row (the webhook
 * before, then after), the change's statements, its `{ id }` event while the webhook is still live
 * (or, for a delete, deleted now), and the webhook as it is after.
 */
async function changeWebhook(
  ctx: ServiceContext,
  scope: SQL,
  action: "webhook.updated" | "webhook.secret_rotated" | "webhook.deleted",
  changes: BatchItem<"sqlite">[],
  eventScope: SQL = scope,
): Promise<WebhookRow | undefined> {
  const { db } = ctx;
  const plan = new BatchPlan(db);
  // A deleted webhook has no after: its row is the webhook as it was.
  const after = action === "webhook.deleted" ? undefined : "audit";
  auditedChange(plan, ctx.audit, WEBHOOK_AUDIT, { appId: ctx.appId, action, where: scope, after }, changes);
  const now = plan.read<WebhookRow>(db.select().from(webhooks).where(scope));
  plan.event(rowEvent(action satisfies EventType, webhooks, eventScope, sql`json_object('id', id)`));
  return (await plan.run(ctx.events)).rows(now)[0];
}

export async function updateWebhook(
  ctx: ServiceContext,
  id: number,
  input: z.infer<typeof UpdateWebhookSchema>,
  policy: TargetPolicy,
): Promise<Webhook> {
  const current = await found(ctx, id);
  if (input.url !== undefined) checkTarget(input.url, policy);
  const { db } = ctx;
  const now = nowIso();
  const scope = and(live(webhooks, ctx.appId), eq(webhooks.id, id));
  const fields = db
    .update(webhooks)
    .set({
      modifiedAt: now,
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.headers !== undefined && { headers: input.headers }),
    })
    .where(scope);
  // Guarded on the current state, so that only a real change stamps the reason and time. Turning a
  // webhook off ends its open deliveries skipped; turning it on starts its failure clock again and
  // replays nothing (Recover does, when asked).
  const onOff =
    input.is_active === false
      ? [
          db
            .update(webhooks)
            .set({ isActive: false, disabledReason: "Turned off by an update (is_active: false).", disabledAt: now })
            .where(and(scope, eq(webhooks.isActive, true))),
          skipOpen(db, ofWebhook(current), "webhook_disabled", now),
        ]
      : input.is_active === true
        ? [
            db
              .update(webhooks)
              .set({ isActive: true, failingSince: null, slowSince: null, disabledReason: null, disabledAt: null })
              .where(and(scope, eq(webhooks.isActive, false))),
          ]
        : [];
  const row = await changeWebhook(ctx, scope!, "webhook.updated", [fields, ...onOff]);
  if (!row) throw ApiError.notFound("webhook_not_found", `Webhook ${id}`);
  return webhookView(row, "reveal");
}

/** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
export async function rotateSecret(ctx: ServiceContext, id: number): Promise<Webhook> {
  const current = await found(ctx, id);
  const at = new Date();
  const scope = and(live(webhooks, ctx.appId), eq(webhooks.id, id))!;
  const rotate = ctx.db
    .update(webhooks)
    .set({
      secretKey: newSecret(),
      previousSecretKey: current.secretKey,
      previousSecretExpiresAt: new Date(at.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      modifiedAt: at.toISOString(),
    })
    .where(scope);
  const row = await changeWebhook(ctx, scope, "webhook.secret_rotated", [rotate]);
  if (!row) throw ApiError.notFound("webhook_not_found", `Webhook ${id}`);
  return webhookView(row, "reveal");
}

const softDelete = (at: string) => ({ isDeleted: true, isActive: false, deletedAt: at, modifiedAt: at });

/** The webhooks among `ids` this batch deleted (at `at`): their `webhook.deleted` events. */
const deletedNow = (appId: number, ids: number[], at: string) =>
  and(eq(webhooks.appId, appId), inList(webhooks.id, ids), eq(webhooks.deletedAt, at))!;

/** Deletes a webhook; its open deliveries end skipped, in the same batch. */
export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  const current = await found(ctx, id);
  const { db } = ctx;
  const at = nowIso();
  const scope = and(live(webhooks, ctx.appId), eq(webhooks.id, id))!;
  await changeWebhook(
    ctx,
    scope,
    "webhook.deleted",
    [skipOpen(db, ofWebhook(current), "webhook_deleted"), db.update(webhooks).set(softDelete(at)).where(scope)],
    deletedNow(ctx.appId, [id], at),
  );
}

export async function deleteWebhooksByUrl(ctx: ServiceContext, url: string): Promise<number> {
  const { db } = ctx;
  // Read first (the write's one read): the audit rows and events name each webhook deleted.
  const matching = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(live(webhooks, ctx.appId), eq(webhooks.url, url)));
  if (matching.length === 0) throw ApiError.notFound("webhook_not_found", "A webhook with that URL");
  const ids = matching.map((r) => r.id);
  const at = nowIso();
  const scope = and(live(webhooks, ctx.appId), inList(webhooks.id, ids))!;
  const plan = new BatchPlan(db);
  auditedChange(plan, ctx.audit, WEBHOOK_AUDIT, { appId: ctx.appId, action: "webhook.deleted", where: scope }, [
    skipOpen(
      db,
      and(eq(webhookDeliveries.appId, ctx.appId), inArray(webhookDeliveries.webhookId, ids)),
      "webhook_deleted",
    ),
    db.update(webhooks).set(softDelete(at)).where(scope),
  ]);
  const deleted = plan.read<{ id: number }>(
    db
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(deletedNow(ctx.appId, ids, at)),
  );
  plan.event(rowEvent("webhook.deleted", webhooks, deletedNow(ctx.appId, ids, at), sql`json_object('id', id)`));
  const n = (await plan.run(ctx.events)).rows(deleted).length;
  // Deleted by another request between the read and the batch: as if none had matched.
  if (n === 0) throw ApiError.notFound("webhook_not_found", "A webhook with that URL");
  return n;
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
  const result = await deliver(webhook, event, deliveryIdOf(event.id, webhook.id), policy, TEST_TIMEOUT_MS);
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
