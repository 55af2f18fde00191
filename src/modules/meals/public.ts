import { cachedData, cachedJson } from "../../core/cache";
import { serviceContext } from "../../core/context";
import { listQuerySchema } from "../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, problemResponses, publicRoute, z } from "../../core/openapi";
import { channelProviders } from "./providers";
import {
  ALLERGEN_LIST,
  BRANCH_LIST,
  getCombo,
  getProduct,
  getRestaurant,
  listAllergens,
  listBranches,
  listPlans,
  listPlanTags,
  listProductVariants,
  listRestaurantCategories,
  listRestaurants,
  listRestaurantVariants,
  listWalletCreditProducts,
  loadProviderData,
  menuDetails,
  PLAN_LIST,
  PLAN_TAG_LIST,
  PRODUCT_LIST,
  planDetails,
  RESTAURANT_CATEGORY_LIST,
  RESTAURANT_LIST,
  RESTAURANT_VARIANT_LIST,
  restaurantMenu,
} from "./reads";
import {
  AllergenListSchema,
  BranchListSchema,
  ChannelProviderSchema,
  ComboSchema,
  ListPlansSchema,
  MenuQuerySchema,
  MenuSchema,
  PlanListSchema,
  PlanQuerySchema,
  PlanSchema,
  PlanTagListSchema,
  ProductDetailsSchema,
  ProductListSchema,
  ProvidersQuerySchema,
  RestaurantCategoryListSchema,
  RestaurantListSchema,
  RestaurantSchema,
  RestaurantVariantListSchema,
} from "./schemas";

const restaurantId = idParam("restaurant_id");
const productId = idParam("product_id");
const R = "/restaurants/";
const restaurantTags = ["Restaurants"];
const planTags = ["Meal plans"];

// ---- restaurants (mounted under /api/v1); fixed paths before /restaurants/{restaurant_id}/ ----

const listRestaurantsRoute = publicRoute({
  method: "get",
  path: R,
  operationId: "listRestaurants",
  summary: "List Restaurant",
  tags: restaurantTags,
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
  tags: restaurantTags,
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
  tags: restaurantTags,
  specId: "R6",
  cached: true,
  description: "The categories (cuisines) restaurants are filed under; filter List Restaurant by `category_id`.",
  request: { query: listQuerySchema(RESTAURANT_CATEGORY_LIST) },
  responses: { 200: jsonContent(RestaurantCategoryListSchema, "A page of restaurant categories.") },
});

const allergensRoute = publicRoute({
  method: "get",
  path: `${R}allergens-dislikes/`,
  operationId: "listAllergensDislikes",
  summary: "Allergen Dislikes List",
  tags: restaurantTags,
  specId: "R10",
  cached: true,
  description:
    "Allergens and dislikes a customer can declare; products name theirs in `allergies` and `allergens_dislikes`.",
  request: { query: listQuerySchema(ALLERGEN_LIST) },
  responses: { 200: jsonContent(AllergenListSchema, "A page of allergens and dislikes.") },
});

const walletCreditRoute = publicRoute({
  method: "get",
  path: `${R}wallet-credit-products/`,
  operationId: "listWalletCreditProducts",
  summary: "Wallet Credit Products",
  tags: restaurantTags,
  specId: "R9",
  cached: true,
  description: "Products that sell store credit (`wallet_credit`).",
  request: { query: listQuerySchema(PRODUCT_LIST) },
  responses: { 200: jsonContent(ProductListSchema, "A page of wallet credit products.") },
});

const productRoute = publicRoute({
  method: "get",
  path: `${R}products/{product_id}/`,
  operationId: "getProduct",
  summary: "Product Details",
  tags: restaurantTags,
  specId: "R7",
  cached: true,
  description: "One active product with its nutrition facts.",
  request: { params: productId },
  responses: { 200: jsonContent(ProductDetailsSchema, "The product."), ...problemResponses(404) },
});

const productVariantsRoute = publicRoute({
  method: "get",
  path: `${R}products/{product_id}/variants/`,
  operationId: "listProductVariants",
  summary: "Product Variants List",
  tags: restaurantTags,
  specId: "R11",
  cached: true,
  description: "The restaurant variants (diets) the product belongs to.",
  request: { params: productId, query: listQuerySchema(RESTAURANT_VARIANT_LIST) },
  responses: { 200: jsonContent(RestaurantVariantListSchema, "A page of variants."), ...problemResponses(404) },
});

const comboRoute = publicRoute({
  method: "get",
  path: `${R}combos/{combo_id}/`,
  operationId: "getCombo",
  summary: "Combo Details",
  tags: restaurantTags,
  specId: "R8",
  cached: true,
  description: "One active combo with its products.",
  request: { params: idParam("combo_id") },
  responses: { 200: jsonContent(ComboSchema, "The combo."), ...problemResponses(404) },
});

