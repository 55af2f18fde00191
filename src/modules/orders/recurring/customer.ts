import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { RecurringPurchaseDetailsSchema, RecurringPurchaseListSchema } from "./schemas";
import {
  deactivateRecurringPurchase,
  listRecurringPurchases,
  RECURRING_LIST,
  recurringPurchaseDetails,
} from "./service";

const tags = ["Customer app: orders"];
const param = idParam("recurring_purchase_id");

export const listMyRecurringPurchasesRoute = customerRoute({
  tags,
  specId: "CA11",
  method: "get",
  path: "/recurring-purchases/",
  operationId: "listMyRecurringPurchases",
  summary: "List Recurring Purchases",
  description:
    "The customer's own recurring purchases, newest first, with the same fields and filters as the merchant's list.",
  request: { query: listQuerySchema(RECURRING_LIST) },
  responses: { 200: jsonContent(RecurringPurchaseListSchema, "A page of the customer's recurring purchases.") },
});

export const getMyRecurringPurchaseRoute = customerRoute({
  tags,
  specId: "CA11",
  method: "get",
  path: "/recurring-purchases/{recurring_purchase_id}/",
  operationId: "getMyRecurringPurchase",
  summary: "Recurring Purchase Details",
  description:
    "One of the customer's recurring purchases (another customer's is a 404): its cart's lines priced now, " +
    "`charge_history` and `orders`.",
  request: { params: param },
  errors: { 404: ["recurring_purchase_not_found"] },
  responses: { 200: jsonContent(RecurringPurchaseDetailsSchema, "The recurring purchase.") },
});

export const deactivateMyRecurringPurchaseRoute = customerRoute({
  tags,
  beyondSpec:
    "The customer stops their own recurring purchase, as the merchant's PATCH does; an action sub-resource " +
    "(design-reference 1.3) so that it is idempotent.",
  method: "post",
  path: "/recurring-purchases/{recurring_purchase_id}/deactivate/",
  operationId: "deactivateMyRecurringPurchase",
  summary: "Deactivate Recurring Purchase",
  description:
    "Stops one of the customer's recurring purchases: no further cycle is ordered. Stopping an inactive one " +
    "answers it as it is (nothing changes, no event). Emits `recurring_purchase.updated`.",
  request: { params: param },
  errors: { 404: ["recurring_purchase_not_found"], 409: ["concurrent_update"] },
  responses: { 200: jsonContent(RecurringPurchaseDetailsSchema, "The recurring purchase, inactive.") },
});

/** CA11: the customer's recurring purchases. */
export const recurringCustomerRouter = createRouter();
recurringCustomerRouter.openapi(listMyRecurringPurchasesRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listRecurringPurchases(serviceContext(c), listQueryOf(c, RECURRING_LIST), customerOf(c).customerId),
    ),
    200,
  ),
);
recurringCustomerRouter.openapi(getMyRecurringPurchaseRoute, async (c) =>
  c.json(
    await recurringPurchaseDetails(
      serviceContext(c),
      c.req.valid("param").recurring_purchase_id,
      customerOf(c).customerId,
    ),
    200,
  ),
);
recurringCustomerRouter.openapi(deactivateMyRecurringPurchaseRoute, async (c) =>
  c.json(
    await deactivateRecurringPurchase(serviceContext(c), c.req.valid("param").recurring_purchase_id, {
      by: "customer",
      customerId: customerOf(c).customerId,
      alreadyDone: "ok",
    }),
    200,
  ),
);
