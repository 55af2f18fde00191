import { z } from "@hono/zod-openapi";
import { ById, defineEvents } from "../../../core/events/registry";
import { FULFILLMENT_STATES, FULFILLMENT_TYPES } from "./tables";

const FulfillmentRef = ById.extend({
  order_id: z.number().int(),
  order_item_id: z.number().int(),
  type: z.enum(FULFILLMENT_TYPES),
  status: z.enum(FULFILLMENT_STATES),
});

/** The fulfillment events (design-reference 7), composed into the orders module's `orderEvents`. */
export const fulfillmentEvents = defineEvents({
  "fulfillment.created": {
    description: "An order was paid: one fulfillment per line to deliver, hand over or perform, `pending`.",
    data: FulfillmentRef,
  },
  "fulfillment.updated": {
    description:
      "A fulfillment's date, time, location, notes, shipment or tracking number changed; `changes` names the fields.",
    data: FulfillmentRef.extend({ changes: z.array(z.string()) }),
  },
  "fulfillment.status_changed": {
    description: "A fulfillment moved to another status (by the merchant, or by its shipment).",
    data: FulfillmentRef.extend({ previous_status: z.enum(FULFILLMENT_STATES) }),
  },
});
