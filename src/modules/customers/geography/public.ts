import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { CityListSchema } from "./schemas";
import { CITY_LIST, listSupportedCities } from "./service";

/** Supported Cities (CA20), mounted under /api/v1/customer: public, and cached in KV like the meals reads. */

const supportedCitiesRoute = publicRoute({
  method: "get",
  path: "/cities/",
  operationId: "listSupportedCities",
  summary: "Supported Cities",
  tags: ["Geography"],
  specId: "CA20",
  cached: true,
  description:
    "The cities the store serves, for the customer app's city picker (before any login): every one has " +
    "`is_supported` true. A merchant's Support City or Stop Supporting City refreshes it.",
  request: { query: listQuerySchema(CITY_LIST) },
  responses: { 200: jsonContent(CityListSchema, "A page of the store's supported cities.") },
});

export const supportedCitiesPublicRouter = createRouter().openapi(supportedCitiesRoute, (c) =>
  cachedJson(c, async () => ({
    body: envelopeOf(c, await listSupportedCities(serviceContext(c), listQueryOf(c, CITY_LIST))),
  })),
);
