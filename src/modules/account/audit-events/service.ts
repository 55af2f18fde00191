import { and, eq } from "drizzle-orm";
import { AUDIT_ACTOR_TYPES, type AuditEventRow, auditEvents } from "../../../core/audit";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import type { Db } from "../../../db/client";
import { platformAuditEvents } from "../../../db/directory-schema";
import type { AuditEvent } from "./schemas";

const t = auditEvents;

export const auditEventView = (r: AuditEventRow): AuditEvent => ({
  id: r.id,
  app_id: r.appId,
  actor_type: r.actorType,
  actor_id: r.actorId,
  action: r.action,
  resource_type: r.resourceType,
  resource_id: r.resourceId,
  request_id: r.requestId,
  before: r.before ?? null,
  after: r.after ?? null,
  created_at: r.createdAt,
});

/** The fields both trails filter on: the store's (`audit_events`) and the platform's directory copy. */
const fieldsOf = (a: typeof auditEvents | typeof platformAuditEvents) =>
  ({
    id: { column: a.id, kind: "integer" },
    action: { column: a.action, kind: "string" },
    resource_type: { column: a.resourceType, kind: "string" },
    resource_id: { column: a.resourceId, kind: "string" },
    actor_id: { column: a.actorId, kind: "integer", nullable: true },
    request_id: { column: a.requestId, kind: "string", orderable: false },
    created_at: { column: a.createdAt, kind: "datetime" },
  }) satisfies ListSpec["fields"];

/** A store's trail, newest first. */
export const AUDIT_EVENT_LIST: ListSpec = { fields: fieldsOf(t), defaultOrder: "-created_at", idColumn: t.id };

const p = platformAuditEvents;

/**
 * The platform's trail, read from the directory's copy (db/platform-audit.ts): every store's, and the
 * changes of no store; filtered by `app_id` too.
 */
export const PLATFORM_AUDIT_EVENT_LIST: ListSpec = {
  fields: {
    ...fieldsOf(p),
    app_id: { column: p.appId, kind: "integer", nullable: true },
    actor_type: { column: p.actorType, kind: "string", values: AUDIT_ACTOR_TYPES },
  },
  defaultOrder: "-created_at",
  idColumn: p.id,
};

const platformView = (r: typeof p.$inferSelect): AuditEvent =>
  auditEventView({ ...r, before: r.before as AuditEventRow["before"], after: r.after as AuditEventRow["after"] });

/** The store's own audit rows: another store's are never in its list. */
export async function listAuditEvents(ctx: ServiceContext, q: ListQuery): Promise<Page<AuditEvent>> {
  const page = await listPage(ctx.db, q, { table: t, scope: () => eq(t.appId, ctx.appId) });
  return mapPage(page, auditEventView);
}

export async function getAuditEvent(ctx: ServiceContext, id: number): Promise<AuditEvent> {
  const row = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.appId, ctx.appId), eq(t.id, id)))
    .get();
  if (!row) throw ApiError.notFound("audit_event_not_found", `Audit event ${id}`);
  return auditEventView(row);
}

/**
 * For the platform's list (`PLATFORM_AUDIT_EVENT_LIST`), over the directory: the changes the platform
 * operator made, to any store or to none (`app_id` null), newest first.
 */
export async function listPlatformAuditEvents(directory: Db, q: ListQuery): Promise<Page<AuditEvent>> {
  const page = await listPage(directory, q, { table: p, scope: () => eq(p.actorType, "platform") });
  return mapPage(page, platformView);
}

/** One of the platform operator's audit rows (another principal's row is a 404, as in its list). */
export async function getPlatformAuditEvent(directory: Db, id: number): Promise<AuditEvent> {
  const row = await directory
    .select()
    .from(p)
    .where(and(eq(p.actorType, "platform"), eq(p.id, id)))
    .get();
  if (!row) throw ApiError.notFound("audit_event_not_found", `Audit event ${id}`);
  return platformView(row);
}
