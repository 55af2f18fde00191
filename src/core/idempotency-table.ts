import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Idempotency-Key records: the first response to a key, replayed for 24 hours to the same store and
 * principal sending the same key with the same body. `state` is `in_flight` until the first
 * request ends, so that a concurrent retry is refused rather than run twice.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    /** Who sent it: "merchant:<token id>" or "customer:<customer id>". */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** SHA-256 of the request body, to tell a retry from a different request under the same key. */
    bodyHash: text("body_hash").notNull(),
    /** `committed`: the request's write batch landed (marked in that batch), its response not yet stored. */
    state: text("state", { enum: ["in_flight", "committed", "done"] })
      .notNull()
      .default("in_flight"),
    responseStatus: integer("response_status"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_uq").on(t.appId, t.principal, t.key),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);
