import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { customerListQuery } from "../records/service";
import { CreateLocationSchema, LocationListSchema, LocationSchema } from "./schemas";
import { createLocation, getLocation, LOCATION_LIST, listLocations } from "./service";

const LOCATIONS = "/merchant/customers/{customer_id}/locations/";
const customerId = idParam("customer_id");
const tags = ["Customers"];

const PLACE =
  "`city_id` and `district_id` must name a city and a district of the geography lists, the district " +
  "in the city (a 400 names the field otherwise); the city and district names are served from them.";

export const listCustomerLocationsRoute = merchantRoute({
  method: "get",
  path: LOCATIONS,
  operationId: "listCustomerLocations",
  summary: "List Customer Locations",
  tags,
  specId: "MC1",
  permission: "can_read_order",
  description: "The customer's saved locations (deleted ones are left out).",
  errors: { 404: ["customer_not_found"] },
  request: { params: customerId, query: listQuerySchema(LOCATION_LIST) },
  responses: { 200: jsonContent(LocationListSchema, "A page of the customer's locations.") },
});

export const getCustomerLocationRoute = merchantRoute({
  method: "get",
  path: `${LOCATIONS}{location_id}/`,
  operationId: "getCustomerLocation",
  summary: "Customer Location Details",
  tags,
  specId: "MC1",
  permission: "can_read_order",
  description: "One location of the customer; another customer's location is a 404.",
  errors: { 404: ["customer_not_found", "customer_location_not_found"] },
  request: { params: customerId.extend(idParam("location_id").shape) },
  responses: { 200: jsonContent(LocationSchema, "The location.") },
});

export const createCustomerLocationRoute = merchantRoute({
  method: "post",
  path: LOCATIONS,
  operationId: "createCustomerLocation",
  summary: "Create Customer Location",
  tags,
  specId: "MC1",
  permission: "can_write_order",
  description: `Adds a location to the customer. Coordinates are range-checked. ${PLACE}
Emits \`customer.location.created\`.`,
  errors: { 404: ["customer_not_found"] },
  request: { params: customerId, body: jsonBody(CreateLocationSchema) },
  responses: { 201: jsonContent(LocationSchema, "The new location.") },
});

/** The merchant's view of a customer's locations (MC1); the customer must be the store's and live. */
export const customerLocationsRouter = createRouter()
  .openapi(listCustomerLocationsRoute, async (c) => {
    const ctx = serviceContext(c);
    const id = c.req.valid("param").customer_id;
    const q = await customerListQuery(ctx, id, () => listQueryOf(c, LOCATION_LIST));
    // The customer is checked in the list's own statement.
    return c.json(envelopeOf(c, await listLocations(ctx, id, q)), 200);
  })
  .openapi(createCustomerLocationRoute, async (c) => {
    // The customer is checked by the create itself, in the round trip of the places.
    const ctx = serviceContext(c);
    return c.json(await createLocation(ctx, c.req.valid("param").customer_id, c.req.valid("json")), 201);
  })
  .openapi(getCustomerLocationRoute, async (c) => {
    const ctx = serviceContext(c);
    const { customer_id, location_id } = c.req.valid("param");
    return c.json(await getLocation(ctx, customer_id, location_id, { liveCustomer: true }), 200);
  });
