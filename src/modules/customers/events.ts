import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { WALLET_ENTRY_TYPES, WALLET_KINDS } from "./tables";

/** The events the customers module emits, with the schema of their `data`. */
export const customerEvents = defineEvents({
  "customer.created": { description: "A customer was created (by the merchant, or by registering).", data: ById },
  "customer.updated": { description: "A customer's fields changed.", data: ById },
  "customer.deleted": { description: "A customer was deleted (their account closed); orders are kept.", data: ById },
  "customer.location.created": {
    description: "A location was added to a customer (by the merchant, or in the customer app).",
    data: ById.extend({ customer_id: z.number().int() }),
  },
  "customer.wallet.updated": {
    description: "An entry was added to a customer's wallet ledger (a deposit or a redemption of points or cashback).",
    data: z.object({
      customer_id: z.number().int(),
      kind: z.enum(WALLET_KINDS),
      type: z.enum(WALLET_ENTRY_TYPES),
      entry_id: z.number().int(),
      amount: z.number().openapi({ description: "Signed; points, or cashback money in major units." }),
      balance_after: z.number().openapi({ description: "The balance of `kind` after the entry." }),
    }),
  },
  "customer.location.updated": {
    description: "A customer changed one of their locations in the customer app (its fields or its image).",
    data: ById.extend({ customer_id: z.number().int() }),
  },
  "customer.location.deleted": {
    description: "A customer deleted one of their locations in the customer app.",
    data: ById.extend({ customer_id: z.number().int() }),
  },
  "notification.sent": {
    description:
      "A notification finished sending: every recipient has it in the app and every push was tried " +
      "(`status` sent, partially_failed or failed).",
    data: ById.extend({
      status: z.enum(["sent", "partially_failed", "failed"]),
      recipients_count: z.number().int(),
      push_sent: z.number().int(),
      push_failed: z.number().int(),
    }),
  },
  "store.supported_cities.updated": {
    description: "The store started (`is_supported` true) or stopped serving a city; sent only when the set changed.",
    data: z.object({ city_id: z.number().int(), is_supported: z.boolean() }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof customerEvents> {}
}
