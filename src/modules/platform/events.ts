import { z } from "@hono/zod-openapi";
import { defineEvents, type RegisteredEvents } from "../../core/events/registry";

/**
 * The platform's events a store's merchant sees (in the store's own outbox): its suspension and
 * reactivation. Organizations and stores being created emit none: no webhook of the store exists yet.
 */
export const platformEvents = defineEvents({
  "store.suspended": {
    description: "The platform suspended the store: every request is refused (403 `app_suspended`), its data kept.",
    data: z.object({ id: z.number().int(), reason: z.string() }),
  },
  "store.reactivated": {
    description: "The platform reactivated the store: its requests are served again.",
    data: z.object({ id: z.number().int() }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof platformEvents> {}
}
