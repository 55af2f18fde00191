import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { SHIPMENT_DIRECTIONS, SHIPMENT_STATUSES, STATUS_SOURCES } from "./tables";

const Status = z.enum(SHIPMENT_STATUSES);
const ShipmentRef = ById.extend({
  order_id: z.number().int(),
  courier_id: z.number().int(),
  direction: z.enum(SHIPMENT_DIRECTIONS),
  status: Status,
});

/** The events of couriers, pickup locations, the shipping config and shipments (design reference 8). */
export const shippingEvents = defineEvents({
  "courier.created": { description: "A custom courier was created.", data: ById },
  "courier.updated": { description: "A custom courier's details, coverage or prices changed.", data: ById },
  "courier.deleted": { description: "A custom courier was deleted.", data: ById },
  "pickup_location.created": { description: "A pickup location was created.", data: ById },
  "pickup_location.updated": { description: "A pickup location changed (or stopped being the default).", data: ById },
  "pickup_location.deleted": { description: "A pickup location was deleted.", data: ById },
  "shipping_config.updated": {
    description: "The store's shipping config (default origin, package defaults, enabled couriers) changed.",
    data: z.object({ app_id: z.number().int() }),
  },
  "shipment.created": {
    description: "A shipment was created for fulfillments of one order (status `created`).",
    data: ShipmentRef.extend({ fulfillment_ids: z.array(z.number().int()) }),
  },
  "shipment.label_purchased": {
    description: "A label was bought for the shipment (MH3), its cost taken from the store wallet.",
    data: ShipmentRef.extend({ label_id: z.number().int(), tracking_number: z.string(), cost: z.number() }),
  },
  "shipment.label_voided": {
    description:
      "A labelled shipment was cancelled, voiding its label: `refund` went back to the store wallet (0 where " +
      "the carrier keeps the charge), `wallet_balance` is the balance after.",
    data: ShipmentRef.extend({
      label_id: z.number().int(),
      tracking_number: z.string(),
      refund: z.number(),
      wallet_balance: z.number(),
    }),
  },
  "shipment.status_changed": {
    description: "A shipment's status changed (a carrier's update, or the merchant's for a custom courier).",
    data: ShipmentRef.extend({ previous_status: Status, source: z.enum(STATUS_SOURCES) }),
  },
  "shipment.delivered": {
    description: "A shipment reached `delivered` (a forward one delivers its fulfillments; a return one is received).",
    data: ShipmentRef,
  },
  "shipment.cancelled": {
    description: "A shipment was cancelled before pickup; its fulfillments can be shipped again.",
    data: ShipmentRef.extend({ previous_status: Status }),
  },
  "shipment.return_created": {
    description: "A return shipment (`direction: return`) was created for fulfillments of a delivered shipment.",
    data: ShipmentRef.extend({ return_of_id: z.number().int(), fulfillment_ids: z.array(z.number().int()) }),
  },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof shippingEvents> {}
}
