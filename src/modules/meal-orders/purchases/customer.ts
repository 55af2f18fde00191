import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { HasPurchasedPlanBodySchema, HasPurchasedPlanSchema } from "./schemas";
import { hasPurchasedPlan } from "./service";

/** Has Purchased Plan (MM4), mounted under /api/v3 with the other Plans v3 operations. */

const hasPurchasedRoute = customerRoute({
  method: "post",
  path: "/plans/has-purchased/",
  operationId: "hasPurchasedPlan",
  summary: "Has Purchased Plan",
  tags: ["Meals catalogue: plans"],
  specId: "MM4",
  errors: { 404: ["plan_not_found"] },
  description:
    "Whether this customer has bought the plan: a paid meal subscription of it, whatever its status now " +
    "(an unpaid, `pending` one does not count). A read: it changes nothing. A plan of another store is a 404.",
  request: { body: jsonBody(HasPurchasedPlanBodySchema) },
  responses: { 200: jsonContent(HasPurchasedPlanSchema, "Whether the customer bought the plan.") },
});

export const planPurchasesCustomerRouter = createRouter().openapi(hasPurchasedRoute, async (c) =>
  c.json(await hasPurchasedPlan(serviceContext(c), customerOf(c).customerId, c.req.valid("json").plan_id), 200),
);
