import type { Context } from "hono";
import { customerOf } from "../../../core/auth";
import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute, merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { connectedProviderAppIdsSql } from "../../sales-channels";
import { cancelMealSubscription } from "../subscriptions/actions";
import {
  CancelMealSubscriptionSchema,
  MealSubscriptionDetailsSchema,
  MealSubscriptionListSchema,
} from "../subscriptions/schemas";
import {
  CHANNEL_SUBSCRIPTION_LIST,
  listSubscriptions,
  type SubscriptionScope,
  subscriptionDetails,
} from "../subscriptions/service";

/**
 * Meal subscriptions sold through a sales channel: the stores' view (MX4) and the channel
 * customer's (CA15). Across stores, only through a connection that is active now: a deactivated
 * or deleted one hides what was sold through it from the channel and its customers.
 */

const param = idParam("subscription_id");
const notFound = { 404: ["meal_subscription_not_found" as const] };

/** The channel store's view: what it sold at its active providers, and what it received as a provider. */
function merchantScope(c: Context<AppEnv>): SubscriptionScope {
  return { kind: "channel_merchant", providerAppIds: connectedProviderAppIdsSql(c.get("appId")) };
}

/** The channel customer's: what they bought through the channel store of the request, at its active providers. */
function customerScope(c: Context<AppEnv>): SubscriptionScope {
  return {
    kind: "channel_customer",
    customerId: customerOf(c).customerId,
    providerAppIds: connectedProviderAppIdsSql(c.get("appId")),
  };
}

export const listChannelMealSubscriptionsRoute = merchantRoute({
  tags: ["Sales channel orders"],
  specId: "MX4",
  method: "get",
  path: "/sales-channels/meals/subscriptions/",
  operationId: "listSalesChannelMealSubscriptions",
  summary: "List Provider Meals Subscriptions",
  permission: "can_read_sales_channels",
  description:
    "For a channel store: the meal subscriptions its customers bought through it at the provider stores it is " +
    "actively connected to (`app_id` is the provider's). For a provider store: those it received through any " +
    "channel (`channel_app_id`). A deactivated or deleted connection hides them from the channel.",
  request: { query: listQuerySchema(CHANNEL_SUBSCRIPTION_LIST) },
  responses: { 200: jsonContent(MealSubscriptionListSchema, "A page of the channel's meal subscriptions.") },
});

export const getChannelMealSubscriptionRoute = merchantRoute({
  tags: ["Sales channel orders"],
  specId: "MX4",
  method: "get",
  path: "/sales-channels/meals/subscriptions/{subscription_id}/",
  operationId: "getSalesChannelMealSubscription",
  summary: "Provider Meals Subscription Details",
  permission: "can_read_sales_channels",
  description: "One meal subscription of the list above; any other (or one behind an inactive connection) is a 404.",
  request: { params: param },
  errors: notFound,
  responses: { 200: jsonContent(MealSubscriptionDetailsSchema, "The meal subscription.") },
});

const customerTags = ["Customer app: sales channels"];

export const listMyChannelSubscriptionsRoute = customerRoute({
  tags: customerTags,
  specId: "CA15",
  method: "get",
  path: "/sales-channels/subscriptions/",
  operationId: "listMyChannelSubscriptions",
  summary: "List Channel Subscriptions",
  description:
    "The meal subscriptions the customer of this channel store bought through it, at providers it is actively " +
    "connected to, with their management fields.",
  request: { query: listQuerySchema(CHANNEL_SUBSCRIPTION_LIST) },
  responses: { 200: jsonContent(MealSubscriptionListSchema, "A page of the customer's channel subscriptions.") },
});

export const getMyChannelSubscriptionRoute = customerRoute({
  tags: customerTags,
  specId: "CA15",
  method: "get",
  path: "/sales-channels/subscriptions/{subscription_id}/",
  operationId: "getMyChannelSubscription",
  summary: "Channel Subscription Details",
  description: "One of the customer's channel subscriptions.",
  request: { params: param },
  errors: notFound,
  responses: { 200: jsonContent(MealSubscriptionDetailsSchema, "The meal subscription.") },
});

export const cancelMyChannelSubscriptionRoute = customerRoute({
  tags: customerTags,
  specId: "CA15",
  method: "post",
  path: "/sales-channels/subscriptions/{subscription_id}/cancel/",
  operationId: "cancelMyChannelSubscription",
  summary: "Cancel Channel Subscription",
  description:
    "Cancels one of the customer's channel subscriptions under the provider's rules, as Cancel Subscription does " +
    "(`min_cancel_date`..`max_cancel_date`, credits). The events are the provider store's, with `channel_app_id`.",
  request: { params: param, body: jsonBody(CancelMealSubscriptionSchema) },
  errors: {
    ...notFound,
    409: ["invalid_state_transition", "no_open_deliveries", "cancel_date_out_of_range", "concurrent_update"],
  },
  responses: { 200: jsonContent(MealSubscriptionDetailsSchema, "The cancelled subscription.") },
});

/** MX4: the stores' view of channel meal subscriptions. */
export const channelSubscriptionsMerchantRouter = createRouter()
  .openapi(listChannelMealSubscriptionsRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSubscriptions(serviceContext(c), listQueryOf(c, CHANNEL_SUBSCRIPTION_LIST), merchantScope(c)),
      ),
      200,
    ),
  )
  .openapi(getChannelMealSubscriptionRoute, async (c) =>
    c.json(await subscriptionDetails(serviceContext(c), c.req.valid("param").subscription_id, merchantScope(c)), 200),
  );

/** CA15 (subscriptions): the channel customer's. */
export const channelSubscriptionsCustomerRouter = createRouter()
  .openapi(listMyChannelSubscriptionsRoute, async (c) =>
    c.json(
      envelopeOf(
        c,
        await listSubscriptions(serviceContext(c), listQueryOf(c, CHANNEL_SUBSCRIPTION_LIST), customerScope(c)),
      ),
      200,
    ),
  )
  .openapi(getMyChannelSubscriptionRoute, async (c) =>
    c.json(await subscriptionDetails(serviceContext(c), c.req.valid("param").subscription_id, customerScope(c)), 200),
  )
  .openapi(cancelMyChannelSubscriptionRoute, async (c) =>
    c.json(
      await cancelMealSubscription(
        serviceContext(c),
        c.req.valid("param").subscription_id,
        c.req.valid("json"),
        customerScope(c),
      ),
      200,
    ),
  );
