import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { invalidatesPublicCache } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import {
  envelopeOf,
  type ListQuery,
  type ListSpec,
  listQueryOf,
  listQuerySchema,
  parseListQuery,
} from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { CityListSchema, CitySchema, CountryListSchema, DistrictListSchema, RegionListSchema } from "./schemas";
import {
  CITY_LIST,
  COUNTRY_LIST,
  DISTRICT_LIST,
  listCities,
  listCountries,
  listDistricts,
  listRegions,
  REGION_LIST,
  supportCity,
  unsupportCity,
} from "./service";

/**
 * Geography for the merchant (MG1–MG4): lists of the shared reference data, and the writes of the
 * store's supported cities, which the customer app's cached Supported Cities shows.
 */

const BASE = "/merchant/geography/";
const TAGS = ["Geography"];
const REFERENCE = "Reference data shared by every store (Saudi Arabia's regions, cities and districts, the GCC).";

const list = (o: {
  operationId: string;
  summary: string;
  specId: string;
  resource: string;
  spec: ListSpec;
  schema: z.ZodType;
  description: string;
}) =>
  merchantRoute({
    method: "get",
    path: `${BASE}${o.resource}/`,
    operationId: o.operationId,
    summary: o.summary,
    specId: o.specId,
    tags: TAGS,
    permission: "can_read_order",
    description: `${o.description} ${REFERENCE}`,
    request: { query: listQuerySchema(o.spec) },
    responses: { 200: jsonContent(o.schema, `A page of ${o.resource}.`) },
  });

const countriesRoute = list({
  operationId: "listCountries",
  summary: "Countries",
  specId: "MG1",
  resource: "countries",
  spec: COUNTRY_LIST,
  schema: CountryListSchema,
  description: "Countries, with their ISO code and calling code.",
});

const regionsRoute = list({
  operationId: "listRegions",
  summary: "Regions",
  specId: "MG2",
  resource: "regions",
  spec: REGION_LIST,
  schema: RegionListSchema,
  description: "Regions of a country (`country_id`), with their ISO 3166-2 code.",
});

const districtsRoute = list({
  operationId: "listDistricts",
  summary: "Districts",
  specId: "MG4",
  resource: "districts",
  spec: DISTRICT_LIST,
  schema: DistrictListSchema,
  description: "Districts of a city (`city_id`).",
});

const IS_SUPPORTED = "is_supported";

const citiesRoute = merchantRoute({
  method: "get",
  path: `${BASE}cities/`,
  operationId: "listCities",
  summary: "Cities",
  specId: "MG3",
  tags: TAGS,
  permission: "can_read_order",
  description:
    "Cities, each with `is_supported`: whether this store serves it (see Support City). Filter on " +
    `\`region_id\`, \`country_code\` or \`is_supported\`. ${REFERENCE}`,
  request: {
    query: listQuerySchema(CITY_LIST).extend({
      [IS_SUPPORTED]: z
        .unknown()
        .optional()
        .openapi({ type: "boolean", description: "`true`: the cities this store serves; `false`: the others." }),
    }),
  },
  responses: { 200: jsonContent(CityListSchema, "A page of cities.") },
});

/**
 * The cities' query: the list's own parameters, plus `is_supported`, which is not a column (it
 * depends on the calling store) and so is read here; errors of both are answered together.
 */
function cityQueryOf(c: Context): { q: ListQuery; isSupported: boolean | undefined } {
  const params = new URLSearchParams(new URL(c.req.url).searchParams);
  const raw = params.getAll(IS_SUPPORTED);
  params.delete(IS_SUPPORTED);
  const errors: FieldErrors = Object.create(null);
  let isSupported: boolean | undefined;
  if (raw.length > 1) addFieldError(errors, IS_SUPPORTED, "Give this parameter once.");
  else if (raw.length === 1) {
    const v = raw[0]!.trim();
    if (v === "true" || v === "1") isSupported = true;
    else if (v === "false" || v === "0") isSupported = false;
    else addFieldError(errors, IS_SUPPORTED, "Must be true or false.");
  }
  let q: ListQuery | undefined;
  try {
    q = parseListQuery(params, CITY_LIST);
  } catch (e) {
    if (!(e instanceof ApiError) || !e.extra.errors) throw e;
    for (const [name, messages] of Object.entries(e.extra.errors))
      for (const m of messages)
        addFieldError(
          errors,
          name,
          m.startsWith("Unknown query parameter.") ? m.replace("Allowed: ", `Allowed: ${IS_SUPPORTED}, `) : m,
        );
  }
  if (!q || Object.keys(errors).length) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
  return { q, isSupported };
}

const SUPPORTED_CITY = `${BASE}supported-cities/{city_id}/`;
const BEYOND =
  "The interface lists which cities a store serves (`is_supported`, Supported Cities) but names no way to set " +
  "them; without one a store could serve no city.";

const supportCityRoute = merchantRoute({
  method: "put",
  path: SUPPORTED_CITY,
  operationId: "supportCity",
  summary: "Support City",
  beyondSpec: BEYOND,
  tags: TAGS,
  permission: "can_write_order",
  description:
    "The store serves the city from now on: it shows in the customer app's Supported Cities (whose cache " +
    "this refreshes) with `is_supported` true. Idempotent: a city already served changes nothing and emits no " +
    "event; otherwise `store.supported_cities.updated` is emitted.",
  errors: { 404: ["city_not_found"] },
  request: { params: idParam("city_id") },
  responses: { 200: jsonContent(CitySchema, "The city, now served by the store.") },
});

const unsupportCityRoute = merchantRoute({
  method: "delete",
  path: SUPPORTED_CITY,
  operationId: "unsupportCity",
  summary: "Stop Supporting City",
  beyondSpec: BEYOND,
  tags: TAGS,
  permission: "can_write_order",
  description:
    "The store no longer serves the city; it leaves the customer app's Supported Cities (whose cache this " +
    "refreshes). Idempotent: a city not served answers 204 too, and emits no event.",
  errors: { 404: ["city_not_found"] },
  request: { params: idParam("city_id") },
  responses: { 204: { description: "The store does not serve the city." } },
});

export const geographyMerchantRouter = createRouter();
// A write to the supported cities changes what the public Supported Cities shows.
geographyMerchantRouter.use(`${BASE}supported-cities/*`, invalidatesPublicCache());
geographyMerchantRouter
  .openapi(countriesRoute, async (c) =>
    c.json(envelopeOf(c, await listCountries(serviceContext(c), listQueryOf(c, COUNTRY_LIST))), 200),
  )
  .openapi(regionsRoute, async (c) =>
    c.json(envelopeOf(c, await listRegions(serviceContext(c), listQueryOf(c, REGION_LIST))), 200),
  )
  .openapi(citiesRoute, async (c) => {
    const { q, isSupported } = cityQueryOf(c);
    return c.json(envelopeOf(c, await listCities(serviceContext(c), q, isSupported)), 200);
  })
  .openapi(districtsRoute, async (c) =>
    c.json(envelopeOf(c, await listDistricts(serviceContext(c), listQueryOf(c, DISTRICT_LIST))), 200),
  )
  .openapi(supportCityRoute, async (c) =>
    c.json(await supportCity(serviceContext(c), c.req.valid("param").city_id), 200),
  )
  .openapi(unsupportCityRoute, async (c) => {
    await unsupportCity(serviceContext(c), c.req.valid("param").city_id);
    return c.body(null, 204);
  });
