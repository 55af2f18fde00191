import { z } from "@hono/zod-openapi";
import { humanText, hundredths, orNull } from "../../../core/fields";
import { envelopeSchema } from "../../../core/listing";
import { StoreFaceSchema } from "../stores";
import { CONNECTION_STATUSES } from "../tables";

export const DIRECTIONS = ["incoming", "outgoing"] as const;
export const ROLES = ["channel", "provider"] as const;
export const MESSAGE_MAX = 1000;

const dateTime = z.string().openapi({ format: "date-time" });
const storeId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const ConnectionRequestSchema = z
  .object({
    id: z.number().int(),
    channel: StoreFaceSchema.openapi({ description: "The marketplace store that sells the provider's plans." }),
    provider: StoreFaceSchema.openapi({ description: "The store whose plans the channel sells." }),
    direction: z.enum(DIRECTIONS).openapi({
      description: "`outgoing` when the store in `app-id` sent the request, `incoming` when it received it.",
    }),
    role: z.enum(ROLES).openapi({ description: "The side of the connection the store in `app-id` is on." }),
    status: z.enum(CONNECTION_STATUSES),
    commission_percentage: z.number().nullable().openapi({
      description: "The channel's commission the sender proposed, in percent (0 to 100, 2 decimals), or null.",
    }),
    message: z.string().nullable(),
    requested_at: dateTime,
    decided_at: dateTime.nullable().openapi({ description: "When the receiving store accepted or rejected it." }),
    decided_by: z.number().int().nullable().openapi({
      description: "The receiving store's merchant API token that accepted or rejected it.",
    }),
    deactivated_by_app_id: z.number().int().nullable().openapi({
      description: "While `inactive`: the store that deactivated it, the only one that may activate it again.",
    }),
    app_id: z.number().int().openapi({ description: "The store that sent the request." }),
    created_at: dateTime,
    modified_at: dateTime,
    deleted_at: dateTime.nullable(),
    is_deleted: z.boolean(),
    ordering: z.number().int(),
  })
  .openapi("ConnectionRequest");
export type ConnectionRequest = z.infer<typeof ConnectionRequestSchema>;

export const ConnectionRequestListSchema = envelopeSchema(ConnectionRequestSchema, "ConnectionRequestList");

export const SendConnectionRequestSchema = z
  .object({
    provider_app_id: storeId.optional().openapi({
      description: "Send as a channel: the provider store whose plans this store wants to sell.",
      example: 2,
    }),
    channel_app_id: storeId.optional().openapi({
      description: "Send as a provider: the marketplace store this store wants to sell through.",
    }),
    message: humanText(MESSAGE_MAX, "lines").nullable().optional().openapi({ example: "Let us sell your plans." }),
    commission_percentage: orNull(
      hundredths({
        min: 0,
        max: 100,
        description: "The channel's commission proposed, in percent, at most 2 decimals.",
        example: 12.5,
      }),
      "number",
    ).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.provider_app_id === undefined) === (b.channel_app_id === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [b.provider_app_id === undefined ? "provider_app_id" : "channel_app_id"],
        message:
          "Give either `provider_app_id` (this store is the channel) or `channel_app_id` (this store is the provider), not both.",
      });
    }
  })
  .openapi("SendConnectionRequest", { example: { provider_app_id: 2, message: "Let us sell your plans." } });
export type SendConnectionRequest = z.output<typeof SendConnectionRequestSchema>;
