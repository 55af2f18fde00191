import { z } from "@hono/zod-openapi";
import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { bulkResult, changeSuborder, changeSuborders } from "./changes";
import {
  BulkSuborderBranchSchema,
  BulkSuborderLocationSchema,
  BulkSuborderWindowSchema,
  ChangeSuborderLocationSchema,
  ChangeSuborderMealsSchema,
  ChangeSuborderWindowSchema,
  PreOrderSchema,
  SUBORDER_STATES,
  SuborderBulkResultSchema,
  SuborderListSchema,
  SuborderSchema,
} from "./schemas";
import { listSuborders, SUBORDER_LIST, suborderDetails, suborderListQuery } from "./service";

const tags = ["Meals: suborders"];
const base = "/suborders/";
const param = idParam("suborder_id");
const one = jsonContent(SuborderSchema, "The suborder after the change.");
const bulk = jsonContent(SuborderBulkResultSchema, "One result per id, in the order given.");
const cutoff = ["suborder_not_changeable", "suborder_past_cutoff"] as const;

export const listMySubordersRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "get",
  path: base,
  operationId: "listMySuborders",
  summary: "Customer SubOrders",
  description:
    "The customer's deliveries, by date: filter by `subscription_id`, `date__gte`/`date__lte`, `status`, and " +
    "`state=frozen` (held by a pause) or `state=postponed` (moved by the customer).",
  request: {
    query: listQuerySchema(SUBORDER_LIST).extend({
      state: z
        .enum(SUBORDER_STATES)
        .optional()
        .openapi({ description: "`frozen`: held by a pause; `postponed`: moved to a later date by the customer." }),
    }),
  },
  responses: { 200: jsonContent(SuborderListSchema, "A page of the customer's suborders.") },
});

export const getMySuborderRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "get",
  path: `${base}{suborder_id}/`,
  operationId: "getMySuborder",
  summary: "SubOrder Details",
  description: "One of the customer's suborders (another customer's is a 404).",
  request: { params: param },
  errors: { 404: ["suborder_not_found"] },
  responses: { 200: jsonContent(SuborderSchema, "The suborder.") },
});

export const changeSuborderLocationRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "patch",
  path: `${base}{suborder_id}/location/`,
  operationId: "changeSuborderLocation",
  summary: "Change SubOrder Location",
  description:
    "Sends the delivery to another of the customer's locations, which its restaurant must deliver to; only before " +
    "the cutoff (`suborder_past_cutoff` names the first date that can still be changed). Emits `suborder.updated`.",
  request: { params: param, body: jsonBody(ChangeSuborderLocationSchema) },
  errors: {
    404: ["suborder_not_found", "customer_location_not_found"],
    409: [...cutoff, "suborder_is_pickup", "location_not_served", "concurrent_update"],
  },
  responses: { 200: one },
});

export const changeSuborderMealsRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "patch",
  path: `${base}{suborder_id}/meals/`,
  operationId: "changeSuborderMeals",
  summary: "Change Meals",
  description:
    "Chooses the options of some categories of the delivery's plan day (each category's active options, at most " +
    "its `max_selected_options`); the categories not given keep their choice. Choices that do not fit the day are " +
    "a 400 naming each; only before the cutoff. Emits `suborder.updated`.",
  request: { params: param, body: jsonBody(ChangeSuborderMealsSchema) },
  errors: { 404: ["suborder_not_found"], 409: [...cutoff, "meal_selection_skipped", "concurrent_update"] },
  responses: { 200: one },
});

export const changeSuborderWindowRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "patch",
  path: `${base}{suborder_id}/delivery-window/`,
  operationId: "changeSuborderDeliveryWindow",
  summary: "Change Delivery Window",
  description:
    "Delivers in another window of the restaurant serving the delivery's location (one serving subscriptions); " +
    "only before the cutoff. Emits `suborder.updated`.",
  request: { params: param, body: jsonBody(ChangeSuborderWindowSchema) },
  errors: {
    404: ["suborder_not_found"],
    409: [...cutoff, "suborder_is_pickup", "delivery_window_not_of_restaurant", "concurrent_update"],
  },
  responses: { 200: one },
});

const bulkDescription =
  "At most 100 of the customer's suborders, each answered on its own (in the order given): one that is missing, " +
  "past the cutoff or not fit fails alone, with its code (and `first_valid_date`). One `suborder.updated` each.";

