import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import { CheckoutResultSchema, linksOf } from "../../orders";
import { RenewMealSubscriptionSchema, renewMealSubscription } from "./renew";
import { MealOrderListSchema, MealOrderSchema } from "./schemas";
import { listMyMealOrders, MEAL_ORDER_LIST, myMealOrder } from "./service";

const orderId = idParam("order_id");

export const listMyMealOrdersRoute = customerRoute({
  tags: ["Meals: checkout"],
  specId: "MM5",
  method: "get",
  path: "/orders/",
  operationId: "listMyMealOrders",
  summary: "List orders",
  description:
    "The customer's own meal orders (subscriptions, renewals, add-ons), newest first: the order's status, payment " +
    "and money with the plan, subscription, dates, delivery or pickup they bought.",
  request: { query: listQuerySchema(MEAL_ORDER_LIST) },
  responses: { 200: jsonContent(MealOrderListSchema, "A page of the customer's meal orders.") },
});

export const getMyMealOrderRoute = customerRoute({
  tags: ["Meals: checkout"],
  specId: "MM5",
  method: "get",
  path: "/orders/{order_id}/",
  operationId: "getMyMealOrder",
  summary: "Order Details",
  description: "One of the customer's meal orders, by the order's id (another customer's or store's is a 404).",
  request: { params: orderId },
  errors: { 404: ["meal_order_not_found"] },
  responses: { 200: jsonContent(MealOrderSchema, "The meal order.") },
});

export const renewMealSubscriptionRoute = customerRoute({
  tags: ["Meals: subscriptions"],
  specId: "MM1",
  method: "post",
  path: "/subscriptions/{subscription_id}/renew/",
  operationId: "renewMealSubscription",
  summary: "Renew Subscription",
  idempotent: true,
  description:
    "Places the next term of an active, paused or completed subscription of the customer's: an order (type " +
    "`renewal`) of the same plan version, from the first date the version allows after the subscription's " +
    "`end_date` (its notice, off days and closed dates respected), with the same window or pickup branch, " +
    "location, and the meals last chosen for each day of the menu cycle. Answers the checkout result. When it is " +
    "paid, a new subscription starts (`renewed_from_id` names this one; `meal_subscription.created`, " +
    "`.activated`, and `.renewed` on this one). One renewal at a time: 409 `subscription_already_renewed`.",
  request: { params: idParam("subscription_id"), body: jsonBody(RenewMealSubscriptionSchema) },
  errors: {
    404: ["meal_subscription_not_found"],
    409: [
      "meal_subscription_not_active",
      "subscription_already_renewed",
      "plan_version_closed",
      "insufficient_balance",
      "below_minimum_order",
      "payment_provider_disabled",
      "voucher_usage_limit_reached",
      "concurrent_update",
    ],
  },
  responses: { 201: jsonContent(CheckoutResultSchema, "The checkout result with the renewal order.") },
});

export const mealOrdersCustomerRoutes = createRouter();
mealOrdersCustomerRoutes.openapi(listMyMealOrdersRoute, async (c) =>
  c.json(
    envelopeOf(
      c,
      await listMyMealOrders(serviceContext(c), customerOf(c).customerId, listQueryOf(c, MEAL_ORDER_LIST), linksOf(c)),
    ),
    200,
  ),
);
mealOrdersCustomerRoutes.openapi(getMyMealOrderRoute, async (c) =>
  c.json(
    await myMealOrder(serviceContext(c), customerOf(c).customerId, c.req.valid("param").order_id, linksOf(c)),
    200,
  ),
);
mealOrdersCustomerRoutes.openapi(renewMealSubscriptionRoute, async (c) =>
  c.json(
    await renewMealSubscription(
      serviceContext(c),
      customerOf(c).customerId,
      c.req.valid("param").subscription_id,
      c.req.valid("json"),
      linksOf(c),
    ),
    201,
  ),
);
