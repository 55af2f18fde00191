import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { activeCouriers, courierPrices } from "./pricing";
import {
  ActiveCouriersResultSchema,
  ActiveCouriersSchema,
  CourierListSchema,
  CourierPricesResultSchema,
  CourierPricesSchema,
  CourierSchema,
  CreateCourierSchema,
  UpdateCourierSchema,
} from "./schemas";
import { COURIER_LIST, courierDetails, createCourier, deleteCourier, listCouriers, updateCourier } from "./service";

const tags = ["Couriers"];
const COLLECTION = "/merchant/shipments/couriers/";
const MEMBER = `${COLLECTION}{courier_id}/`;

const listRoute = merchantRoute({
  method: "get",
  path: COLLECTION,
  operationId: "listCouriers",
  summary: "List Couriers",
  tags,
  specId: "C1",
  permission: "can_read_shipment",
  description:
    "The store's couriers: its custom couriers and the integrated carriers (listed read-only from their " +
    "adapters). Filter on any field (`type=custom`, `is_active=true`, `cod_supported=true` …), search names.",
  request: { query: listQuerySchema(COURIER_LIST) },
  responses: { 200: jsonContent(CourierListSchema, "A page of couriers.") },
});

const activeRoute = merchantRoute({
  method: "post",
  path: `${COLLECTION}active/`,
  operationId: "getActiveCouriers",
  summary: "Get Active Couriers",
  tags,
  specId: "C2",
  permission: "can_read_shipment",
  description:
    "The couriers that can carry to a city (and district) now: active, enabled in the shipping config, " +
    "covering the destination, collecting cash when `cod_amount` is given, and (custom ones) with a price " +
    "rule for the weight. Every other courier is in `unavailable` with its reason. Writes nothing.",
  request: { body: jsonBody(ActiveCouriersSchema) },
  responses: { 200: jsonContent(ActiveCouriersResultSchema, "The couriers available, and the others with reasons.") },
});

const pricesRoute = merchantRoute({
  method: "post",
  path: `${COLLECTION}prices/`,
  operationId: "getCouriersPrices",
  summary: "Get Couriers Prices",
  tags,
  specId: "C3",
  permission: "can_read_shipment",
  description:
    "Prices per courier and service for an origin, a destination and packages: a custom courier's from its " +
    "first price rule for the destination city whose weight band [from, to) holds the total weight (else its " +
    "first rule for any city); an integrated carrier's from its adapter. Deterministic; each courier without " +
    "a price is in `unavailable` with its reason. Writes nothing.",
  request: { body: jsonBody(CourierPricesSchema) },
  responses: { 200: jsonContent(CourierPricesResultSchema, "The prices, and the couriers without one.") },
});

const detailsRoute = merchantRoute({
  method: "get",
  path: MEMBER,
  operationId: "courierDetails",
  summary: "Courier Details",
  tags,
  specId: "C4",
  permission: "can_read_shipment",
  errors: { 404: ["courier_not_found"] },
  request: { params: idParam("courier_id") },
  responses: { 200: jsonContent(CourierSchema, "The courier.") },
});

const createRoute = merchantRoute({
  method: "post",
  path: COLLECTION,
  operationId: "createCustomCourier",
  summary: "Create Custom Courier",
  tags,
  specId: "C5",
  permission: "can_write_shipment",
  description:
    "A custom courier (the merchant's own delivery): bilingual names, covered cities and districts (a city " +
    "whose districts are listed is covered in those only), price rules by city and weight band, cash on delivery.",
  request: { body: jsonBody(CreateCourierSchema) },
  responses: { 201: jsonContent(CourierSchema, "The courier.") },
});

const updateRoute = merchantRoute({
  method: "patch",
  path: MEMBER,
  operationId: "updateCustomCourier",
  summary: "Update Custom Courier Details",
  tags,
  specId: "C6",
  permission: "can_write_shipment",
  errors: { 404: ["courier_not_found"], 409: ["courier_not_custom"] },
  description: "Changes a custom courier; the fields given replace theirs. An integrated carrier's courier is 409.",
  request: { params: idParam("courier_id"), body: jsonBody(UpdateCourierSchema) },
  responses: { 200: jsonContent(CourierSchema, "The courier as it is now.") },
});

const deleteRoute = merchantRoute({
  method: "delete",
  path: MEMBER,
  operationId: "deleteCustomCourier",
  summary: "Delete Custom Courier",
  tags,
  specId: "C7",
  permission: "can_write_shipment",
  errors: { 404: ["courier_not_found"], 409: ["courier_not_custom", "courier_in_use"] },
  description: "Deletes a custom courier with no unfinished shipment. An integrated carrier's courier is 409.",
  request: { params: idParam("courier_id") },
  responses: { 204: { description: "Deleted." } },
});

export const couriersRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(envelopeOf(c, await listCouriers(serviceContext(c), c.env, listQueryOf(c, COURIER_LIST))), 200),
  )
  .openapi(activeRoute, async (c) => c.json(await activeCouriers(serviceContext(c), c.env, c.req.valid("json")), 200))
  .openapi(pricesRoute, async (c) => c.json(await courierPrices(serviceContext(c), c.env, c.req.valid("json")), 200))
  .openapi(detailsRoute, async (c) =>
    c.json(await courierDetails(serviceContext(c), c.env, c.req.valid("param").courier_id), 200),
  )
  .openapi(createRoute, async (c) => c.json(await createCourier(serviceContext(c), c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) =>
    c.json(await updateCourier(serviceContext(c), c.env, c.req.valid("param").courier_id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteCourier(serviceContext(c), c.env, c.req.valid("param").courier_id);
    return c.body(null, 204);
  });
