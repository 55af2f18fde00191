import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { CONNECTION_STATUSES } from "./tables";

/**
 * A connection's events go to both of its stores (one event each, with that store's `app_id`):
 * the change concerns both, and each store's webhooks see only its own events.
 */
const Connection = ById.extend({
  status: z.enum(CONNECTION_STATUSES),
  channel_app_id: z.number().int(),
  provider_app_id: z.number().int(),
  /** The store whose request made the change. */
  by_app_id: z.number().int(),
});

/** The events sales channels emit, with the schema of their `data`. */
export const salesChannelEvents = defineEvents({
  "sales_channel.connection_requested": {
    description: "A store asked another to connect as its sales channel or provider; sent to both stores.",
    data: Connection,
  },
  "sales_channel.connection_accepted": {
    description: "The receiving store accepted a connection request: the connection is active.",
    data: Connection,
  },
  "sales_channel.connection_rejected": {
    description: "The receiving store rejected a connection request.",
    data: Connection,
  },
  "sales_channel.connection_activated": {
    description: "An inactive connection is active again.",
    data: Connection,
  },
  "sales_channel.connection_deactivated": {
    description: "A store deactivated a connection: the channel no longer sees the provider's plans.",
    data: Connection,
  },
  "sales_channel.connection_deleted": {
    description: "A store deleted a connection: neither store sees it any more.",
    data: Connection,
  },
  "sales_channel.plan_listing_created": {
    description: "The channel listed a provider's plan.",
    data: ById,
  },
  "sales_channel.plan_listing_updated": {
    description: "The channel changed a listing; `changes` names the fields.",
    data: ById.extend({ changes: z.array(z.string()) }),
  },
  "sales_channel.plan_listing_deleted": {
    description: "The channel deleted a listing.",
    data: ById,
  },
  "sales_channel.profile_updated": {
    description: "The store changed its channel profile; `changes` names the fields.",
    data: z.object({ app_id: z.number().int(), changes: z.array(z.string()) }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof salesChannelEvents> {}
}
