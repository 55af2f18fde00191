import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { AuditEventListSchema, AuditEventSchema } from "./schemas";
import { AUDIT_EVENT_LIST, getAuditEvent, listAuditEvents } from "./service";

const EVENTS = "/dashboard/admin/audit-events/";
const WHY =
  "Issue 30: who changed the store's configuration (webhooks, settings, bank accounts, API keys), when, " +
  "in which request, and what it was before and after.";

export const auditEventsRouter = createRouter();

/** The store's audit trail: read-only, newest first. */
crudRoutes(auditEventsRouter, {
  names: { one: "audit event", many: "audit events" },
  tag: "Merchant account",
  collection: EVENTS,
  member: `${EVENTS}{audit_event_id}/`,
  param: "audit_event_id",
  notFound: "audit_event_not_found",
  view: AuditEventSchema,
  list: {
    operationId: "listAuditEvents",
    summary: "List Audit Events",
    beyondSpec: WHY,
    permission: "can_read_audit_log",
    description:
      "Every change made to the store's configuration, newest first: one row per resource changed, with the " +
      "API key that made it (`actor_id`), the request's id, and the resource before and after (never a secret). " +
      "Filter by `action`, `resource_type`, `resource_id`, `actor_id`, `created_at__gte`/`__lte`…",
    spec: AUDIT_EVENT_LIST,
    schema: AuditEventListSchema,
    run: listAuditEvents,
  },
  get: {
    operationId: "getAuditEvent",
    summary: "Audit Event Details",
    beyondSpec: WHY,
    permission: "can_read_audit_log",
    description: "One audit row of the store.",
    run: getAuditEvent,
  },
});
