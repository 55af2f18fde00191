import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";

/** The events the catalogue (items) emits, with the schema of their `data`. */
export const itemEvents = defineEvents({
  "item.created": { description: "An item was created, with its links and variants.", data: ById },
  "item.updated": {
    description:
      "An item or variant changed: its fields, links, variants, discount or images, or its " +
      "stock (a purchase, a reservation).",
    data: z.object({
      id: z.number().int(),
      purchased: z.number().int().optional(),
      reserved: z.number().int().optional(),
    }),
  },
  "item.deleted": { description: "An item and its variants were deleted.", data: ById },
  "modifier_category.created": { description: "A modifier category was created, with its values.", data: ById },
  "modifier_category.updated": { description: "A modifier category or its values changed.", data: ById },
  "modifier_category.deleted": { description: "A modifier category was deleted.", data: ById },
  "item_category.created": { description: "An item category was created.", data: ById },
  "item_category.updated": { description: "An item category changed.", data: ById },
  "item_category.deleted": { description: "An item category was deleted.", data: ById },
  "item_tag.created": { description: "An item tag was created.", data: ById },
  "item_tag.updated": { description: "An item tag changed.", data: ById },
  "item_tag.deleted": { description: "An item tag was deleted.", data: ById },
  "item_config.updated": {
    description: "The store's catalogue settings changed.",
    data: z.object({ app_id: z.number().int() }),
  },
  "bundle_category.created": { description: "A bundle category was created.", data: ById },
  "bundle_category.updated": { description: "A bundle category changed.", data: ById },
  "bundle_category.deleted": { description: "A bundle category was deleted.", data: ById },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof itemEvents> {}
}