const restaurantMenuRoute = publicRoute({
  method: "get",
  path: `${R}menus/{restaurant_id}/`,
  operationId: "getRestaurantMenu",
  summary: "Restaurant Menu",
  tags: restaurantTags,
  specId: "R1",
  cached: true,
  description:
    "The restaurant's on-demand menu for one order date: its active categories, with the active products served that weekday (a product's `off_days` leave it out) and the combos whose products are all served. `order_date` defaults to the first date the restaurant takes orders for: today where it is, plus `start_after` days, skipping its off days and closed dates. A date in the past, before that, more than 90 days ahead or on a closed day is a 400 naming the first good date.",
  request: { params: restaurantId, query: MenuQuerySchema },
  responses: {
    200: jsonContent(MenuSchema, "The menu for `order_date`."),
    ...problemResponses(404, 409),
  },
});

const restaurantRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/`,
  operationId: "getRestaurant",
  summary: "Restaurant Details",
  tags: restaurantTags,
  specId: "R2",
  cached: true,
  description:
    "One active restaurant, with its main branch's location. An unknown id, another store's or an inactive restaurant is a 404.",
  request: { params: restaurantId },
  responses: { 200: jsonContent(RestaurantSchema, "The restaurant."), ...problemResponses(404) },
});

const branchesRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/branches/`,
  operationId: "listRestaurantBranches",
  summary: "List Restaurant Branch",
  tags: restaurantTags,
  specId: "R4",
  cached: true,
  description: "The restaurant's branches, with their locations and pickup and delivery settings.",
  request: { params: restaurantId, query: listQuerySchema(BRANCH_LIST) },
  responses: { 200: jsonContent(BranchListSchema, "A page of branches."), ...problemResponses(404) },
});

const restaurantVariantsRoute = publicRoute({
  method: "get",
  path: `${R}{restaurant_id}/variants/`,
  operationId: "listRestaurantVariants",
  summary: "Restaurant Variants List",
  tags: restaurantTags,
  specId: "R12",
  cached: true,
  description: "The variants (diets such as keto or low carb) the restaurant offers.",
  request: { params: restaurantId, query: listQuerySchema(RESTAURANT_VARIANT_LIST) },
  responses: { 200: jsonContent(RestaurantVariantListSchema, "A page of variants."), ...problemResponses(404) },
});

const providersRoute = publicRoute({
  method: "post",
  path: "/sales-channels/providers/",
  operationId: "listChannelProviders",
  summary: "List Channel Providers",
  tags: ["Sales channels"],
  specId: "S1",
  description:
    "The store's active restaurants as providers of a sales channel, each with `is_available_for_user`: true when it delivers to the user's point (inside one of its delivery zones, or within a branch's delivery radius), or has a pickup branch in the user's city. Give `lat` and `lng` together, `city_id`, or both; `city_id` narrows zones and branches to that city. With `debug`, each provider says why. Not paginated: a store has few providers. The providers' data is cached at the edge; availability is computed per request.",
  request: { body: jsonBody(ProvidersQuerySchema) },
  responses: {
    200: jsonContent(
      z.array(ChannelProviderSchema).openapi("ChannelProviderList"),
      "The providers, in their `ordering`.",
    ),
    ...problemResponses(413, 415),
  },
});

export const restaurantsPublicRouter = createRouter()
  .openapi(listRestaurantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: await listRestaurants(serviceContext(c), new URL(c.req.url), { onDemand: false }),
    })),
  )
  .openapi(onDemandRestaurantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: await listRestaurants(serviceContext(c), new URL(c.req.url), { onDemand: true }),
    })),
  )
  .openapi(restaurantCategoriesRoute, (c) =>
    cachedJson(c, async () => ({ body: await listRestaurantCategories(serviceContext(c), new URL(c.req.url)) })),
  )
  .openapi(allergensRoute, (c) =>
    cachedJson(c, async () => ({ body: await listAllergens(serviceContext(c), new URL(c.req.url)) })),
  )
  .openapi(walletCreditRoute, (c) =>
    cachedJson(c, async () => ({ body: await listWalletCreditProducts(serviceContext(c), new URL(c.req.url)) })),
  )
  .openapi(productRoute, (c) =>
    cachedJson(c, async () => ({ body: await getProduct(serviceContext(c), c.req.valid("param").product_id) })),
  )
  .openapi(productVariantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: await listProductVariants(serviceContext(c), new URL(c.req.url), c.req.valid("param").product_id),
    })),
  )
  .openapi(comboRoute, (c) =>
    cachedJson(c, async () => ({ body: await getCombo(serviceContext(c), c.req.valid("param").combo_id) })),
  )
  .openapi(restaurantMenuRoute, (c) =>
    cachedJson(c, () =>
      restaurantMenu(serviceContext(c), c.req.valid("param").restaurant_id, c.req.valid("query").order_date),
    ),
  )
  .openapi(restaurantRoute, (c) =>
    cachedJson(c, async () => ({ body: await getRestaurant(serviceContext(c), c.req.valid("param").restaurant_id) })),
  )
  .openapi(branchesRoute, (c) =>
    cachedJson(c, async () => ({
      body: await listBranches(serviceContext(c), new URL(c.req.url), c.req.valid("param").restaurant_id),
    })),
  )
  .openapi(restaurantVariantsRoute, (c) =>
    cachedJson(c, async () => ({
      body: await listRestaurantVariants(serviceContext(c), new URL(c.req.url), c.req.valid("param").restaurant_id),
    })),
  )
  .openapi(providersRoute, async (c) => {
    const data = await cachedData(c, "providers", () => loadProviderData(serviceContext(c)));
    return c.json(channelProviders(data, c.req.valid("json")), 200);
  });

