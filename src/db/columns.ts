import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

/**
 * The spec's audit fields, carried by every tenant-owned record. `app_id` is the tenant;
 * timestamps are ISO 8601 UTC text so that they sort and compare as strings.
 */
export const auditColumns = () => ({
  appId: integer("app_id").notNull(),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  deletedAt: text("deleted_at"),
  isDeleted: integer("is_deleted", { mode: "boolean" }).notNull().default(false),
  ordering: integer("ordering").notNull().default(0),
});
