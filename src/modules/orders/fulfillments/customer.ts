import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { FulfillmentListSchema, FulfillmentSchema, UpdateMyFulfillmentSchema } from "./schemas";
import { FULFILLMENT_LIST, fulfillmentDetails, listFulfillments } from "./service";
import { updateFulfillment } from "./update";

const tags = ["Customer app: orders"];
const param = idParam("fulfillment_id");

export const listMyFulfillmentsRoute = customerRoute({
  tags,
  specId: "CA12",
  method: "get",
  path: "/fulfillments/",
  operationId: "listMyFulfillments",
  summary: "List Fulfillments",
  description:
    "The customer's own fulfillments (one per paid order line to deliver, hand over or perform), newest first, " +
    "with the merchant list's filters. Tickets are not listed here.",
  request: { query: listQuerySchema(FULFILLMENT_LIST) },
  responses: { 200: jsonContent(FulfillmentListSchema, "A page of the customer's fulfillments.") },
});

export const getMyFulfillmentRoute = customerRoute({
  tags,
  specId: "CA12",
  method: "get",
  path: "/fulfillments/{fulfillment_id}/",
  operationId: "getMyFulfillment",
  summary: "Fulfillment Details",
  description: "One of the customer's fulfillments (another customer's is a 404).",
  request: { params: param },
  errors: { 404: ["fulfillment_not_found"] },
  responses: { 200: jsonContent(FulfillmentSchema, "The fulfillment.") },
});

export const updateMyFulfillmentRoute = customerRoute({
  tags,
  specId: "CA12",
  method: "patch",
  path: "/fulfillments/{fulfillment_id}/",
  operationId: "updateMyFulfillment",
  summary: "Update Fulfillment Details",
  description:
    "The customer reschedules one of their fulfillments (`date`, `time`), sends it to another of their own " +
    "locations (`location_id`, copied) or changes its `notes`, while it is pending or processing; once shipped, " +
    "delivered or cancelled it is a 409 `fulfillment_locked`. Emits `fulfillment.updated`.",
  request: { params: param, body: jsonBody(UpdateMyFulfillmentSchema) },
  errors: {
    404: ["fulfillment_not_found", "customer_location_not_found"],
    409: ["fulfillment_locked", "concurrent_update"],
  },
  responses: { 200: jsonContent(FulfillmentSchema, "The fulfillment after the change.") },
});

/** CA12: the customer's fulfillments. */
export const fulfillmentsCustomerRouter = createRouter();
fulfillmentsCustomerRouter.openapi(listMyFulfillmentsRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listFulfillments(serviceContext(c), listQueryOf(c, FULFILLMENT_LIST), customerOf(c).customerId),
    ),
    200,
  ),
);
fulfillmentsCustomerRouter.openapi(getMyFulfillmentRoute, async (c) =>
  c.json(
    await fulfillmentDetails(serviceContext(c), c.req.valid("param").fulfillment_id, customerOf(c).customerId),
    200,
  ),
);
fulfillmentsCustomerRouter.openapi(updateMyFulfillmentRoute, async (c) =>
  c.json(
    await updateFulfillment(
      serviceContext(c),
      c.req.valid("param").fulfillment_id,
      c.req.valid("json"),
      customerOf(c).customerId,
    ),
    200,
  ),
);
