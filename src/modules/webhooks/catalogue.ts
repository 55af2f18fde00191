import { z } from "@hono/zod-openapi";
import type { EventDefinition, EventType } from "../../core/events/registry";
import { accountEvents } from "../account/events";
import { customerEvents } from "../customers/events";
import { itemEvents } from "../items/events";
import { mealOrderEvents } from "../meal-orders/events";
import { mealEvents } from "../meals/events";
import { orderEvents } from "../orders/events";
import { platformEvents } from "../platform/events";
import { salesChannelEvents } from "../sales-channels/events";
import { shippingEvents } from "../shipping/events";
import { ticketEvents } from "../tickets/events";
import { voucherEvents } from "../vouchers/events";
import { webhookEvents } from "./events";

/**
 * Every event this API emits, composed from the modules' own declarations. Webhooks subscribe to
 * these names; each delivery's body is the envelope `{ id, type, event, app_id, timestamp, data }`.
 * The OpenAPI document lists them under `webhooks`.
 */
export const EVENT_CATALOGUE: Record<EventType, EventDefinition> = {
  ...ticketEvents,
  ...itemEvents,
  ...mealEvents,
  ...webhookEvents,
  ...customerEvents,
  ...accountEvents,
  ...voucherEvents,
  ...orderEvents,
  ...shippingEvents,
  ...mealOrderEvents,
  ...salesChannelEvents,
  ...platformEvents,
};

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** What every delivery body carries; a component of its own, so the document says it once. */
const EventEnvelope = z
  .object({
    id: z.string().openapi({ description: "The event id (`evt_…`); deduplicate on the `webhook-id` header." }),
    app_id: z.number().int(),
    timestamp: z.number().int().openapi({ description: "Unix seconds." }),
  })
  .openapi("EventEnvelope");

/** The delivery body of one event type, for the OpenAPI document. */
export function eventEnvelopeSchema(type: EventType) {
  return EventEnvelope.extend({
    type: z.literal(type),
    event: z.literal(type).openapi({ description: "Repeats `type`." }),
    data: EVENT_CATALOGUE[type].data,
  });
}
