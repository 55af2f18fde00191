// The directory's tables (migrations/directory/, drizzle.directory.config.ts): what the platform owns
// and every request needs before it knows which shard holds its store (docs/shards.md). Their SQL
// names are the shards' where a shard keeps a copy (organizations, apps, merchant_api_tokens); the
// exports carry `directory` so that no module mistakes them for the shard's tables.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { addedModifiedAt } from "../core/sql";

export const directoryOrganizations = sqliteTable("organizations", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  modifiedAt: addedModifiedAt(),
});

/** A store, and the shard that holds its rows. Ids are allocated here, so that they are unique across shards. */
export const directoryApps = sqliteTable(
  "apps",
  {
    id: integer("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => directoryOrganizations.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    /** The binding name of the shard that holds the store's rows (`SHARD_1`). */
    shard: text("shard").notNull(),
    createdAt: text("created_at").notNull(),
    /** Stamped by every writer (src/db/directory.ts): List Stores syncs on it. */
    modifiedAt: addedModifiedAt(),
    suspendedAt: text("suspended_at"),
    suspensionReason: text("suspension_reason"),
    /** Set once the store's rows are in its shard; until then its requests answer 503. */
    provisionedAt: text("provisioned_at"),
    /** Derived from `suspended_at`, as the shards' copy has it, so that List Stores filters on it. */
    status: text("status", { enum: ["active", "suspended"] }).generatedAlwaysAs(
      sql`CASE WHEN suspended_at IS NULL THEN 'active' ELSE 'suspended' END`,
      { mode: "virtual" },
    ),
  },
  (t) => [index("apps_org_idx").on(t.orgId, t.id), index("apps_shard_idx").on(t.shard)],
);

/** The stores' API keys: the token check finds a key, its store and the store's shard in one read. */
export const directoryMerchantApiTokens = sqliteTable(
  "merchant_api_tokens",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => directoryApps.id),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    tokenPrefix: text("token_prefix").notNull(),
    permissions: text("permissions").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
    createdBy: integer("created_by"),
    lastFour: text("last_four"),
    lastUsedAt: text("last_used_at"),
    replacedBy: integer("replaced_by"),
  },
  (t) => [uniqueIndex("merchant_api_tokens_hash_uq").on(t.tokenHash), index("merchant_api_tokens_app_idx").on(t.appId)],
);

/** One row per shard binding: its last measured size and store count, and whether it takes new stores. */
export const shards = sqliteTable("shards", {
  name: text("name").primaryKey(),
  sizeBytes: integer("size_bytes").notNull().default(0),
  stores: integer("stores").notNull().default(0),
  acceptsStores: integer("accepts_stores", { mode: "boolean" }).notNull().default(true),
  measuredAt: text("measured_at"),
});

/**
 * The platform's own audit trail (organizations and stores created, stores suspended, keys issued):
 * copied here from the shards' `audit_events`, where each row is written in its change's own batch,
 * so that List Platform Audit Events reads one database (db/platform-audit.ts).
 */
export const platformAuditEvents = sqliteTable(
  "platform_audit_events",
  {
    id: integer("id").primaryKey(),
    /** The store changed; null for a change of no store (an organization created). */
    appId: integer("app_id"),
    actorType: text("actor_type", { enum: ["api_key", "platform"] }).notNull(),
    actorId: integer("actor_id"),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    requestId: text("request_id").notNull(),
    before: text("before", { mode: "json" }).$type<Record<string, unknown> | null>(),
    after: text("after", { mode: "json" }).$type<Record<string, unknown> | null>(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    /** The shard the row was copied from, and its id there: a second copy of it changes nothing. */
    shard: text("shard"),
    sourceId: integer("source_id"),
  },
  (t) => [
    index("platform_audit_events_created_idx").on(t.createdAt),
    uniqueIndex("platform_audit_events_source_uq").on(t.shard, t.sourceId),
  ],
);

/**
 * A change recorded in the directory whose effects belong to a store's shard, written in the
 * directory's batch and applied to the shard by the relay (docs/shards.md): idempotently, since its
 * id is the primary key of what it inserts there.
 */
export const relayMessages = sqliteTable(
  "relay_messages",
  {
    id: text("id").primaryKey(),
    appId: integer("app_id").notNull(),
    kind: text("kind").notNull(),
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
    appliedAt: text("applied_at"),
  },
  (t) => [index("relay_messages_pending_idx").on(t.appliedAt, t.createdAt)],
);