// ---- plans and menus (mounted under /public-api/v1) ----

const planTagsRoute = publicRoute({
  method: "get",
  path: "/plans/tags/",
  operationId: "listPlanTags",
  summary: "List Plan Tags",
  tags: planTags,
  specId: "P2",
  cached: true,
  description: "The tags plans carry; filter List Plans by `tag_ids`.",
  request: { query: listQuerySchema(PLAN_TAG_LIST) },
  responses: { 200: jsonContent(PlanTagListSchema, "A page of plan tags.") },
});

const listPlansRoute = publicRoute({
  method: "post",
  path: "/plans/",
  operationId: "listPlans",
  summary: "List Plans",
  tags: planTags,
  specId: "P3",
  description:
    "Active plans matching the filters of the body (all optional; an empty object lists every plan). `page`, `page_size` and `order_by` go in the query, as on every list; `next` and `previous` are to be POSTed with the same body.",
  request: { query: listQuerySchema(PLAN_LIST), body: jsonBody(ListPlansSchema) },
  responses: {
    200: jsonContent(PlanListSchema, "A page of plans, without dates and masters (see Plan Details)."),
    ...problemResponses(413, 415),
  },
});

const planDetailsRoute = publicRoute({
  method: "get",
  path: "/plans/{plan_id}/",
  operationId: "getPlan",
  summary: "Plan Details",
  tags: planTags,
  specId: "P1",
  cached: true,
  description:
    "Marked Developing: may change. The plan with its tags, size, versions, restaurant, delivery `dates` and masters (days of the menu cycle, with their plan categories, options, products and nutritions). `plan_version_id` defaults to the plan's first version; a version of another plan is a 400. `start_date` defaults to the earliest the version allows: today where the restaurant is plus the plan's `start_after`, not before `min_start_date`, moved to the first delivery day. A start date before that, after `max_start_date` or on an off day is a 400 naming the first good one. `dates` are `num_of_days` delivery days from `start_date`, skipping the version's and the restaurant's off days and the restaurant's closed dates; the n-th (from 0) is served by the master whose `repetition_counter` is n % `repetition` + 1. 409 when the plan has no version, or the version's last start date has passed.",
  request: { params: idParam("plan_id"), query: PlanQuerySchema },
  responses: { 200: jsonContent(PlanSchema, "The meal plan."), ...problemResponses(404, 409) },
});

const menuDetailsRoute = publicRoute({
  method: "get",
  path: "/menus/{menu_id}/",
  operationId: "getMenu",
  summary: "Menu Details",
  tags: planTags,
  specId: "P4",
  cached: true,
  description:
    "A menu (a plan's `menu_id`, or a restaurant's `menu`) with all its active categories, products and combos, for any date (`order_date` null).",
  request: { params: idParam("menu_id") },
  responses: { 200: jsonContent(MenuSchema, "The menu."), ...problemResponses(404) },
});

export const plansPublicRouter = createRouter()
  .openapi(planTagsRoute, (c) =>
    cachedJson(c, async () => ({ body: await listPlanTags(serviceContext(c), new URL(c.req.url)) })),
  )
  .openapi(listPlansRoute, async (c) =>
    c.json(await listPlans(serviceContext(c), new URL(c.req.url), c.req.valid("json")), 200),
  )
  .openapi(planDetailsRoute, (c) =>
    cachedJson(c, () => planDetails(serviceContext(c), c.req.valid("param").plan_id, c.req.valid("query"))),
  )
  .openapi(menuDetailsRoute, (c) =>
    cachedJson(c, async () => ({ body: await menuDetails(serviceContext(c), c.req.valid("param").menu_id) })),
  );
