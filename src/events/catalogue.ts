import { z } from "@hono/zod-openapi";

const TicketStatus = z.enum(["pending", "confirmed", "checked_in", "cancelled"]);
const ById = z.object({ id: z.number().int() }).passthrough();

/**
 * Every event this API emits, with the schema of its `data`. Webhooks subscribe to these names;
 * each delivery's body is the envelope `{ id, type, event, app_id, timestamp, data }`. The
 * OpenAPI document lists them under `webhooks`.
 */
export const EVENT_CATALOGUE = {
  "ticket.created": {
    description: "A ticket was issued (status `pending`).",
    data: z.object({
      id: z.number().int(),
      status: TicketStatus,
      item: z.number().int(),
      date: z.string(),
      time: z.string().nullable(),
    }),
  },
  "ticket.updated": {
    description: "A ticket's status, date or time changed (Bulk Update Tickets).",
    data: z.object({
      id: z.number().int(),
      previous_status: TicketStatus,
      changes: z.object({
        status: TicketStatus.optional(),
        date: z.string().optional(),
        time: z.string().nullable().optional(),
      }),
    }),
  },
  "ticket.checked_in": {
    description: "A ticket's token was validated and the ticket checked in.",
    data: z.object({ id: z.number().int(), checked_in_at: z.string(), previous_status: TicketStatus }),
  },
  "order.created": { description: "An order was placed (emitted once the orders module lands).", data: ById },
  "item.created": { description: "An item was created, with its links and variants.", data: ById },
  "item.updated": {
    description:
      "An item or variant changed: its fields, links, variants, discount or images, or its stock (a purchase, a reservation).",
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
  "restaurant.created": { description: "A restaurant (a meals provider) was created.", data: ById },
  "restaurant.updated": {
    description: "A restaurant changed, or its branches, delivery zones, delivery windows or variants.",
    data: ById,
  },
  "restaurant.deleted": { description: "A restaurant was deleted, with its branches, menus and products.", data: ById },
  "menu.created": { description: "A menu was created.", data: ById },
  "menu.updated": { description: "A menu or its categories changed.", data: ById },
  "menu.deleted": { description: "A menu was deleted, with its categories and combos.", data: ById },
  "meal_product.created": { description: "A meal product was created, with its nutrition facts.", data: ById },
  "meal_product.updated": { description: "A meal product or its nutrition facts changed.", data: ById },
  "meal_product.deleted": { description: "A meal product was deleted.", data: ById },
  "restaurant_category.created": { description: "A restaurant category was created.", data: ById },
  "restaurant_category.updated": { description: "A restaurant category changed.", data: ById },
  "restaurant_category.deleted": { description: "A restaurant category was deleted.", data: ById },
  "allergen.created": { description: "An allergen or dislike was created.", data: ById },
  "allergen.updated": { description: "An allergen or dislike changed.", data: ById },
  "allergen.deleted": { description: "An allergen or dislike was deleted.", data: ById },
  "plan_tag.created": { description: "A plan tag was created.", data: ById },
  "plan_tag.updated": { description: "A plan tag changed.", data: ById },
  "plan_tag.deleted": { description: "A plan tag was deleted.", data: ById },
  "plan.created": { description: "A meal plan was created.", data: ById },
  "plan.updated": {
    description: "A meal plan changed, or its versions, days, plan categories or options.",
    data: ById,
  },
  "plan.deleted": {
    description: "A meal plan was deleted, with its versions, days, categories and options.",
    data: ById,
  },
  "webhook.test": {
    description: "Sent by Test Webhook to the one webhook tested.",
    data: z.object({ webhook: z.number().int(), message: z.string() }),
  },
  "webhook.disabled": {
    description: "A webhook was disabled: its target answered 410 Gone, or every attempt failed for 5 days.",
    data: z.object({ id: z.number().int(), url: z.string(), reason: z.string() }),
  },
} as const;

export type EventType = keyof typeof EVENT_CATALOGUE;

export const EVENT_TYPES: Record<EventType, string> = Object.fromEntries(
  Object.entries(EVENT_CATALOGUE).map(([name, e]) => [name, e.description]),
) as Record<EventType, string>;

/** The delivery body of one event type, for the OpenAPI document. */
export function eventEnvelopeSchema(type: EventType) {
  return z.object({
    id: z.string().openapi({ description: "The event id (`evt_…`); deduplicate on the `webhook-id` header." }),
    type: z.literal(type),
    event: z.literal(type).openapi({ description: "Repeats `type`." }),
    app_id: z.number().int(),
    timestamp: z.number().int().openapi({ description: "Unix seconds." }),
    data: EVENT_CATALOGUE[type].data,
  });
}
