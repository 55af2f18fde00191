import { z } from "@hono/zod-openapi";
import { isDeletedOnRequest, isoDateTime } from "../../core/fields";
import { envelopeSchema } from "../../core/listing";
import { EVENT_TYPES } from "./catalogue";
import { DELIVERY_OUTCOMES, DELIVERY_STATES, DELIVERY_TRIGGERS, ERROR_CLASSES, SKIP_REASONS } from "./tables";

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string().openapi({ example: "https://hooks.example.com/commerce" }),
    secret_key: z.string().openapi({
      description:
        "`whsec_` + base64 of 32 random bytes: verify deliveries with it (Standard Webhooks). Whole when " +
        "the webhook is created, updated or its secret rotated, and to tokens with `can_update_app_config`; " +
        "masked (`whsec_…abcd`, its last four characters) to tokens that may only read the configuration.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }),
    is_active: z.boolean(),
    events: z.array(z.string()),
    headers: z.record(z.string(), z.string()),
    disabled_reason: z
      .string()
      .nullable()
      .openapi({
        description:
          "Why the webhook is off: its target answered 410 Gone, every delivery failed for 5 days, or an " +
          "update turned it off. Null while it is on.",
      }),
    disabled_at: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "When it was turned off; null while it is on." }),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
    is_deleted: isDeletedOnRequest,
  })
  .openapi("Webhook");

export const WebhookListSchema = envelopeSchema(WebhookSchema, "WebhookList");

const EVENT_NAMES = EVENT_TYPES;
/** Our own delivery headers, and those the transport owns: custom headers may not set them. */
export const RESERVED_HEADERS = [
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
  "content-type",
  "content-length",
  "user-agent",
  "host",
  "connection",
  "transfer-encoding",
];
export const HEADERS_MAX = 20;

const eventsField = z
  .array(z.string().max(64))
  .min(1)
  .max(EVENT_NAMES.length)
  .superRefine((events, ctx) => {
    const unknown = events.filter((e) => !(EVENT_NAMES as string[]).includes(e));
    if (unknown.length)
      ctx.addIssue({
        code: "custom",
        message: `Unknown event ${unknown.join(", ")}. Valid: ${EVENT_NAMES.join(", ")}.`,
      });
    if (new Set(events).size !== events.length) ctx.addIssue({ code: "custom", message: "Events must not repeat." });
  })
  .openapi({
    description: "Event names to deliver; see the document's `webhooks` for each payload.",
    uniqueItems: true,
    example: ["ticket.created", "ticket.checked_in"],
    items: { type: "string", enum: EVENT_NAMES },
  });

const headersField = z
  .record(
    z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/, "Must be an HTTP header name."),
    z
      .string()
      .max(1000)
      .regex(/^[^\r\n\0]*$/, "Must not contain line breaks."),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > HEADERS_MAX) ctx.addIssue({ code: "custom", message: `At most ${HEADERS_MAX} headers.` });
    const reserved = names.filter((n) => RESERVED_HEADERS.includes(n.toLowerCase()));
    if (reserved.length)
      ctx.addIssue({
        code: "custom",
        message: `These headers are set by the service and cannot be overridden: ${reserved.join(", ")}.`,
      });
  })
  .openapi({
    description: `Sent with every delivery; at most ${HEADERS_MAX}. Cannot override ${RESERVED_HEADERS.join(", ")}.`,
    example: { "X-Api-Key": "secret" },
  });

const urlField = z
  .string()
  .max(2048)
  .openapi({ description: "https on a public host.", example: "https://hooks.example.com/commerce" });

export const CreateWebhookSchema = z
  .object({
    url: urlField,
    events: eventsField,
    is_active: z.boolean().default(true),
    headers: headersField.default({}),
  })
  .strict()
  .openapi("CreateWebhook");

export const UpdateWebhookSchema = z
  .object({ url: urlField, events: eventsField, is_active: z.boolean(), headers: headersField })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, {
    message: "Give at least one of url, events, is_active, headers.",
    path: ["body"],
  })
  .openapi("UpdateWebhook");

export const WebhookLogSchema = z
  .object({
    id: z.number().int(),
    webhook: z.number().int(),
    delivery_id: z
      .string()
      .openapi({ description: "The `webhook-id` header: the same for every attempt of one event to one webhook." }),
    event_id: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    trigger: z.enum(DELIVERY_TRIGGERS),
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    response_body: z.string().nullable().openapi({ description: "The receiver's answer, cut to 20 KB." }),
    error_class: z.enum(ERROR_CLASSES).nullable(),
    status: z.enum(DELIVERY_OUTCOMES),
    next_attempt_at: z.string().nullable().openapi({ format: "date-time" }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookLog");

export const WebhookLogListSchema = envelopeSchema(WebhookLogSchema, "WebhookLogList");

export const DeleteByUrlQuerySchema = z.object({
  url: z
    .string()
    .min(1)
    .max(2048)
    .openapi({ description: "Deletes every webhook of the store with exactly this URL." }),
});

export const DeletedSchema = z.object({ deleted: z.number().int() }).openapi("Deleted");

export const WebhookDeliverySchema = z
  .object({
    id: z.string().openapi({
      description: "The `webhook-id` header of its attempts (`<event id>.<webhook id>`); resend it by this id.",
      example: "evt_4f9c0a3e8b1d4c2f9e7a6b5c4d3e2f10.12",
    }),
    webhook: z.number().int(),
    event_id: z.string(),
    event: z.string(),
    status: z.enum(DELIVERY_STATES).openapi({
      description:
        "`pending` (its first attempt is due), `retrying` (on the schedule), then one of `delivered`, " +
        "`failed` (after the schedule, or refused with 410), `skipped` (the webhook was off or deleted).",
    }),
    skip_reason: z.enum(SKIP_REASONS).nullable(),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable().openapi({ format: "date-time" }),
    last_attempt_at: z.string().nullable().openapi({ format: "date-time" }),
    last_status_code: z.number().int().nullable(),
    last_error_class: z.enum(ERROR_CLASSES).nullable(),
    last_error: z
      .string()
      .nullable()
      .openapi({ description: "What went wrong last, in short; the logs have the whole answer." }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookDelivery");

export const WebhookDeliveryListSchema = envelopeSchema(WebhookDeliverySchema, "WebhookDeliveryList");

export const deliveryIdParam = z.object({
  delivery_id: z
    .string()
    .max(100)
    .regex(/^evt_[0-9A-Za-z]{1,64}\.[1-9]\d{0,15}$/, "Must be a delivery id (`<event id>.<webhook id>`).")
    .openapi({
      param: { name: "delivery_id", in: "path" },
      example: "evt_4f9c0a3e8b1d4c2f9e7a6b5c4d3e2f10.12",
    }),
});

export const RecoverWebhookSchema = z
  .object({
    since: isoDateTime.openapi({ description: "Re-send the failed and skipped deliveries created from this time on." }),
    until: isoDateTime.optional().openapi({ description: "…and before this time (default: now)." }),
  })
  .strict()
  .refine((b) => b.until === undefined || Date.parse(b.until) > Date.parse(b.since), {
    message: "Must be after `since`.",
    path: ["until"],
  })
  .openapi("RecoverWebhook");

export const RecoveredSchema = z
  .object({
    recovered: z.number().int().openapi({ description: "Deliveries put back on the schedule, oldest first." }),
    more: z.boolean().openapi({
      description: "True when more remain than one call takes (1,000): call again with the same `since`.",
    }),
  })
  .openapi("RecoveredDeliveries");

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookLog = z.infer<typeof WebhookLogSchema>;
