import type { Context } from "hono";
import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { INVOICE_LIST, InvoiceListSchema, linksOf } from "../../orders";
import { cancelMealSubscription, changeSubscriptionLocation, suborderAction } from "./actions";
import { listSubscriptionInvoices, listSubscriptionOrders, SUBSCRIPTION_ORDER_LIST } from "./orders";
import {
  CancelMealSubscriptionSchema,
  ChangeLocationSchema,
  MealSubscriptionDetailsSchema,
  MealSubscriptionListSchema,
  SuborderActionSchema,
  SubscriptionOrderListSchema,
} from "./schemas";
import { listSubscriptions, SUBSCRIPTION_LIST, subscriptionDetails } from "./service";

const tags = ["Meals: subscriptions"];
const base = "/subscriptions/";
const param = idParam("subscription_id");
const notFound = { 404: ["meal_subscription_not_found" as const] };
const details = jsonContent(MealSubscriptionDetailsSchema, "The subscription after the change.");

export const listMealSubscriptionsRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "get",
  path: base,
  operationId: "listMealSubscriptions",
  summary: "List Subscriptions",
  description:
    "The customer's meal subscriptions, newest first, each with its management fields (cancel and resume bounds, " +
    "credits, `can_change_*`) computed at the provider's cutoff, and a summary of its suborders.",
  request: { query: listQuerySchema(SUBSCRIPTION_LIST) },
  responses: { 200: jsonContent(MealSubscriptionListSchema, "A page of the customer's meal subscriptions.") },
});

export const getMealSubscriptionRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "get",
  path: `${base}{subscription_id}/`,
  operationId: "getMealSubscription",
  summary: "Subscription Details",
  description:
    "One of the customer's meal subscriptions (another customer's is a 404): plan, version, restaurant, window, " +
    "location, the management fields and the next deliveries.",
  request: { params: param },
  errors: notFound,
  responses: { 200: jsonContent(MealSubscriptionDetailsSchema, "The meal subscription.") },
});

export const changeMealSubscriptionLocationRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "patch",
  path: `${base}{subscription_id}/location/`,
  operationId: "changeMealSubscriptionLocation",
  summary: "Change Subscription Location",
  description:
    "Sends every delivery still changeable (after the cutoff, and the frozen ones) to another of the customer's " +
    "locations, which the restaurant must deliver to. Emits `suborder.updated` per delivery and " +
    "`meal_subscription.updated`.",
  request: { params: param, body: jsonBody(ChangeLocationSchema) },
  errors: {
    404: ["meal_subscription_not_found", "customer_location_not_found"],
    409: [
      "invalid_state_transition",
      "suborder_is_pickup",
      "location_not_served",
      "no_open_deliveries",
      "concurrent_update",
    ],
  },
  responses: { 200: details },
});

