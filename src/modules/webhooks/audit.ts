import { sql } from "drizzle-orm";
import type { AuditSubject } from "../../core/audit";
import { webhooks } from "./tables";

/**
 * A webhook as the audit trail shows it. Never its secrets: not `secret_key` nor the previous one
 * (with them, anyone reading the trail could sign deliveries), and of its custom headers only the
 * names, since their values are often the receiver's credentials (`Authorization: Bearer …`). A
 * rotation shows as a new `previous_secret_expires_at`.
 */
export const WEBHOOK_AUDIT: AuditSubject = {
  resourceType: "webhook",
  table: webhooks,
  snapshot: sql`json_object(
    'url', url,
    'is_active', json(CASE WHEN is_active THEN 'true' ELSE 'false' END),
    'events', json(events),
    'header_names', (SELECT json_group_array(key) FROM json_each(headers)),
    'disabled_reason', disabled_reason,
    'disabled_at', disabled_at,
    'previous_secret_expires_at', previous_secret_expires_at,
    'created_at', created_at)`,
};
