// The sales channels' directory tables (docs/shards.md, "Sales channels across shards"): a
// connection joins two stores that may live on different shards, so its row lives where both read it.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const DIRECTORY_CONNECTION_STATUSES = ["pending", "active", "inactive", "rejected"] as const;

/**
 * A connection between a channel store and a provider store: `app_id` is the store that sent the
 * request. The columns are those the shards' `channel_connections` had; ids come from here, so they
 * are unique across shards.
 */
export const salesChannelConnections = sqliteTable(
  "sales_channel_connections",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    channelAppId: integer("channel_app_id").notNull(),
    providerAppId: integer("provider_app_id").notNull(),
    status: text("status", { enum: DIRECTORY_CONNECTION_STATUSES }).notNull().default("pending"),
    commissionBp: integer("commission_bp"),
    message: text("message"),
    requestedAt: text("requested_at").notNull(),
    decidedAt: text("decided_at"),
    decidedBy: integer("decided_by"),
    deactivatedByAppId: integer("deactivated_by_app_id"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    deletedAt: text("deleted_at"),
    isDeleted: integer("is_deleted", { mode: "boolean" }).notNull().default(false),
    ordering: integer("ordering").notNull().default(0),
  },
  (t) => [
    index("sales_channel_connections_channel_idx").on(t.channelAppId, t.isDeleted, t.status),
    index("sales_channel_connections_provider_idx").on(t.providerAppId, t.isDeleted, t.status),
    // One live connection per (channel, provider): a rejected or deleted one leaves room for a new request.
    uniqueIndex("sales_channel_connections_live_pair_idx")
      .on(t.channelAppId, t.providerAppId)
      .where(sql`is_deleted = 0 AND status <> 'rejected'`),
  ],
);

/**
 * A connection's event for one of its stores, written in the directory's batch with the change and
 * then copied into that store's shard outbox under the same id (a second copy inserts nothing).
 * `delivered_at` is set once the shard has it; the scheduled run copies what is still undelivered.
 */
export const salesChannelEventDeliveries = sqliteTable(
  "sales_channel_event_deliveries",
  {
    id: text("id").primaryKey(),
    /** The store whose outbox receives it. */
    appId: integer("app_id").notNull(),
    connectionId: integer("connection_id").notNull(),
    type: text("type").notNull(),
    /** The event's envelope, as the store's outbox keeps it. */
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
    deliveredAt: text("delivered_at"),
  },
  (t) => [
    index("sales_channel_event_deliveries_pending_idx").on(t.deliveredAt, t.createdAt),
    index("sales_channel_event_deliveries_connection_idx").on(t.connectionId),
  ],
);