export const mealSuborderActionsRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}{subscription_id}/suborders/actions/`,
  operationId: "mealSuborderActions",
  summary: "Postpone/Pause/Resume SubOrders",
  description:
    "`postpone` moves the deliveries on `dates` to the next free delivery dates after the last one (`end_date` " +
    "moves, `is_postponed`). `pause` freezes the deliveries from `from_date` (a changeable date), using one pause " +
    "attempt; with `to_date` the pause is bounded (at least `min_of_pause_days`, at most `pause_credits` days) and " +
    "its deliveries get new dates from the day after at once. `resume` gives the frozen deliveries the free " +
    "delivery dates from `resume_date` (within `min_resume_date`..`max_resume_date`). Each rule broken is a 409 " +
    "naming it, with `first_valid_date` (or `last_valid_date`).",
  request: { params: param, body: jsonBody(SuborderActionSchema) },
  errors: {
    ...notFound,
    409: [
      "invalid_state_transition",
      "suborder_past_cutoff",
      "no_delivery_on_date",
      "no_open_deliveries",
      "pause_attempts_exhausted",
      "pause_credits_exhausted",
      "pause_too_short",
      "pause_too_long",
      "resume_date_out_of_range",
      "concurrent_update",
    ],
  },
  responses: { 200: details },
});

export const cancelMealSubscriptionRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "post",
  path: `${base}{subscription_id}/cancel/`,
  operationId: "cancelMealSubscription",
  summary: "Cancel Subscription",
  description:
    "Cancels an active or paused subscription from `from_date` (within `min_cancel_date`..`max_cancel_date`; the " +
    "first by default): its deliveries from then (and the frozen ones) become `cancelled_by_customer` and are added " +
    "to `cancel_credits`. Emits `suborder.status_changed` per delivery and `meal_subscription.cancelled`.",
  request: { params: param, body: jsonBody(CancelMealSubscriptionSchema) },
  errors: {
    ...notFound,
    409: ["invalid_state_transition", "no_open_deliveries", "cancel_date_out_of_range", "concurrent_update"],
  },
  responses: { 200: jsonContent(MealSubscriptionDetailsSchema, "The cancelled subscription.") },
});

export const listMealSubscriptionOrdersRoute = customerRoute({
  tags,
  specId: "MM1",
  method: "get",
  path: `${base}{subscription_id}/orders/`,
  operationId: "listMealSubscriptionOrders",
  summary: "List Subscription Orders",
  description: "The meal orders of the subscription: the one that bought it, its add-on orders and its renewal.",
  request: { params: param, query: listQuerySchema(SUBSCRIPTION_ORDER_LIST) },
  errors: notFound,
  responses: { 200: jsonContent(SubscriptionOrderListSchema, "A page of the subscription's meal orders.") },
});

export const listMealSubscriptionInvoicesRoute = customerRoute({
  tags,
  specId: "MM3",
  method: "get",
  path: `${base}{subscription_id}/invoices/`,
  operationId: "listMealSubscriptionInvoices",
  summary: "List SubOrder Invoices",
  description: "The invoices of the subscription's orders (its purchase, add-ons, renewal, and their refunds).",
  request: { params: param, query: listQuerySchema(INVOICE_LIST) },
  errors: notFound,
  responses: { 200: jsonContent(InvoiceListSchema, "A page of the subscription's invoices.") },
});

/** The customer's own subscriptions. */
export const mine = (c: Context<AppEnv>) => ({ kind: "customer" as const, customerId: customerOf(c).customerId });

/** MM1 (except Renew) and MM3: the customer's meal subscriptions. */
export const subscriptionsCustomerRouter = createRouter()
  .openapi(listMealSubscriptionsRoute, async (c) =>
    c.json(envelopeOf(c, await listSubscriptions(serviceContext(c), listQueryOf(c, SUBSCRIPTION_LIST), mine(c))), 200),
  )
  .openapi(getMealSubscriptionRoute, async (c) =>
    c.json(await subscriptionDetails(serviceContext(c), c.req.valid("param").subscription_id, mine(c)), 200),
  )
  .openapi(changeMealSubscriptionLocationRoute, async (c) =>
    c.json(
      await changeSubscriptionLocation(
        serviceContext(c),
        c.req.valid("param").subscription_id,
        c.req.valid("json"),
        mine(c),
      ),
      200,
    ),
  )
  .openapi(mealSuborderActionsRoute, async (c) =>
    c.json(
      await suborderAction(serviceContext(c), c.req.valid("param").subscription_id, c.req.valid("json"), mine(c)),
      200,
    ),
  )
  .openapi(cancelMealSubscriptionRoute, async (c) =>
    c.json(
      await cancelMealSubscription(
        serviceContext(c),
        c.req.valid("param").subscription_id,
        c.req.valid("json"),
        mine(c),
      ),
      200,
    ),
  )
  .openapi(listMealSubscriptionOrdersRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSubscriptionOrders(
          serviceContext(c),
          c.req.valid("param").subscription_id,
          listQueryOf(c, SUBSCRIPTION_ORDER_LIST),
          mine(c),
          linksOf(c),
        ),
      ),
      200,
    ),
  )
  .openapi(listMealSubscriptionInvoicesRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSubscriptionInvoices(
          serviceContext(c),
          c.req.valid("param").subscription_id,
          listQueryOf(c, INVOICE_LIST),
          mine(c),
          linksOf(c),
        ),
      ),
      200,
    ),
  );
