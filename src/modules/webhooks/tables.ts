import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
    disabledReason: text("disabled_reason"),
  },
  (t) => [index("webhooks_app_idx").on(t.appId, t.isDeleted, t.isActive)],
);

export const DELIVERY_TRIGGERS = ["event", "retry", "test"] as const;
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

export type WebhookRow = typeof webhooks.$inferSelect;
