import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { MenuOptionCategoryListSchema } from "../menus-app/schemas";
import { OPTION_CATEGORY_LIST } from "../menus-app/service";
import { PlanListSchema, PlanQuerySchema, PlanTagListSchema } from "../plans/schemas";
import { listPlans, PLAN_LIST } from "../plans/service";
import { listPlanTags } from "../plans/tags";
import { planDate } from "./dates";
import { PlanDateParams, PlanDateSchema, SuperPlanListSchema, SuperPlanSchema } from "./schemas";
import {
  FEATURED_PLAN_TAG_LIST,
  getSuperPlan,
  listFeaturedPlanTags,
  listPlanMenuCategories,
  listSuperPlans,
  PLAN_TAG_LIST,
  SUPER_PLAN_LIST,
} from "./service";

/**
 * Plans v3 (MM4), mounted under /api/v3: public reads, cached at the edge. The fixed paths under
 * /plans/ come before /plans/{plan_id}/…, which would take them.
 */

const tags = ["Meals catalogue: plans"];
const P = "/plans/";
const planId = idParam("plan_id");

const planTagsRoute = publicRoute({
  method: "get",
  path: `${P}tags/`,
  operationId: "listPlanTagsV3",
  summary: "Plan Tag",
  tags,
  specId: "MM4",
  cached: true,
  description: "The store's plan tags (the same list as `/public-api/v1/plans/tags/`).",
  request: { query: listQuerySchema(PLAN_TAG_LIST) },
  responses: { 200: jsonContent(PlanTagListSchema, "A page of plan tags.") },
});

const featuredTagsRoute = publicRoute({
  method: "get",
  path: `${P}featured-tags/`,
  operationId: "listFeaturedPlanTags",
  summary: "List Feature Plan Tags",
  tags,
  specId: "MM4",
  cached: true,
  description: "The tags that the store's featured plans carry (`is_featured`, active, of an active restaurant).",
  request: { query: listQuerySchema(FEATURED_PLAN_TAG_LIST) },
  responses: { 200: jsonContent(PlanTagListSchema, "A page of plan tags.") },
});

const featuredPlansRoute = publicRoute({
  method: "get",
  path: `${P}featured/`,
  operationId: "listFeaturedPlans",
  summary: "List Featured Plans",
  tags,
  specId: "MM4",
  cached: true,
  description: "The store's featured plans (`is_featured`), as List Plans shows a plan.",
  request: { query: listQuerySchema(PLAN_LIST) },
  responses: { 200: jsonContent(PlanListSchema, "A page of featured plans.") },
});

const superPlansRoute = publicRoute({
  method: "get",
  path: `${P}super-plans/`,
  operationId: "listSuperPlans",
  summary: "List Super Plans",
  tags,
  specId: "MM4",
  cached: true,
  description:
    "The store's plans as an order shows them: each with its tags, versions and the `restaurants` that cook " +
    "it (pickup and delivery, closed dates, off days, time zone). Filter by `restaurant_id`, " +
    "`subscription_type`, `is_featured`, `gender`; search the names and subtitles.",
  request: { query: listQuerySchema(SUPER_PLAN_LIST) },
  responses: { 200: jsonContent(SuperPlanListSchema, "A page of super plans.") },
});

const superPlanRoute = publicRoute({
  method: "get",
  path: `${P}super-plans/{plan_id}/`,
  operationId: "getSuperPlan",
  summary: "Super Plan Details",
  tags,
  specId: "MM4",
  cached: true,
  errors: { 404: ["plan_not_found"] },
  description: "One plan in the super plan shape (see List Super Plans).",
  request: { params: planId },
  responses: { 200: jsonContent(SuperPlanSchema, "The super plan.") },
});

const planDateRoute = publicRoute({
  method: "get",
  path: `${P}{plan_id}/dates/{date}/`,
  operationId: "getPlanDate",
  summary: "Plan Date Details",
  tags,
  specId: "MM4",
  cached: true,
  errors: {
    404: ["plan_not_found"],
    409: ["plan_has_no_versions", "plan_version_closed", "plan_date_not_served"],
  },
  description:
    "What the plan serves on `date`: the day of its menu cycle (master) with its categories, options and " +
    "products. The delivery dates are Plan Details' for the same `plan_version_id` and `start_date` (both " +
    "optional, with the same defaults and 400s): `num_of_days` dates from the start, skipping the version's " +
    "and the restaurant's off days and its closed dates, counted where the restaurant is; the n-th (from 0) is " +
    "served by the day whose `repetition_counter` is n % `repetition` + 1. A date that is not among them is a " +
    "409 `plan_date_not_served` whose `reason` is `before_start`, `after_end` or `not_a_delivery_day`, with " +
    "`first_valid_date` (the next delivery date, or null).",
  request: { params: PlanDateParams, query: PlanQuerySchema },
  responses: { 200: jsonContent(PlanDateSchema, "The plan's menu on that date.") },
});

const menuCategoriesRoute = publicRoute({
  method: "get",
  path: `${P}{plan_id}/menu-categories/`,
  operationId: "listPlanMenuCategories",
  summary: "Plan Menu Categories",
  tags,
  specId: "MM4",
  cached: true,
  errors: { 404: ["plan_not_found", "menu_not_found"] },
  description:
    "The categories of the plan's menu (`menu_id`), each with its active products and their nutrition " +
    "facts (filter the categories by `is_sub`). The same shape as Menu Options.",
  request: { params: planId, query: listQuerySchema(OPTION_CATEGORY_LIST) },
  responses: { 200: jsonContent(MenuOptionCategoryListSchema, "A page of the menu's categories.") },
});

export const plansV3PublicRouter = createRouter()
  .openapi(planTagsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listPlanTags(serviceContext(c), listQueryOf(c, PLAN_TAG_LIST))),
    })),
  )
  .openapi(featuredTagsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listFeaturedPlanTags(serviceContext(c), listQueryOf(c, FEATURED_PLAN_TAG_LIST))),
    })),
  )
  .openapi(featuredPlansRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listPlans(serviceContext(c), listQueryOf(c, PLAN_LIST), { is_featured: true })),
    })),
  )
  .openapi(superPlansRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listSuperPlans(serviceContext(c), listQueryOf(c, SUPER_PLAN_LIST))),
    })),
  )
  .openapi(superPlanRoute, (c) =>
    cachedJson(c, async () => ({ body: await getSuperPlan(serviceContext(c), c.req.valid("param").plan_id) })),
  )
  .openapi(planDateRoute, (c) =>
    cachedJson(c, async () => {
      const { plan_id, date } = c.req.valid("param");
      const { body, validUntil } = await planDate(serviceContext(c), plan_id, date, c.req.valid("query"));
      return { body, until: validUntil };
    }),
  )
  .openapi(menuCategoriesRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(
        c,
        await listPlanMenuCategories(
          serviceContext(c),
          c.req.valid("param").plan_id,
          listQueryOf(c, OPTION_CATEGORY_LIST),
        ),
      ),
    })),
  );
