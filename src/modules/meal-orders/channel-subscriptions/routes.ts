import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { customerOf } from "../../../core/auth";
import { type ServiceContext, serviceContext } from "../../../core/context";
import { mergePages, windowOf } from "../../../core/list-merge";
import { envelopeOf, type ListQuery, listQueryOf, listQuerySchema, type Page } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { customerRoute, merchantRoute } from "../../../core/routes";
import type { AppEnv } from "../../../env";
import { channelShards } from "../../sales-channels";
import { cancelMealSubscription } from "../subscriptions/actions";
import {
  CancelMealSubscriptionSchema,
  type MealSubscription,
  MealSubscriptionDetailsSchema,
  MealSubscriptionListSchema,
} from "../subscriptions/schemas";
import {
  CHANNEL_SUBSCRIPTION_LIST,
  listSubscriptions,
  type SubscriptionScope,
  subscriptionDetails,
  subscriptionInScope,
  subscriptionNotFound,
} from "../subscriptions/service";

/**
 * Meal subscriptions sold through a sales channel: the stores' view (MX4) and the channel
 * customer's (CA15). Across stores, only through a connection that is active now: a deactivated
 * or deleted one hides what was sold through it from the channel and its customers. A provider's
 * subscriptions live on its shard (docs/shards.md): a view reads the shards of the channel's active
 * providers (and the store's own, for what it received as a provider) at once, never another.
 */

const param = idParam("subscription_id");
const notFound = { 404: ["meal_subscription_not_found" as const] };

/** A shard of the view: the request's context on that shard's database, and the view's scope there. */
type Part = { ctx: ServiceContext; scope: SubscriptionScope };

/** The providers on a shard, as the scope's list (none: NULL, which matches no store). */
const providersSql = (ids: readonly number[]) =>
  ids.length
    ? sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )
    : sql`NULL`;

/** The channel store's view: what it sold at its active providers, and (on its shard) what it received as a provider. */
async function merchantParts(c: Context<AppEnv>): Promise<Part[]> {
  const ctx = serviceContext(c);
  const shards = await channelShards(c.env, ctx, { own: true });
  return shards.map((s) => ({
    ctx: { ...ctx, db: s.db },
    scope: { kind: "channel_merchant", providerAppIds: providersSql(s.providerAppIds) },
  }));
}

/** The channel customer's: what they bought through the channel store of the request, at its active providers. */
async function customerParts(c: Context<AppEnv>): Promise<Part[]> {
  const ctx = serviceContext(c);
  const shards = await channelShards(c.env, ctx, { own: false });
  return shards.map((s) => ({
    ctx: { ...ctx, db: s.db },
    scope: {
      kind: "channel_customer",
      customerId: customerOf(c).customerId,
      providerAppIds: providersSql(s.providerAppIds),
    },
  }));
}

/** The list's fields as the views show them (a plan's and a restaurant's ids are nested). */
function subscriptionField(v: MealSubscription, field: string) {
  if (field === "plan_id") return v.plan.id;
  if (field === "plan_version_id") return v.plan_version.id;
  if (field === "restaurant_id") return v.restaurant.id;
  return (v as unknown as Record<string, string | number | boolean | null>)[field];
}

/** A page of the view: each shard's first rows up to the page, at once, merged. */
async function pageOf(parts: Part[], q: ListQuery): Promise<Page<MealSubscription>> {
  const windows = await Promise.all(parts.map((p) => listSubscriptions(p.ctx, windowOf(q), p.scope)));
  return mergePages(q, windows, subscriptionField);
}

/**
 * The shard of the view that holds subscription `id`: ids are unique per shard only, so each is
 * asked at once, and the first in the view's order of shards answers (the store's own, then its
 * providers'). Its 404 when none does.
 */
async function partOf(parts: Part[], id: number): Promise<Part> {
  // One shard: its own read answers the 404.
  if (parts.length === 1) return parts[0]!;
  const found = await Promise.all(parts.map((p) => subscriptionInScope(p.ctx, id, p.scope)));
  const at = found.indexOf(true);
  if (at < 0) throw subscriptionNotFound(id);
  return parts[at]!;
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
    c.json(envelopeOf(c, await pageOf(await merchantParts(c), listQueryOf(c, CHANNEL_SUBSCRIPTION_LIST))), 200),
  )
  .openapi(getChannelMealSubscriptionRoute, async (c) => {
    const id = c.req.valid("param").subscription_id;
    const part = await partOf(await merchantParts(c), id);
    return c.json(await subscriptionDetails(part.ctx, id, part.scope), 200);
  });

/** CA15 (subscriptions): the channel customer's. */
export const channelSubscriptionsCustomerRouter = createRouter()
  .openapi(listMyChannelSubscriptionsRoute, async (c) =>
    c.json(envelopeOf(c, await pageOf(await customerParts(c), listQueryOf(c, CHANNEL_SUBSCRIPTION_LIST))), 200),
  )
  .openapi(getMyChannelSubscriptionRoute, async (c) => {
    const id = c.req.valid("param").subscription_id;
    const part = await partOf(await customerParts(c), id);
    return c.json(await subscriptionDetails(part.ctx, id, part.scope), 200);
  })
  .openapi(cancelMyChannelSubscriptionRoute, async (c) => {
    const id = c.req.valid("param").subscription_id;
    // The provider's subscription, cancelled on the provider's shard under its rules.
    const part = await partOf(await customerParts(c), id);
    return c.json(await cancelMealSubscription(part.ctx, id, c.req.valid("json"), part.scope), 200);
  });
