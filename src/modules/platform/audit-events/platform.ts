import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { platformRoute } from "../../../core/routes";
import { createDb } from "../../../db/client";
import { directoryOf } from "../../../db/shards";
import {
  AuditEventListSchema,
  AuditEventSchema,
  getPlatformAuditEvent,
  listPlatformAuditEvents,
  PLATFORM_AUDIT_EVENT_LIST,
} from "../../account";
import { PLATFORM_BEYOND_SPEC, PLATFORM_TAGS } from "../shared";

const EVENTS = "/audit-events/";
const tags = PLATFORM_TAGS;
const beyondSpec = PLATFORM_BEYOND_SPEC;

const listRoute = platformRoute({
  method: "get",
  path: EVENTS,
  operationId: "listPlatformAuditEvents",
  summary: "List Platform Audit Events",
  tags,
  beyondSpec,
  description:
    "The changes the platform operator made, newest first: organizations and stores created, stores suspended " +
    "and reactivated, keys issued (`actor_type` `platform`; `app_id` null for a change of no store). Filter by " +
    "`app_id`, `action`, `resource_type`, `resource_id`, `created_at__gte`/`__lte`… A store's own changes, made " +
    "with its keys, are in its List Audit Events.",
  request: { query: listQuerySchema(PLATFORM_AUDIT_EVENT_LIST) },
  responses: { 200: jsonContent(AuditEventListSchema, "A page of audit events.") },
});

const getRoute = platformRoute({
  method: "get",
  path: `${EVENTS}{audit_event_id}/`,
  operationId: "getPlatformAuditEvent",
  summary: "Platform Audit Event Details",
  tags,
  beyondSpec,
  description: "One of the platform operator's audit rows; a row a merchant key made is a 404.",
  errors: { 404: ["audit_event_not_found"] },
  request: { params: idParam("audit_event_id") },
  responses: { 200: jsonContent(AuditEventSchema, "The audit event.") },
});

/** The platform operator's audit trail: read-only. */
export const auditEventsPlatformRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listPlatformAuditEvents(createDb(directoryOf(c.env)), listQueryOf(c, PLATFORM_AUDIT_EVENT_LIST)),
      ),
      200,
    ),
  )
  .openapi(getRoute, async (c) =>
    c.json(await getPlatformAuditEvent(createDb(directoryOf(c.env)), c.req.valid("param").audit_event_id), 200),
  );
