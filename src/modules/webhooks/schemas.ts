import { z } from "@hono/zod-openapi";
import { envelopeSchema } from "../../core/listing";
import { EVENT_TYPES } from "./catalogue";
import { DELIVERY_OUTCOMES, DELIVERY_TRIGGERS, ERROR_CLASSES } from "./tables";

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string().openapi({ example: "https://hooks.example.com/commerce" }),
    secret_key: z.string().openapi({
      description: "`whsec_` + base64 of 32 random bytes: verify deliveries with it (Standard Webhooks).",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }),
    is_active: z.boolean(),
    events: z.array(z.string()),
    headers: z.record(z.string(), z.string()),
    created_at: z.string().openapi({ format: "date-time" }),
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

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookLog = z.infer<typeof WebhookLogSchema>;
