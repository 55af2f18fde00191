import { and, eq } from "drizzle-orm";
import { AUDIT_ACTOR_TYPES, type AuditEventRow, auditEvents } from "../../../core/audit";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import type { Db } from "../../../db/client";
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

const FIELDS = {
  id: { column: t.id, kind: "integer" },
  action: { column: t.action, kind: "string" },
  resource_type: { column: t.resourceType, kind: "string" },
  resource_id: { column: t.resourceId, kind: "string" },
  actor_id: { column: t.actorId, kind: "integer", nullable: true },
  request_id: { column: t.requestId, kind: "string", orderable: false },
  created_at: { column: t.createdAt, kind: "datetime" },
} satisfies ListSpec["fields"];

/** A store's trail, newest first. */
export const AUDIT_EVENT_LIST: ListSpec = { fields: FIELDS, defaultOrder: "-created_at", idColumn: t.id };

/** The platform's trail: every store's, and the changes of no store; filtered by `app_id` too. */
export const PLATFORM_AUDIT_EVENT_LIST: ListSpec = {
  fields: {
    ...FIELDS,
    app_id: { column: t.appId, kind: "integer", nullable: true },
    actor_type: { column: t.actorType, kind: "string", values: AUDIT_ACTOR_TYPES },
  },
  defaultOrder: "-created_at",
  idColumn: t.id,
};

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
 * For the platform's list (`PLATFORM_AUDIT_EVENT_LIST`): the changes the platform operator made,
 * to any store or to none (`app_id` null), newest first; `app_id` and `actor_type` filter them.
 */
export async function listPlatformAuditEvents(db: Db, q: ListQuery): Promise<Page<AuditEvent>> {
  const page = await listPage(db, q, { table: t, scope: () => eq(t.actorType, "platform") });
  return mapPage(page, auditEventView);
}

/** One of the platform operator's audit rows (another principal's row is a 404, as in its list). */
export async function getPlatformAuditEvent(db: Db, id: number): Promise<AuditEvent> {
  const row = await db
    .select()
    .from(t)
    .where(and(eq(t.actorType, "platform"), eq(t.id, id)))
    .get();
  if (!row) throw ApiError.notFound("audit_event_not_found", `Audit event ${id}`);
  return auditEventView(row);
}
