import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/** A merchant's subscription of a URL to events. */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    url: text("url").notNull(),
    secretKey: text("secret_key").notNull(),
    /** The secret before the last rotation; it still signs until `previous_secret_expires_at`. */
    previousSecretKey: text("previous_secret_key"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    /** Since when every attempt has failed; cleared by a delivery. */
    failingSince: text("failing_since"),
    /**
     * Since when its attempts are slow (a timeout, or an answer after more than a second): its
     * deliveries then go to the slow lane, until an attempt there is quick again.
     */
    slowSince: text("slow_since"),
    /** Why and when the webhook was turned off (410 Gone, 5 days of failures, or an update); cleared when turned on. */
    disabledReason: text("disabled_reason"),
    disabledAt: text("disabled_at"),
  },
  (t) => [index("webhooks_app_idx").on(t.appId, t.isDeleted, t.isActive)],
);

/** What caused an attempt: the event, a retry on the schedule, Test Webhook, or a resend or recover. */
export const DELIVERY_TRIGGERS = ["event", "retry", "test", "resend"] as const;
export const DELIVERY_OUTCOMES = ["delivered", "retrying", "failed", "disabled"] as const;
export const ERROR_CLASSES = ["http", "timeout", "dns", "tls", "network", "blocked", "redirect"] as const;

/** One delivery attempt. */
export const webhookLogs = sqliteTable(
  "webhook_logs",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    webhookId: integer("webhook_id").notNull(),
    /** The `webhook-id` header: the same for every attempt of one event to one webhook. */
    deliveryId: text("delivery_id").notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    attempt: integer("attempt").notNull(),
    trigger: text("trigger", { enum: DELIVERY_TRIGGERS }).notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    responseBody: text("response_body"),
    errorClass: text("error_class", { enum: ERROR_CLASSES }),
    outcome: text("outcome", { enum: DELIVERY_OUTCOMES }).notNull(),
    nextAttemptAt: text("next_attempt_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("webhook_logs_app_created_idx").on(t.appId, t.createdAt),
    index("webhook_logs_app_webhook_idx").on(t.appId, t.webhookId, t.createdAt),
    index("webhook_logs_delivery_idx").on(t.deliveryId, t.attempt),
  ],
);

export const DELIVERY_STATES = ["pending", "retrying", "delivered", "failed", "skipped"] as const;
/** The states a delivery ends in; `pending` and `retrying` always lead to one of them. */
export const FINAL_STATES = ["delivered", "failed", "skipped"] as const;
export const SKIP_REASONS = ["webhook_disabled", "webhook_deleted"] as const;

/**
 * The delivery ledger: one row per event and subscribed webhook, written before any queue message
 * carries the delivery, updated by every attempt, and ending `delivered`, `failed` (after the
 * schedule, or refused with 410) or `skipped` (the webhook was disabled or deleted). The outbox says
 * an event left for the queue; this says how each of its deliveries ended, and lets the reconciler
 * find the ones whose message was lost.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    webhookId: integer("webhook_id").notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    status: text("status", { enum: DELIVERY_STATES }).notNull(),
    skipReason: text("skip_reason", { enum: SKIP_REASONS }),
    attempts: integer("attempts").notNull().default(0),
    /** `attempts` when the current schedule began: 0, or the count at a resend or recover. */
    scheduleFrom: integer("schedule_from").notNull().default(0),
    /** When the next attempt is due; null once the delivery is final. */
    nextAttemptAt: text("next_attempt_at"),
    /** An attempt in flight holds the delivery until then: neither the reconciler nor a skip takes it. */
    leasedUntil: text("leased_until"),
    lastAttemptAt: text("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastErrorClass: text("last_error_class", { enum: ERROR_CLASSES }),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_webhook_uq").on(t.eventId, t.webhookId),
    // Only the open deliveries, which the reconciler scans by due time: a small index.
    index("webhook_deliveries_open_idx").on(t.nextAttemptAt).where(sql`${t.status} IN ('pending', 'retrying')`),
    index("webhook_deliveries_webhook_idx").on(t.appId, t.webhookId, t.createdAt),
    index("webhook_deliveries_app_idx").on(t.appId, t.createdAt),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
