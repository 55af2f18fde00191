import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { cancelAutoRenewal } from "./actions";
import { SubscriptionListSchema, SubscriptionSchema } from "./schemas";
import { listMySubscriptions, mySubscriptionAnswer, mySubscriptionDetails, SUBSCRIPTION_LIST } from "./service";

const tags = ["Customer app: subscriptions"];
const param = idParam("subscription_id");

export const listMySubscriptionsRoute = customerRoute({
  tags,
  specId: "U1",
  method: "get",
  path: "/subscriptions/",
  operationId: "listMySubscriptions",
  summary: "List Subscriptions",
  description: "The customer's own subscriptions, newest first, filterable on the subscription's fields.",
  request: { query: listQuerySchema(SUBSCRIPTION_LIST) },
  responses: { 200: jsonContent(SubscriptionListSchema, "A page of the customer's subscriptions.") },
});

export const getMySubscriptionRoute = customerRoute({
  tags,
  specId: "U2",
  method: "get",
  path: "/subscriptions/{subscription_id}/",
  operationId: "getMySubscription",
  summary: "Subscription Details",
  description:
    "One of the customer's subscriptions (another customer's is a 404), with its invoices and `next_invoice`.",
  request: { params: param },
  errors: { 404: ["subscription_not_found"] },
  responses: { 200: jsonContent(SubscriptionSchema, "The subscription.") },
});

export const cancelMyAutoRenewalRoute = customerRoute({
  tags,
  specId: "U3",
  method: "post",
  path: "/subscriptions/{subscription_id}/cancel-auto-renewal/",
  operationId: "cancelMySubscriptionAutoRenewal",
  summary: "Cancel Subscription Auto Renewal",
  description:
    "Turns auto-renewal off: the subscription runs to the end of its period, then expires. Idempotent: again is " +
    "200 with no change. Emits `subscription.auto_renewal_cancelled`.",
  request: { params: param },
  errors: { 404: ["subscription_not_found"], 409: ["invalid_state_transition", "concurrent_update"] },
  responses: { 200: jsonContent(SubscriptionSchema, "The subscription.") },
});

/** U1-U3: the customer's own subscriptions. */
export const subscriptionsCustomerRouter = createRouter();
subscriptionsCustomerRouter.openapi(listMySubscriptionsRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listMySubscriptions(serviceContext(c), listQueryOf(c, SUBSCRIPTION_LIST), customerOf(c).customerId),
    ),
    200,
  ),
);
subscriptionsCustomerRouter.openapi(getMySubscriptionRoute, async (c) =>
  c.json(
    await mySubscriptionDetails(serviceContext(c), c.req.valid("param").subscription_id, customerOf(c).customerId),
    200,
  ),
);
subscriptionsCustomerRouter.openapi(cancelMyAutoRenewalRoute, async (c) => {
  const ctx = serviceContext(c);
  const id = c.req.valid("param").subscription_id;
  const customerId = customerOf(c).customerId;
  return c.json(await cancelAutoRenewal(ctx, id, mySubscriptionAnswer(ctx, id, customerId)), 200);
});
