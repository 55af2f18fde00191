import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { CreateLocationSchema, LocationListSchema, LocationSchema } from "../locations/schemas";
import { LOCATION_LIST } from "../locations/service";
import { UpdateLocationImageSchema, UpdateMyLocationSchema } from "./schemas";
import {
  createMyLocation,
  deleteMyLocation,
  getMyLocation,
  listMyLocations,
  updateMyLocation,
  updateMyLocationImage,
} from "./service";

const tags = ["Customer app: locations"];
const LOCATIONS = "/locations/";
const ONE = `${LOCATIONS}{location_id}/`;
const locationId = idParam("location_id");
const common = { tags, specId: "CA8" } as const;
const customerGone = { 404: ["customer_not_found"] } as const;
const notFound = { 404: ["customer_not_found", "customer_location_not_found"] } as const;

const PLACE =
  "`city_id` and `district_id` must name a city and a district of the geography lists, the district in " +
  "the city (a 400 names the field otherwise). Coordinates are range-checked.";

export const listMyLocationsRoute = customerRoute({
  ...common,
  method: "get",
  path: LOCATIONS,
  operationId: "listMyLocations",
  summary: "List Customer Locations",
  description: "The customer's own saved locations.",
  request: { query: listQuerySchema(LOCATION_LIST) },
  errors: customerGone,
  responses: { 200: jsonContent(LocationListSchema, "A page of the customer's locations.") },
});

export const getMyLocationRoute = customerRoute({
  ...common,
  method: "get",
  path: ONE,
  operationId: "getMyLocation",
  summary: "Customer Location Details",
  description: "One of the customer's locations; any other id (another customer's too) is a 404.",
  request: { params: locationId },
  errors: notFound,
  responses: { 200: jsonContent(LocationSchema, "The location.") },
});

export const createMyLocationRoute = customerRoute({
  ...common,
  method: "post",
  path: LOCATIONS,
  operationId: "createMyLocation",
  summary: "Create Customer Location",
  description: `Saves a location for the customer. ${PLACE} Emits \`customer.location.created\`.`,
  request: { body: jsonBody(CreateLocationSchema) },
  errors: customerGone,
  responses: { 201: jsonContent(LocationSchema, "The new location.") },
});

export const updateMyLocationRoute = customerRoute({
  ...common,
  method: "patch",
  path: ONE,
  operationId: "updateMyLocation",
  summary: "Update Customer Location",
  description: `Changes the given fields of one of the customer's locations. ${PLACE}
Emits \`customer.location.updated\`.`,
  request: { params: locationId, body: jsonBody(UpdateMyLocationSchema) },
  errors: notFound,
  responses: { 200: jsonContent(LocationSchema, "The location, changed.") },
});

export const updateMyLocationImageRoute = customerRoute({
  ...common,
  method: "post",
  path: `${ONE}image/`,
  operationId: "updateMyLocationImage",
  summary: "Update Location Image",
  description:
    "Records the https URL of a picture of the place (the entrance, say), uploaded by the app to its own " +
    "storage; `null` removes it. Emits `customer.location.updated`.",
  request: { params: locationId, body: jsonBody(UpdateLocationImageSchema) },
  errors: notFound,
  responses: { 200: jsonContent(LocationSchema, "The location, with its image.") },
});

export const deleteMyLocationRoute = customerRoute({
  ...common,
  method: "delete",
  path: ONE,
  operationId: "deleteMyLocation",
  summary: "Delete Customer Location",
  description: "Deletes one of the customer's locations. Emits `customer.location.deleted`.",
  request: { params: locationId },
  errors: notFound,
  responses: { 204: { description: "Deleted." } },
});

export const myLocationsCustomerRouter = createRouter()
  .openapi(listMyLocationsRoute, async (c) =>
    c.json(
      envelopeOf(c, await listMyLocations(serviceContext(c), customerOf(c).customerId, listQueryOf(c, LOCATION_LIST))),
      200,
    ),
  )
  .openapi(createMyLocationRoute, async (c) =>
    c.json(await createMyLocation(serviceContext(c), customerOf(c).customerId, c.req.valid("json")), 201),
  )
  .openapi(getMyLocationRoute, async (c) =>
    c.json(await getMyLocation(serviceContext(c), customerOf(c).customerId, c.req.valid("param").location_id), 200),
  )
  .openapi(updateMyLocationRoute, async (c) =>
    c.json(
      await updateMyLocation(
        serviceContext(c),
        customerOf(c).customerId,
        c.req.valid("param").location_id,
        c.req.valid("json"),
      ),
      200,
    ),
  )
  .openapi(updateMyLocationImageRoute, async (c) =>
    c.json(
      await updateMyLocationImage(
        serviceContext(c),
        customerOf(c).customerId,
        c.req.valid("param").location_id,
        c.req.valid("json").image,
      ),
      200,
    ),
  )
  .openapi(deleteMyLocationRoute, async (c) => {
    await deleteMyLocation(serviceContext(c), customerOf(c).customerId, c.req.valid("param").location_id);
    return c.body(null, 204);
  });