export const bulkSuborderLocationRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}bulk/location/`,
  operationId: "bulkChangeSuborderLocation",
  summary: "Bulk Change Suborder Location",
  description: `Sends deliveries to another of the customer's locations. ${bulkDescription}`,
  request: { body: jsonBody(BulkSuborderLocationSchema) },
  errors: { 404: ["customer_location_not_found"] },
  responses: { 200: bulk },
});

export const bulkSuborderWindowRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}bulk/delivery-window/`,
  operationId: "bulkChangeSuborderDeliveryWindow",
  summary: "Bulk Change Delivery Window",
  description: `Delivers in another window of each delivery's restaurant. ${bulkDescription}`,
  request: { body: jsonBody(BulkSuborderWindowSchema) },
  responses: { 200: bulk },
});

export const bulkSuborderBranchRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}bulk/pickup-branch/`,
  operationId: "bulkChangeSuborderPickupBranch",
  summary: "Bulk Change PickUp Branch",
  description: `Collects picked-up deliveries at another pickup branch of their restaurant. ${bulkDescription}`,
  request: { body: jsonBody(BulkSuborderBranchSchema) },
  responses: { 200: bulk },
});

export const preOrderRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}pre-order/`,
  operationId: "preOrderSuborderMeals",
  summary: "Pre-Order",
  description:
    "Chooses the meals of several upcoming deliveries in one call (`items`: a suborder and its choices each, as " +
    `Change Meals takes them). ${bulkDescription}`,
  request: { body: jsonBody(PreOrderSchema) },
  responses: { 200: bulk },
});

/** MM1: the customer's suborders. */
export const subordersCustomerRouter = createRouter()
  .openapi(listMySubordersRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSuborders(
          serviceContext(c),
          suborderListQuery(new URL(c.req.url).searchParams),
          customerOf(c).customerId,
        ),
      ),
      200,
    ),
  )
  .openapi(bulkSuborderLocationRoute, async (c) => {
    const { suborder_ids, location_id } = c.req.valid("json");
    const out = await changeSuborders(serviceContext(c), customerOf(c).customerId, suborder_ids, {
      kind: "location",
      location_id,
    });
    return c.json(bulkResult(out.outcomes), 200);
  })
  .openapi(bulkSuborderWindowRoute, async (c) => {
    const { suborder_ids, delivery_window_id } = c.req.valid("json");
    const out = await changeSuborders(serviceContext(c), customerOf(c).customerId, suborder_ids, {
      kind: "delivery_window",
      delivery_window_id,
    });
    return c.json(bulkResult(out.outcomes), 200);
  })
  .openapi(bulkSuborderBranchRoute, async (c) => {
    const { suborder_ids, pickup_branch_id } = c.req.valid("json");
    const out = await changeSuborders(serviceContext(c), customerOf(c).customerId, suborder_ids, {
      kind: "pickup_branch",
      pickup_branch_id,
    });
    return c.json(bulkResult(out.outcomes), 200);
  })
  .openapi(preOrderRoute, async (c) => {
    const { items } = c.req.valid("json");
    const out = await changeSuborders(
      serviceContext(c),
      customerOf(c).customerId,
      items.map((i) => i.suborder_id),
      { kind: "meals", meals: new Map(items.map((i) => [i.suborder_id, i.meals])) },
    );
    return c.json(bulkResult(out.outcomes), 200);
  })
  .openapi(getMySuborderRoute, async (c) =>
    c.json(await suborderDetails(serviceContext(c), c.req.valid("param").suborder_id, customerOf(c).customerId), 200),
  )
  .openapi(changeSuborderLocationRoute, async (c) =>
    c.json(
      await changeSuborder(serviceContext(c), customerOf(c).customerId, c.req.valid("param").suborder_id, {
        kind: "location",
        ...c.req.valid("json"),
      }),
      200,
    ),
  )
  .openapi(changeSuborderMealsRoute, async (c) => {
    const id = c.req.valid("param").suborder_id;
    return c.json(
      await changeSuborder(serviceContext(c), customerOf(c).customerId, id, {
        kind: "meals",
        meals: new Map([[id, c.req.valid("json").meals]]),
      }),
      200,
    );
  })
  .openapi(changeSuborderWindowRoute, async (c) =>
    c.json(
      await changeSuborder(serviceContext(c), customerOf(c).customerId, c.req.valid("param").suborder_id, {
        kind: "delivery_window",
        ...c.req.valid("json"),
      }),
      200,
    ),
  );
