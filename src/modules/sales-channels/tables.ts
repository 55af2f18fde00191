import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/*
 * Sales channels (design-reference 10): a marketplace store (the channel) sells the meal plans of
 * provider stores once a connection between the two is active. A connection is one row seen by
 * both stores: `app_id` is the store that sent the request, the other side receives it. The rows
 * live in the directory now (src/db/channel-directory-schema.ts); the shards' `channel_connections`
 * below is what a database of before the move holds, read by nothing, kept until its rows are copied
 * to the directory (docs/shards.md, "Sales channels across shards").
 */

export const CONNECTION_STATUSES = ["pending", "active", "inactive", "rejected"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const channelConnections = sqliteTable(
  "channel_connections",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    channelAppId: integer("channel_app_id").notNull(),
    providerAppId: integer("provider_app_id").notNull(),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("pending"),
    commissionBp: integer("commission_bp"),
    message: text("message"),
    requestedAt: text("requested_at").notNull(),
    decidedAt: text("decided_at"),
    /** The token (merchant API token id) of the receiving side that accepted or rejected it. */
    decidedBy: integer("decided_by"),
    /** The store that deactivated it: only that store may activate it again. */
    deactivatedByAppId: integer("deactivated_by_app_id"),
  },
  (t) => [
    index("channel_connections_channel_idx").on(t.channelAppId, t.isDeleted, t.status),
    index("channel_connections_provider_idx").on(t.providerAppId, t.isDeleted, t.status),
    // One live connection per (channel, provider): a rejected or deleted one leaves room for a new request.
    uniqueIndex("channel_connections_live_pair_idx")
      .on(t.channelAppId, t.providerAppId)
      .where(sql`is_deleted = 0 AND status <> 'rejected'`),
  ],
);

/** A store's face as a channel or a provider (MX5): one row per store, made on its first PATCH. */
export const channelProfiles = sqliteTable("channel_profiles", {
  appId: integer("app_id").primaryKey(),
  nameEn: text("name_en"),
  nameAr: text("name_ar"),
  logo: text("logo"),
  descriptionEn: text("description_en"),
  descriptionAr: text("description_ar"),
  /** Other stores may find it as a channel or provider. */
  isListed: integer("is_listed", { mode: "boolean" }).notNull().default(false),
  contactName: text("contact_name"),
  contactEmail: text("contact_email"),
  contactPhone: text("contact_phone"),
  website: text("website"),
  /** Ids of the shared geography's cities it sells in (a channel) or delivers to (a provider). */
  supportedCityIds: text("supported_city_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
});

/**
 * The provider plans a channel lists (MX2). `app_id` is the channel. Kept while the connection is
 * inactive or deleted, and hidden from every read until a connection with the provider is active.
 */
export const channelPlanListings = sqliteTable(
  "channel_plan_listings",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    providerAppId: integer("provider_app_id").notNull(),
    planId: integer("plan_id").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isFeatured: integer("is_featured", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("channel_plan_listings_app_idx").on(t.appId, t.isDeleted, t.providerAppId),
    // Once per provider's plan: plan ids are unique per shard only, so two providers may both have a plan 1.
    uniqueIndex("channel_plan_listings_provider_plan_idx")
      .on(t.appId, t.providerAppId, t.planId)
      .where(sql`is_deleted = 0`),
  ],
);
