import { serviceContext } from "../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../core/listing";
import { createRouter, jsonContent } from "../../core/openapi";
import { customerRoute } from "../../core/routes";
import { PickupLocationListSchema } from "./pickup-locations/schemas";
import { listActivePickupLocations, PICKUP_LOCATION_LIST } from "./pickup-locations/service";

const listRoute = customerRoute({
  tags: ["Customer app: orders"],
  specId: "MH7",
  method: "get",
  path: "/pickup-locations/",
  operationId: "listMyPickupLocations",
  summary: "List Pickup Locations",
  description: "The store's active pickup locations, to choose one at checkout (a cart's `pickup_location_id`).",
  request: { query: listQuerySchema(PICKUP_LOCATION_LIST) },
  responses: { 200: jsonContent(PickupLocationListSchema, "A page of active pickup locations.") },
});

/** The customer app's shipping routes (under /order/v1). */
export const shippingCustomerRouter = createRouter().openapi(listRoute, async (c) =>
  c.json(envelopeOf(c, await listActivePickupLocations(serviceContext(c), listQueryOf(c, PICKUP_LOCATION_LIST))), 200),
);
