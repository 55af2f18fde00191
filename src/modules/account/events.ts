import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events of the merchant account. */
export const accountEvents = defineEvents({
  "merchant.settings.updated": {
    description: "The store's settings changed (currency, VAT, seller, time zone, languages).",
    data: z.object({ fields: z.array(z.string()).openapi({ description: "The settings that changed." }) }),
  },
  "bank_account.created": { description: "A bank account was added to the store.", data: ById },
  "bank_account.updated": { description: "A bank account of the store changed.", data: ById },
  "bank_account.deleted": { description: "A bank account was removed from the store.", data: ById },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof accountEvents> {}
}
