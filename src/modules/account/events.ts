import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { PERMISSIONS } from "../../core/permissions";

/** An API key in an event: never its secret, nor its hash. */
const ApiKeyRef = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
});

/** The events of the merchant account. */
export const accountEvents = defineEvents({
  "merchant.settings.updated": {
    description: "The store's settings changed (currency, VAT, seller, time zone, languages).",
    data: z.object({ fields: z.array(z.string()).openapi({ description: "The settings that changed." }) }),
  },
  "bank_account.created": { description: "A bank account was added to the store.", data: ById },
  "bank_account.updated": { description: "A bank account of the store changed.", data: ById },
  "bank_account.deleted": { description: "A bank account was removed from the store.", data: ById },
  "api_key.created": { description: "A merchant API key was created for the store.", data: ApiKeyRef },
  "api_key.revoked": { description: "A merchant API key of the store was revoked.", data: ApiKeyRef },
  "api_key.rotated": {
    description:
      "A merchant API key was rotated: `replaced_by` is the new key; the old one is valid until `expires_at`.",
    data: ApiKeyRef.extend({
      replaced_by: z.number().int(),
      expires_at: z.string().openapi({ format: "date-time", description: "When the old key stops working." }),
    }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof accountEvents> {}
}
