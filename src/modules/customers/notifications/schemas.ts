import { z } from "@hono/zod-openapi";
import { humanText, type TextKind } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { NOTIFICATION_STATUSES } from "../tables";

/** Texts within FCM's 4 KB payload whatever the language: one language is pushed, with `data`. */
export const TITLE_MAX = 100;
export const BODY_MAX = 500;
export const DATA_KEYS_MAX = 20;
export const DATA_BYTES_MAX = 1024;
export const CUSTOMER_IDS_MAX = 1000;

const DATA_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Keys FCM refuses or overrides (`from`, `message_type`, `google…`, `gcm…`, `collapse_key`), and ours. */
const RESERVED_KEY = /^(from|message_type|collapse_key|notification_id|google.*|gcm.*)$/i;

const text = (max: number, example: string, kind: TextKind = "line") =>
  humanText(max, kind).min(1).openapi({ example });

/** The push's `data`: a map of strings, as FCM requires. */
export const pushData = z
  .record(
    z
      .string()
      .regex(DATA_KEY, "Keys are letters, digits, _ . - (up to 64), starting with a letter or _.")
      .refine((k) => !RESERVED_KEY.test(k), "This key is reserved by FCM or by this API."),
    z.string().max(DATA_BYTES_MAX),
  )
  .refine((d) => Object.keys(d).length <= DATA_KEYS_MAX, `At most ${DATA_KEYS_MAX} keys.`)
  .refine((d) => new TextEncoder().encode(JSON.stringify(d)).length <= DATA_BYTES_MAX, "At most 1 KB as JSON.")
  .openapi({
    description: "String values only (FCM's rule), at most 20 keys and 1 KB. The push also carries `notification_id`.",
    example: { deep_link: "app://offers/12" },
  });

export const SegmentSchema = z
  .union([
    z.literal("all").openapi({ description: "Every live customer of the store." }),
    z
      .object({ city_id: z.number().int().min(1).openapi({ description: "Customers whose `current_city_id` it is." }) })
      .strict(),
  ])
  .openapi("NotificationSegment");

export const SendNotificationSchema = z
  .object({
    customer_ids: z
      .array(z.number().int().min(1))
      .min(1)
      .max(CUSTOMER_IDS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, "Ids must not repeat.")
      .optional()
      .openapi({ description: "One customer or a list (up to 1000). Give this or `segment`." }),
    segment: SegmentSchema.optional(),
    title_en: text(TITLE_MAX, "Weekend offer"),
    title_ar: text(TITLE_MAX, "عرض نهاية الأسبوع"),
    body_en: text(BODY_MAX, "20% off every plan until Saturday.", "lines"),
    body_ar: text(BODY_MAX, "خصم ٢٠٪ على جميع الباقات حتى السبت.", "lines"),
    data: pushData.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.customer_ids === undefined) === (b.segment === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [b.customer_ids === undefined ? "customer_ids" : "segment"],
        message: "Give either `customer_ids` or `segment`, not both.",
      });
    }
  })
  .openapi("SendNotification", {
    example: {
      segment: "all",
      title_en: "Weekend offer",
      title_ar: "عرض نهاية الأسبوع",
      body_en: "20% off every plan until Saturday.",
      body_ar: "خصم ٢٠٪ على جميع الباقات حتى السبت.",
    },
  });

export type SendNotification = z.infer<typeof SendNotificationSchema>;

/** Whom a notification is for, as the request named them (stored with it). */
export const AudienceSchema = z
  .union([z.object({ customer_ids: z.array(z.number().int()) }), z.object({ segment: SegmentSchema })])
  .openapi({ description: "Whom it was sent to, as the request named them." });
export type Audience = z.infer<typeof AudienceSchema>;

export const SendNotificationResultSchema = z
  .object({
    notification_id: z.number().int(),
    recipients_count: z
      .number()
      .int()
      .openapi({ description: "The customers it is addressed to, counted when it was queued." }),
    status: z.literal("queued"),
  })
  .openapi("SendNotificationResult");

const texts = {
  title_en: z.string(),
  title_ar: z.string(),
  body_en: z.string(),
  body_ar: z.string(),
  data: z.record(z.string(), z.string()).nullable(),
};

/** A notification the store sent, with how far its sending got. */
export const NotificationSchema = z
  .object({
    id: z.number().int(),
    ...texts,
    audience: AudienceSchema,
    status: z.enum(NOTIFICATION_STATUSES).openapi({
      description:
        "`queued` → `sending` → `sent` (every push accepted, or nothing to push), `partially_failed` or `failed` " +
        "(no push accepted).",
    }),
    recipients_count: z.number().int(),
    push_sent: z.number().int().openapi({ description: "Pushes FCM accepted (one per device)." }),
    push_failed: z.number().int().openapi({ description: "Pushes refused for good (dead tokens included)." }),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Notification");

export type Notification = z.infer<typeof NotificationSchema>;
export const NotificationListSchema = envelopeSchema(NotificationSchema, "NotificationList");

/** A notification as one customer received it (List Received Notifications). */
export const ReceivedNotificationSchema = z
  .object({
    id: z.number().int(),
    notification_id: z.number().int(),
    ...texts,
    is_read: z.boolean(),
    read_at: z.string().nullable().openapi({ format: "date-time" }),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time", description: "Moves when it is read." }),
  })
  .openapi("ReceivedNotification");

export type ReceivedNotification = z.infer<typeof ReceivedNotificationSchema>;
export const ReceivedNotificationListSchema = envelopeSchema(ReceivedNotificationSchema, "ReceivedNotificationList");

export const ReadAllResultSchema = z
  .object({ updated: z.number().int().openapi({ description: "Notifications marked read by this call." }) })
  .openapi("ReadAllNotificationsResult");
