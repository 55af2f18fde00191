import { cachedJson } from "../../../core/cache";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { publicRoute } from "../../../core/routes";
import { planDetails } from "./details";
import { ListPlansSchema, PlanListSchema, PlanQuerySchema, PlanSchema, PlanTagListSchema } from "./schemas";
import { listPlans, PLAN_LIST } from "./service";
import { listPlanTags, PLAN_TAG_LIST } from "./tags";

/** The public reads of plans (mounted under /public-api/v1); /plans/tags/ comes before /plans/{plan_id}/. */

const tags = ["Meals catalogue: plans"];

const planTagsRoute = publicRoute({
  method: "get",
  path: "/plans/tags/",
  operationId: "listPlanTags",
  summary: "List Plan Tags",
  tags,
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
  tags,
  specId: "P3",
  description:
    "Active plans matching the filters of the body (all optional; an empty object lists every " +
    "plan). `page`, `page_size` and `order_by` go in the query, as on every list; `next` and " +
    "`previous` are to be POSTed with the same body.",
  request: { query: listQuerySchema(PLAN_LIST), body: jsonBody(ListPlansSchema) },
  responses: {
    200: jsonContent(PlanListSchema, "A page of plans, without dates and masters (see Plan Details)."),
  },
});

const planDetailsRoute = publicRoute({
  method: "get",
  path: "/plans/{plan_id}/",
  operationId: "getPlan",
  summary: "Plan Details",
  tags,
  specId: "P1",
  cached: true,
  errors: { 404: ["plan_not_found"], 409: ["plan_has_no_versions", "plan_version_closed"] },
  description:
    "Marked Developing: may change. The plan with its tags, size, versions, restaurant, " +
    "delivery `dates` and masters (days of the menu cycle, with their plan categories, " +
    "options, products and nutritions). `plan_version_id` defaults to the plan's first " +
    "version; a version of another plan is a 400. `start_date` defaults to the earliest the " +
    "version allows, the first date Place Order accepts: today where the restaurant is plus the " +
    "larger of the plan's and the restaurant's `start_after`, not before `min_start_date`, moved " +
    "to the first delivery day. A start date before that, after " +
    "`max_start_date` or on an off day is a 400 naming the first good one. `dates` are " +
    "`num_of_days` delivery days from `start_date`, skipping the version's and the " +
    "restaurant's off days and the restaurant's closed dates; the n-th (from 0) is served by " +
    "the master whose `repetition_counter` is n % `repetition` + 1. 409 when the plan has no " +
    "version, or the version's last start date has passed.",
  request: { params: idParam("plan_id"), query: PlanQuerySchema },
  responses: { 200: jsonContent(PlanSchema, "The meal plan.") },
});

export const plansRouter = createRouter()
  .openapi(planTagsRoute, (c) =>
    cachedJson(c, async () => ({
      body: envelopeOf(c, await listPlanTags(serviceContext(c), listQueryOf(c, PLAN_TAG_LIST))),
    })),
  )
  .openapi(listPlansRoute, async (c) =>
    c.json(envelopeOf(c, await listPlans(serviceContext(c), listQueryOf(c, PLAN_LIST), c.req.valid("json"))), 200),
  )
  .openapi(planDetailsRoute, (c) =>
    cachedJson(c, async () => {
      const { plan, validUntil } = await planDetails(
        serviceContext(c),
        c.req.valid("param").plan_id,
        c.req.valid("query"),
      );
      return { body: plan, until: validUntil };
    }),
  );
