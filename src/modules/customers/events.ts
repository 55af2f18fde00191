import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events the customers module emits, with the schema of their `data`. */
export const customerEvents = defineEvents({
  "customer.created": { description: "A customer was created (by the merchant, or by registering).", data: ById },
  "customer.updated": { description: "A customer's fields changed.", data: ById },
  "customer.deleted": { description: "A customer was deleted (their account closed); orders are kept.", data: ById },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof customerEvents> {}
}
