import { z } from "@hono/zod-openapi";
import { AUDIT_ACTOR_TYPES } from "../../../core/audit";
import { envelopeSchema } from "../../../core/listing";

const state = z
  .record(z.string(), z.unknown())
  .nullable()
  .openapi({
    description:
      "The resource's fields as its owner may see them; null before a create and after a delete. " +
      "Never a secret: webhooks show their custom headers' names only, bank accounts the IBAN's last four.",
  });

export const AuditEventSchema = z
  .object({
    id: z.number().int(),
    app_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The store changed; null for a platform-level change." }),
    actor_type: z
      .enum(AUDIT_ACTOR_TYPES)
      .openapi({ description: "Who made the change: a merchant API key, or the platform operator." }),
    actor_id: z.number().int().nullable().openapi({ description: "The API key's id; null for the platform." }),
    action: z.string().openapi({ example: "webhook.updated", description: "`<resource_type>.<verb>`." }),
    resource_type: z.string().openapi({ example: "webhook" }),
    resource_id: z.string().openapi({ example: "12" }),
    request_id: z.string().openapi({ description: "The request's `X-Request-Id`, as its log line has it." }),
    before: state,
    after: state,
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("AuditEvent");

export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditEventListSchema = envelopeSchema(AuditEventSchema, "AuditEventList");
