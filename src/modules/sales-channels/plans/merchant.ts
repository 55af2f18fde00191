import { serviceContext } from "../../../core/context";
import { listQueryWith, positiveId } from "../../../core/list-query-with";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent, z } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { OFFERED_PLAN_LIST } from "../../meals";
import {
  CreatePlanListingSchema,
  PlanListingListSchema,
  PlanListingSchema,
  ProviderPlanListSchema,
  UpdatePlanListingSchema,
} from "./schemas";
import {
  createPlanListing,
  deletePlanListing,
  LISTING_LIST,
  listPlanListings,
  listProviderPlans,
  updatePlanListing,
} from "./service";

const tags = ["Sales channel plans"];
const LISTINGS = "/sales-channels/meals/plan-listings/";
const LISTING = `${LISTINGS}{plan_listing_id}/`;
const param = idParam("plan_listing_id");
const PROVIDER = "provider_app_id";

const HIDDEN =
  "Listings of a provider whose connection is inactive or deleted are hidden (a 404 by id), not lost: they " +
  "show again once a connection with it is active.";

export const listProviderPlansRoute = merchantRoute({
  tags,
  specId: "MX1",
  method: "get",
  path: "/sales-channels/meals/provider-plans/",
  operationId: "listProviderPlans",
  summary: "Meals Provider Plans",
  permission: "can_read_sales_channels",
  description:
    "The plans a provider offers to channels (active, `is_marketplace_active`, of an active restaurant), with " +
    "their versions, for a channel actively connected to it; each says whether this channel lists it " +
    "(`listing_id`). Without an active connection with the provider as this store's provider: 403 " +
    "`provider_not_connected`.",
  request: {
    query: listQuerySchema(OFFERED_PLAN_LIST).extend({
      // Required here; read (and its value checked) by `listQueryWith`, with the list's own parameters.
      [PROVIDER]: z.string().openapi({
        type: "integer",
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: "The provider store (its `app-id`).",
      }),
    }),
  },
  errors: { 403: ["provider_not_connected"] },
  responses: { 200: jsonContent(ProviderPlanListSchema, "A page of the provider's plans.") },
});

export const listPlanListingsRoute = merchantRoute({
  tags,
  specId: "MX2",
  method: "get",
  path: LISTINGS,
  operationId: "listPlanListings",
  summary: "List Meals Plan Listings",
  permission: "can_read_sales_channels",
  description:
    "The provider plans this channel lists, in `ordering`, each with its provider and plan (`plan` null and " +
    `\`is_available\` false while the provider no longer offers it). ${HIDDEN}`,
  request: { query: listQuerySchema(LISTING_LIST) },
  responses: { 200: jsonContent(PlanListingListSchema, "A page of listings.") },
});

export const createPlanListingRoute = merchantRoute({
  tags,
  specId: "MX2",
  method: "post",
  path: LISTINGS,
  operationId: "createPlanListing",
  summary: "Create Meals Plan Listing",
  permission: "can_write_sales_channels",
  description:
    "Lists a provider's plan: the provider must be actively connected to this store as its provider (403 " +
    "`provider_not_connected`), and offer the plan to channels (a 400 on `plan_id` otherwise). A plan is listed " +
    "once (409 `plan_already_listed`). Emits `sales_channel.plan_listing_created`.",
  request: { body: jsonBody(CreatePlanListingSchema) },
  errors: { 403: ["provider_not_connected"], 409: ["plan_already_listed"] },
  responses: { 201: jsonContent(PlanListingSchema, "The listing.") },
});

export const updatePlanListingRoute = merchantRoute({
  tags,
  specId: "MX2",
  method: "patch",
  path: LISTING,
  operationId: "updatePlanListing",
  summary: "Update Meals Plan Listing",
  permission: "can_write_sales_channels",
  description: `Changes \`is_active\`, \`is_featured\` or \`ordering\`. ${HIDDEN} Emits \`sales_channel.plan_listing_updated\`.`,
  request: { params: param, body: jsonBody(UpdatePlanListingSchema) },
  errors: { 404: ["plan_listing_not_found"] },
  responses: { 200: jsonContent(PlanListingSchema, "The listing after the change.") },
});

export const deletePlanListingRoute = merchantRoute({
  tags,
  specId: "MX2",
  method: "delete",
  path: LISTING,
  operationId: "deletePlanListing",
  summary: "Delete Meals Plan Listing",
  permission: "can_write_sales_channels",
  description: `Stops listing the plan (a soft delete). ${HIDDEN} Emits \`sales_channel.plan_listing_deleted\`.`,
  request: { params: param },
  errors: { 404: ["plan_listing_not_found"] },
  responses: { 204: { description: "Deleted (a soft delete)." } },
});

/** MX1 and MX2: the provider plans a channel may list, and its listings. */
export const channelPlansRouter = createRouter()
  .openapi(listProviderPlansRoute, async (c) => {
    const { q, value } = listQueryWith(c, OFFERED_PLAN_LIST, PROVIDER, {
      required: true,
      parse: positiveId,
      expected: "a store id, a positive integer",
    });
    return c.json(envelopeOf(c, await listProviderPlans(c.env, serviceContext(c), value!, q)), 200);
  })
  .openapi(listPlanListingsRoute, async (c) =>
    c.json(envelopeOf(c, await listPlanListings(c.env, serviceContext(c), listQueryOf(c, LISTING_LIST))), 200),
  )
  .openapi(createPlanListingRoute, async (c) =>
    c.json(await createPlanListing(c.env, serviceContext(c), c.req.valid("json")), 201),
  )
  .openapi(updatePlanListingRoute, async (c) =>
    c.json(
      await updatePlanListing(c.env, serviceContext(c), c.req.valid("param").plan_listing_id, c.req.valid("json")),
      200,
    ),
  )
  .openapi(deletePlanListingRoute, async (c) => {
    await deletePlanListing(c.env, serviceContext(c), c.req.valid("param").plan_listing_id);
    return c.body(null, 204);
  });
