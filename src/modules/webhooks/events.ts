import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events the webhooks module emits, with the schema of their `data`. */
export const webhookEvents = defineEvents({
  "webhook.created": { description: "A webhook was added to the store.", data: ById },
  "webhook.updated": {
    description: "A webhook's URL, events, headers or `is_active` were changed by an update.",
    data: ById,
  },
  "webhook.secret_rotated": {
    description: "A webhook's secret was rotated; the previous one still signs for 24 hours. Never carries a secret.",
    data: ById,
  },
  "webhook.deleted": { description: "A webhook was deleted (by its id or by its URL).", data: ById },
  "webhook.test": {
    description: "Sent by Test Webhook to the one webhook tested.",
    data: z.object({ webhook: z.number().int(), message: z.string() }),
  },
  "webhook.disabled": {
    description:
      "A webhook was disabled by the service, once: its target answered 410 Gone, or every attempt failed " +
      "for 5 days. Its open deliveries end `skipped`; Recover re-sends them once it is on again.",
    data: z.object({ id: z.number().int(), url: z.string(), reason: z.string() }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof webhookEvents> {}
}
