import { cachedData, cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { BRANCH_LIST, listBranches } from "./branches";
import { listRestaurantCategories, RESTAURANT_CATEGORY_LIST } from "./categories";
import { channelProviders, loadProviderData } from "./providers";
import {
  BranchListSchema,
  ChannelProviderSchema,
  ProvidersQuerySchema,
  RestaurantCategoryListSchema,
  RestaurantListSchema,
  RestaurantSchema,
  RestaurantVariantListSchema,
} from "./schemas";
import { getRestaurant, listRestaurants, RESTAURANT_LIST } from "./service";
import { listRestaurantVariants, RESTAURANT_VARIANT_LIST } from "./variants";

/**
 * The public reads of restaurants (mounted under /api/v1), cached at the edge, and List Channel
 * Providers. Fixed paths come before /restaurants/{restaurant_id}/, which would take them.
 */

const restaurantId = idParam("restaurant_id");
const R = "/restaurants/";
const tags = ["Meals catalogue: restaurants"];

const listRestaurantsRoute = publicRoute({
  method: "get",
  path: R,
  operationId: "listRestaurants",
  summary: "List Restaurant",
  tags,
  specId: "R3",
  cached: true,
  description: "The store's active restaurants.",
  request: { query: listQuerySchema(RESTAURANT_LIST) },
  responses: { 200: jsonContent(RestaurantListSchema, "A page of restaurants.") },
});

const onDemandRestaurantsRoute = publicRoute({
  method: "get",
  path: `${R}on-demand/`,
  operationId: "listOnDemandRestaurants",
  summary: "On-Demand Restaurants",
  tags,
  specId: "R5",
  cached: true,
  description: "Active restaurants that take on-demand orders (`rest_type` `on_demand` or `both`).",
  request: { query: listQuerySchema(RESTAURANT_LIST) },
  responses: { 200: jsonContent(RestaurantListSchema, "A page of restaurants.") },
});

const restaurantCategoriesRoute = publicRoute({
  method: "get",
  path: `${R}categories/`,
  operationId: "listRestaurantCategories",
  summary: "List Restaurant Categories",
  tags,
  specId: "R6",
  cached: true,
  description: "The categories (cuisines) restaurants are filed under; filter List Restaurant by `category_id`.",
  request: { query: listQuerySchema(RESTAURANT_CATEGORY_LIST) },
  responses: { 200: jsonContent(RestaurantCategoryListSchema, "A page of restaurant categories.") },
});

const restaurantRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/`,
  operationId: "getRestaurant",
  summary: "Restaurant Details",
  tags,
  specId: "R2",
  cached: true,
  errors: { 404: ["restaurant_not_found"] },
  description:
    "One active restaurant, with its main branch's location. An unknown id, another store's " +
    "or an inactive restaurant is a 404.",
  request: { params: restaurantId },
  responses: { 200: jsonContent(RestaurantSchema, "The restaurant.") },
});

const branchesRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/branches/`,
  operationId: "listRestaurantBranches",
  summary: "List Restaurant Branch",
  tags,
  specId: "R4",
  cached: true,
  errors: { 404: ["restaurant_not_found"] },
  description: "The restaurant's branches, with their locations and pickup and delivery settings.",
  request: { params: restaurantId, query: listQuerySchema(BRANCH_LIST) },
  responses: { 200: jsonContent(BranchListSchema, "A page of branches.") },
});

const restaurantVariantsRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/variants/`,
  operationId: "listRestaurantVariants",
  summary: "Restaurant Variants List",
  tags,
  specId: "R12",
  cached: true,
  errors: { 404: ["restaurant_not_found"] },
  description: "The variants (diets such as keto or low carb) the restaurant offers.",
  request: { params: restaurantId, query: listQuerySchema(RESTAURANT_VARIANT_LIST) },
  responses: { 200: jsonContent(RestaurantVariantListSchema, "A page of variants.") },
});

const providersRoute = publicRoute({
  method: "post",
  path: "/sales-channels/providers/",
  operationId: "listChannelProviders",
  summary: "List Channel Providers",
  tags: ["Sales channel providers"],
  specId: "S1",
  description:
    "The store's active restaurants as providers of a sales channel, each with " +
    "`is_available_for_user`: true when it delivers to the user's point (inside one of its " +
    "delivery zones, or within a branch's delivery radius), or has a pickup branch in the " +
    "user's city. Give `lat` and `lng` together, `city_id`, or both; `city_id` narrows zones " +
    "and branches to that city. With `debug`, each provider says why. Not paginated: a store " +
    "has few providers. The providers' data is cached at the edge; availability is computed " +
    "per request.",
  request: { body: jsonBody(ProvidersQuerySchema) },
  responses: {
    200: jsonContent(
      z.array(ChannelProviderSchema).openapi("ChannelProviderList"),
      "The providers, in their `ordering`.",
    ),
  },
});

/** The restaurants' fixed paths: mounted before the routes of one restaurant. */
export const restaurantListsPublicRouter = createRouter()
  .openapi(listRestaurantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listRestaurants(serviceContext(c), listQueryOf(c, RESTAURANT_LIST), { onDemand: false }),
      ),
    })),
  )
  .openapi(onDemandRestaurantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listRestaurants(serviceContext(c), listQueryOf(c, RESTAURANT_LIST), { onDemand: true }),
      ),
    })),
  )
  .openapi(restaurantCategoriesRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listRestaurantCategories(serviceContext(c), listQueryOf(c, RESTAURANT_CATEGORY_LIST))),
    })),
  );

/** One restaurant's reads, and List Channel Providers. */
export const restaurantPublicRouter = createRouter()
  .openapi(restaurantRoute, (c) =>
    cachedJson(c, async () => ({ body: await getRestaurant(serviceContext(c), c.req.valid("param").restaurant_id) })),
  )
  .openapi(branchesRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listBranches(serviceContext(c), listQueryOf(c, BRANCH_LIST), c.req.valid("param").restaurant_id),
      ),
    })),
  )
  .openapi(restaurantVariantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listRestaurantVariants(
          serviceContext(c),
          listQueryOf(c, RESTAURANT_VARIANT_LIST),
          c.req.valid("param").restaurant_id,
        ),
      ),
    })),
  )
  .openapi(providersRoute, async (c) => {
    const data = await cachedData(c, "providers", () => loadProviderData(serviceContext(c)));
    return c.json(channelProviders(data, c.req.valid("json")), 200);
  });
