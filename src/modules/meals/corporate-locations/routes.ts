import { serviceContext } from "../../../core/context";
import { crudRoutes } from "../../../core/crud/routes";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { MERCHANT_BASE as BASE, writeOperations } from "../operations";
import { merchantView } from "../shared";
import {
  CorporateLocationListSchema,
  CorporateLocationSchema,
  CreateCorporateLocationSchema,
  UpdateCorporateLocationSchema,
} from "./schemas";
import {
  CORPORATE_LOCATION_LIST,
  createCorporateLocation,
  deleteCorporateLocation,
  getCorporateLocation,
  listCorporateLocations,
  updateCorporateLocation,
} from "./service";

/** Corporate locations: the customer's reads (under /api/v1), and the merchant's management (under /merchant/meals/). */

const tags = ["Meals: app"];
const customerView = { activeOnly: true };

const listRoute = customerRoute({
  method: "get",
  path: "/corporate-locations/",
  operationId: "listCorporateLocations",
  summary: "List Corporate Locations",
  tags,
  specId: "MM9",
  description:
    "The active corporate delivery points (offices, compounds) a customer may choose instead of their own " +
    "address, with the delivery windows that reach each. Filter by `city_id`; search the names, company, " +
    "district and address.",
  request: { query: listQuerySchema(CORPORATE_LOCATION_LIST) },
  responses: { 200: jsonContent(CorporateLocationListSchema, "A page of corporate locations.") },
});

const detailsRoute = customerRoute({
  method: "get",
  path: "/corporate-locations/{location_id}/",
  operationId: "getCorporateLocation",
  summary: "Corporate Location Details",
  tags,
  specId: "MM9",
  errors: { 404: ["corporate_location_not_found"] },
  description: "One active corporate location with its delivery windows.",
  request: { params: idParam("location_id") },
  responses: { 200: jsonContent(CorporateLocationSchema, "The corporate location.") },
});

export const corporateLocationsCustomerRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listCorporateLocations(serviceContext(c), listQueryOf(c, CORPORATE_LOCATION_LIST), customerView),
      ),
      200,
    ),
  )
  .openapi(detailsRoute, async (c) =>
    c.json(await getCorporateLocation(serviceContext(c), c.req.valid("param").location_id, customerView), 200),
  );

export const corporateLocationsMerchantRouter = createRouter();

const location = writeOperations("Corporate Location", {
  refs: "`delivery_window_ids` must be delivery windows of the store's restaurants.",
  deleteNote: "Never refused: suborders keep the address they were given.",
});
const reads = (verb: string, description: string) => ({
  operationId: `${verb.toLowerCase()}MerchantCorporateLocation${verb === "List" ? "s" : ""}`,
  summary: `${verb} Corporate Location${verb === "List" ? "s" : ""} (merchant)`,
  permission: "can_read_item" as const,
  beyondSpec: "The merchant manages what the customers' Corporate Location read serves, inactive ones too.",
  description: `${description} Needs \`can_read_item\`.`,
});
crudRoutes(corporateLocationsMerchantRouter, {
  names: location.names,
  tag: tags[0]!,
  collection: `${BASE}corporate-locations/`,
  member: `${BASE}corporate-locations/{location_id}/`,
  param: "location_id",
  notFound: "corporate_location_not_found",
  view: CorporateLocationSchema,
  list: {
    ...reads("List", "The store's corporate locations, inactive ones too."),
    spec: CORPORATE_LOCATION_LIST,
    schema: CorporateLocationListSchema,
    run: (ctx, q) => listCorporateLocations(ctx, q, merchantView),
  },
  get: {
    ...reads("Get", "One corporate location of the store, active or not."),
    run: (ctx, id) => getCorporateLocation(ctx, id, merchantView),
  },
  create: { ...location.create, body: CreateCorporateLocationSchema, run: createCorporateLocation },
  update: { ...location.update, body: UpdateCorporateLocationSchema, run: updateCorporateLocation },
  remove: { ...location.remove, run: deleteCorporateLocation },
});
