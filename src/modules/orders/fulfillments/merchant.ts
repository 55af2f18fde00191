import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import {
  FulfillmentListSchema,
  FulfillmentSchema,
  FulfillmentsOverviewSchema,
  UpdateFulfillmentSchema,
} from "./schemas";
import { FULFILLMENT_LIST, fulfillmentDetails, fulfillmentsOverview, listFulfillments } from "./service";
import { updateFulfillment } from "./update";

const tags = ["Fulfillments"];
const param = idParam("fulfillment_id");

export const fulfillmentsOverviewRoute = merchantRoute({
  tags,
  specId: "MF1",
  method: "get",
  path: "/merchant/fulfillments/overview/",
  operationId: "getFulfillmentsOverview",
  summary: "Fulfillments Overview",
  permission: "can_read_order",
  description:
    "Counts of the store's fulfillments, tickets included: by status and by type, those due today and later " +
    "(by status), the overdue ones (still open, dated before today) and each of the next 7 days. Days are the " +
    "store's calendar days (its time zone).",
  responses: { 200: jsonContent(FulfillmentsOverviewSchema, "The overview.") },
});

export const listFulfillmentsRoute = merchantRoute({
  tags,
  specId: "MF2",
  method: "get",
  path: "/merchant/fulfillments/",
  operationId: "listFulfillments",
  summary: "List Fulfillments",
  permission: "can_read_order",
  description:
    "Every fulfillment of the store, newest first: one per paid order line to deliver, hand over or perform, and " +
    "the tickets as `type: ticket` (a ticket's `id` is the ticket's: read and change it through the tickets " +
    "operations). Filters on type, status, order, item, date (`date__gte`, `date__lte`), shipment, customer.",
  request: { query: listQuerySchema(FULFILLMENT_LIST) },
  responses: { 200: jsonContent(FulfillmentListSchema, "A page of fulfillments.") },
});

export const getFulfillmentRoute = merchantRoute({
  tags,
  specId: "MF3",
  method: "get",
  path: "/merchant/fulfillments/{fulfillment_id}/",
  operationId: "getFulfillment",
  summary: "Fulfillment Details",
  permission: "can_read_order",
  description: "One fulfillment (not a ticket: those have their own operations).",
  request: { params: param },
  errors: { 404: ["fulfillment_not_found"] },
  responses: { 200: jsonContent(FulfillmentSchema, "The fulfillment.") },
});

export const updateFulfillmentRoute = merchantRoute({
  tags,
  specId: "MF4",
  method: "patch",
  path: "/merchant/fulfillments/{fulfillment_id}/",
  operationId: "updateFulfillment",
  summary: "Update Fulfillment",
  permission: "can_write_order",
  description:
    "Changes a fulfillment's `status` (pending → processing → shipped → delivered; pending or processing → " +
    "cancelled; another move is a 409 `invalid_state_transition` naming the status and `allowed_actions`; the " +
    "status it already has changes nothing), `date`, `time`, `notes`, and its address (`location_id`: one of " +
    "the order's customer's locations, copied). Delivering the last open fulfillment of an order makes the " +
    "order's `fulfillment_status` `delivered` (`partially_fulfilled`, `fulfilled` as lines ship). Emits " +
    "`fulfillment.updated` and `fulfillment.status_changed`. A fulfillment in a shipment not yet picked up " +
    "cannot be cancelled: 409 `fulfillment_in_shipment` with its `shipment_id` (cancel the shipment first).",
  request: { params: param, body: jsonBody(UpdateFulfillmentSchema) },
  errors: {
    404: ["fulfillment_not_found", "customer_location_not_found"],
    409: ["invalid_state_transition", "fulfillment_in_shipment", "concurrent_update"],
  },
  responses: { 200: jsonContent(FulfillmentSchema, "The fulfillment after the change.") },
});

/** MF1–MF4: the merchant's fulfillments (the overview before `{fulfillment_id}/`). */
export const fulfillmentsMerchantRouter = createRouter();
fulfillmentsMerchantRouter.openapi(fulfillmentsOverviewRoute, async (c) =>
  c.json(await fulfillmentsOverview(serviceContext(c)), 200),
);
fulfillmentsMerchantRouter.openapi(listFulfillmentsRoute, async (c) =>
  c.json(envelopeOf(c, await listFulfillments(serviceContext(c), listQueryOf(c, FULFILLMENT_LIST))), 200),
);
fulfillmentsMerchantRouter.openapi(getFulfillmentRoute, async (c) =>
  c.json(await fulfillmentDetails(serviceContext(c), c.req.valid("param").fulfillment_id), 200),
);
fulfillmentsMerchantRouter.openapi(updateFulfillmentRoute, async (c) =>
  c.json(await updateFulfillment(serviceContext(c), c.req.valid("param").fulfillment_id, c.req.valid("json")), 200),
);
