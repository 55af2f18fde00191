import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { index, integer, type SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { type BatchPlan, type Handle, insertSelect } from "./batch-plan";

/**
 * The audit trail: one row per change a principal made to a store's configuration (webhooks,
 * settings, bank accounts; the platform's stores and keys), written in the SAME batch as the
 * change, so that both commit or neither does, and no D1 wait is added. `before` and `after` are
 * JSON objects of the resource's fields as its owner may see them: secrets (webhook secrets, their
 * custom headers' values, token hashes) are never in them, an IBAN only by its last four.
 */

export const AUDIT_ACTOR_TYPES = ["api_key", "platform"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export type AuditState = Record<string, unknown>;

export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey(),
    /** The store changed; null for a platform-level change (an organization created). */
    appId: integer("app_id"),
    actorType: text("actor_type", { enum: AUDIT_ACTOR_TYPES }).notNull(),
    /** The merchant API key's id; null for the platform. */
    actorId: integer("actor_id"),
    /** `<resource>.<verb>`: `webhook.updated`, `bank_account.deleted`, `settings.updated`. */
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    /** Text, so that any resource's id fits (all are integers today). */
    resourceId: text("resource_id").notNull(),
    /** The request's id, as its log line and `X-Request-Id` have it. */
    requestId: text("request_id").notNull(),
    before: text("before", { mode: "json" }).$type<AuditState | null>(),
    after: text("after", { mode: "json" }).$type<AuditState | null>(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    // The list is newest first within a store, filtered by these (app_id first, as every list's index).
    index("audit_events_app_idx").on(t.appId, t.createdAt),
    index("audit_events_app_action_idx").on(t.appId, t.action, t.createdAt),
    index("audit_events_app_resource_idx").on(t.appId, t.resourceType, t.resourceId),
    index("audit_events_app_actor_idx").on(t.appId, t.actorId, t.createdAt),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;

/** Who made a change: a merchant API key (by id) or the platform operator. */
export type AuditActor = { type: "api_key"; id: number } | { type: "platform"; id: null };
export const PLATFORM_ACTOR: AuditActor = { type: "platform", id: null };

/** What every audit row of one request shares: its actor and the request's id. */
export type AuditContext = { actor: AuditActor; requestId: string };

/**
 * A resource as the trail shows it: its type, its table, and `snapshot`, a `json_object(...)` over
 * one row of that table (unqualified column names) holding only what the store's owner may see.
 */
export type AuditSubject = { resourceType: string; table: SQLiteTable & { id: unknown }; snapshot: SQL };

/** The store a row is of (its id, or a plan's handle to a store the batch creates) and the action. */
type Common = { appId: number | SQL | null; action: string };

const base = (audit: AuditContext, c: Common) => ({
  appId: c.appId,
  actorType: audit.actor.type,
  actorId: audit.actor.id,
  action: c.action,
  requestId: audit.requestId,
});

/**
 * A row of known states (a change whose before and after the service has in hand: the settings'
 * changed fields, a key created by the platform). `onlyIf` is a condition the row is written
 * under, the same the change is guarded by (put the row before the change so both see the same state).
 */
export function auditRecord(
  db: Db,
  audit: AuditContext,
  entry: Common & {
    resourceType: string;
    resourceId: number | string | SQL;
    before: AuditState | null;
    after: AuditState | null;
    onlyIf?: SQL;
  },
): BatchItem<"sqlite"> {
  return insertSelect(
    db,
    auditEvents,
    {
      ...base(audit, entry),
      resourceType: entry.resourceType,
      resourceId:
        typeof entry.resourceId === "object" ? sql`CAST(${entry.resourceId} AS TEXT)` : String(entry.resourceId),
      before: entry.before === null ? null : sql`json(${JSON.stringify(entry.before)})`,
      after: entry.after === null ? null : sql`json(${JSON.stringify(entry.after)})`,
    },
    entry.onlyIf && sql`WHERE ${entry.onlyIf}`,
  );
}

/**
 * One row per row of `subject.table` that `where` selects, its snapshot as the row is where the
 * statement stands in the batch: `state: "before"` placed before the change (a delete's whole
 * record, an update's first half), `"after"` placed after it (a create, by the insert's handle).
 */
export function auditRows(
  db: Db,
  audit: AuditContext,
  subject: AuditSubject,
  entry: Common & { where: SQL; state: "before" | "after" },
): BatchItem<"sqlite"> {
  const snapshot = sql`json(${subject.snapshot})`;
  return insertSelect(
    db,
    auditEvents,
    {
      ...base(audit, entry),
      resourceType: subject.resourceType,
      resourceId: sql`CAST(id AS TEXT)`,
      before: entry.state === "before" ? snapshot : null,
      after: entry.state === "after" ? snapshot : null,
    },
    sql`FROM ${subject.table} WHERE ${entry.where}`,
  );
}

/**
 * The second half of an update: the audit row a plan inserted with `auditRows(..., "before")`
 * (its handle) gets the resource's snapshot as it is now. Place it after the change.
 */
export function auditAfter(db: Db, subject: AuditSubject, row: Handle): BatchItem<"sqlite"> {
  const table = subject.table;
  return db
    .update(auditEvents)
    .set({
      after: sql`(SELECT json(${subject.snapshot}) FROM ${table} WHERE id = CAST(${auditEvents.resourceId} AS INTEGER))`,
    })
    .where(eq(auditEvents.id, sql`${row.id}`));
}

/**
 * The audit row of the row a plan has just inserted (`row`, the insert's handle), placed after the
 * insert: its snapshot as created. Without an actor, nothing.
 */
export function auditCreated(
  plan: BatchPlan,
  audit: AuditContext | undefined,
  subject: AuditSubject,
  entry: Common & { row: Handle },
): void {
  if (audit)
    plan.add(auditRows(plan.db, audit, subject, { ...entry, where: sql`id = ${entry.row.id}`, state: "after" }));
}

/**
 * `changes` added to `plan` with the audit rows of the rows `where` selects: each row as it is
 * before the changes, then, with `after` (the name of the plan's handle to the audit row: for a
 * change to one row that leaves it in place), as it is after them. Without an actor, the changes alone.
 */
export function auditedChange(
  plan: BatchPlan,
  audit: AuditContext | undefined,
  subject: AuditSubject,
  entry: Common & { where: SQL; after?: string },
  changes: BatchItem<"sqlite">[],
): void {
  if (!audit) {
    plan.add(...changes);
    return;
  }
  const before = auditRows(plan.db, audit, subject, { ...entry, state: "before" });
  if (!entry.after) {
    plan.add(before, ...changes);
    return;
  }
  const row = plan.insert(entry.after, before);
  plan.add(...changes, auditAfter(plan.db, subject, row));
}
