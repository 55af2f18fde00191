import { serviceContext } from "../../../core/context";
import { envelopeOf, listQueryOf, listQuerySchema } from "../../../core/listing";
import { createRouter, idParam, jsonBody, jsonContent } from "../../../core/openapi";
import { merchantRoute } from "../../../core/routes";
import { PROVIDER_UNAVAILABLE_RESPONSE } from "../payments/public";
import { bulkPause, bulkResume, cancelAutoRenewal, cancelSubscription, changeUsage } from "./actions";
import {
  BulkPauseSchema,
  BulkResultSchema,
  BulkResumeSchema,
  CancelSubscriptionSchema,
  CreateSubscriptionUpdateSchema,
  MerchantSubscriptionListSchema,
  MerchantSubscriptionSchema,
  StatisticsQuerySchema,
  SubscriptionStatisticsSchema,
  SubscriptionUpdateSchema,
  UsageChangeSchema,
  UsageSchema,
} from "./schemas";
import { listSubscriptions, merchantSubscriptionAnswer, SUBSCRIPTION_LIST, subscriptionDetails } from "./service";
import { subscriptionStatistics } from "./statistics";
import { cancelSubscriptionUpdate, createSubscriptionUpdate } from "./updates";

const tags = ["Subscriptions"];
const base = "/merchant/subscriptions/";
const param = idParam("subscription_id");
const updateParams = param.extend(idParam("update_id").shape);
const read = "can_read_order" as const;
const write = "can_write_order" as const;
const notFound = { 404: ["subscription_not_found" as const] };
const details = jsonContent(MerchantSubscriptionSchema, "The subscription after the action.");

export const listSubscriptionsRoute = merchantRoute({
  tags,
  specId: "MS1",
  method: "get",
  path: base,
  operationId: "listSubscriptions",
  summary: "List Subscriptions",
  permission: read,
  description:
    "The store's subscriptions, newest first, each with its customer, its invoices and `next_invoice`. Filters on " +
    "the subscription's fields (`status`, `auto_renew`, `next_billing_date__lte=2026-03-01` …); `search` finds " +
    "the plan's name or the customer's name or mobile number.",
  request: { query: listQuerySchema(SUBSCRIPTION_LIST) },
  responses: { 200: jsonContent(MerchantSubscriptionListSchema, "A page of subscriptions.") },
});

export const subscriptionStatisticsRoute = merchantRoute({
  tags,
  specId: "MS3",
  method: "get",
  path: `${base}statistics/`,
  operationId: "getSubscriptionStatistics",
  summary: "Subscription Statistics",
  permission: read,
  description:
    "Counts by status, auto-renewal on and off (live ones), subscriptions created and cancelled in `from`..`to` " +
    "(the store's days; default the last 30), renewals due in the next 7 days, and MRR (active and trialing, " +
    "each period's price brought to a month).",
  request: { query: StatisticsQuerySchema },
  responses: { 200: jsonContent(SubscriptionStatisticsSchema, "The statistics.") },
});

export const getSubscriptionRoute = merchantRoute({
  tags,
  specId: "MS2",
  method: "get",
  path: `${base}{subscription_id}/`,
  operationId: "getSubscription",
  summary: "Subscription Details",
  permission: read,
  description: "One subscription: its customer, invoices (newest first), `next_invoice` and `pending_update`.",
  request: { params: param },
  errors: notFound,
  responses: { 200: jsonContent(MerchantSubscriptionSchema, "The subscription.") },
});

export const cancelSubscriptionRoute = merchantRoute({
  tags,
  specId: "MS4",
  method: "post",
  path: `${base}{subscription_id}/cancel/`,
  operationId: "cancelSubscription",
  summary: "Cancel Subscription",
  permission: write,
  idempotent: true,
  description:
    "Now (`cancelled`, `subscription.cancelled`) or, with `at_period_end`, as Cancel Auto Renewal. `refund` " +
    "gives back the current period's paid invoice through Refund Invoice: `full`, or `prorated` (the unused " +
    "days' share; paused days count as unused). A refund that cannot be made is a 409 and nothing changes.",
  request: { params: param, body: jsonBody(CancelSubscriptionSchema) },
  errors: {
    ...notFound,
    409: [
      "invalid_state_transition",
      "concurrent_update",
      "refund_not_possible",
      "refund_exceeds_captured",
      "nothing_to_refund",
      "payment_failed",
    ],
  },
  // A card refund asks the gateway, which may not answer (the core factories document up to 500).
  responses: { 200: details, ...PROVIDER_UNAVAILABLE_RESPONSE },
});

export const cancelAutoRenewalRoute = merchantRoute({
  tags,
  specId: "MS5",
  method: "post",
  path: `${base}{subscription_id}/cancel-auto-renewal/`,
  operationId: "cancelSubscriptionAutoRenewal",
  summary: "Cancel Auto Renewal",
  permission: write,
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "`auto_renew` off: the subscription keeps its status until `current_period_end_date`, then expires. Calling " +
    "it again answers 200 with no change. Emits `subscription.auto_renewal_cancelled`.",
  request: { params: param },
  errors: { ...notFound, 409: ["invalid_state_transition", "concurrent_update"] },
  responses: { 200: details },
});

const usageRoute = (specId: "MS6" | "MS7", kind: "increment" | "decrement") =>
  merchantRoute({
    tags,
    specId,
    method: "post",
    path: `${base}{subscription_id}/${kind}-usage/`,
    operationId: `${kind}SubscriptionUsage`,
    summary: kind === "increment" ? "Increment Usage" : "Decrement Usage",
    permission: write,
    // Nothing but D1 before its first write: the key's claim goes with its first reads.
    idempotent: "with-first-read",
    description:
      `${kind === "increment" ? "Adds `quantity` to" : "Takes `quantity` off"} the usage counter of an active or ` +
      "trialing subscription (it resets each period; with `auto_increment_usage` it starts each period at 1). " +
      `${kind === "increment" ? "Past `usage_limit` is a 409 `usage_limit_exceeded`." : "Below zero is a 409 `usage_below_zero`."} ` +
      "Emits `subscription.usage_updated`.",
    request: { params: param, body: jsonBody(UsageChangeSchema) },
    errors: {
      ...notFound,
      409: [
        "invalid_state_transition",
        "concurrent_update",
        kind === "increment" ? ("usage_limit_exceeded" as const) : ("usage_below_zero" as const),
      ],
    },
    responses: { 200: jsonContent(UsageSchema, "The counter after the change.") },
  });
export const incrementUsageRoute = usageRoute("MS6", "increment");
export const decrementUsageRoute = usageRoute("MS7", "decrement");

export const bulkPauseRoute = merchantRoute({
  tags,
  specId: "MS8",
  method: "post",
  path: `${base}bulk-pause/`,
  operationId: "bulkPauseSubscriptions",
  summary: "Bulk Pause",
  permission: write,
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Pauses up to 100 active or suspended subscriptions (no renewals while paused), until `resumes_at` when given. " +
    "One result per id, in the order given: a missing id or an illegal move fails that id only. One " +
    "`subscription.paused` each.",
  request: { body: jsonBody(BulkPauseSchema) },
  responses: { 200: jsonContent(BulkResultSchema, "One result per id, in the order given.") },
});

export const bulkResumeRoute = merchantRoute({
  tags,
  specId: "MS9",
  method: "post",
  path: `${base}bulk-resume/`,
  operationId: "bulkResumeSubscriptions",
  summary: "Bulk Resume",
  permission: write,
  // Nothing but D1 before its first write: the key's claim goes with its first reads.
  idempotent: "with-first-read",
  description:
    "Resumes up to 100 paused subscriptions now (their period end and next billing date move on by the days " +
    "paused, so the term left continues), or on `resume_on` (they stay paused until then). One result per id; " +
    "one `subscription.resumed` each, when it resumes.",
  request: { body: jsonBody(BulkResumeSchema) },
  responses: { 200: jsonContent(BulkResultSchema, "One result per id, in the order given.") },
});

export const createSubscriptionUpdateRoute = merchantRoute({
  tags,
  specId: "MS10",
  method: "post",
  path: `${base}{subscription_id}/updates/`,
  operationId: "createSubscriptionUpdate",
  summary: "Create Subscription Update",
  permission: write,
  description:
    "Changes the item (its price too, unless `price` is given), the unit price, the period length or the usage " +
    "limit: `next_period` keeps it `pending` until the next renewal applies it (one pending at a time); " +
    "`immediate` applies it now, a price change owing (or crediting) the rest of the period's share of the " +
    "difference on the next renewal (`proration_amount`).",
  request: { params: param, body: jsonBody(CreateSubscriptionUpdateSchema) },
  errors: { ...notFound, 409: ["invalid_state_transition", "concurrent_update", "subscription_update_pending"] },
  responses: { 201: jsonContent(SubscriptionUpdateSchema, "The update.") },
});

export const cancelSubscriptionUpdateRoute = merchantRoute({
  tags,
  specId: "MS11",
  method: "post",
  path: `${base}{subscription_id}/updates/{update_id}/cancel/`,
  operationId: "cancelSubscriptionUpdate",
  summary: "Cancel Subscription Update",
  permission: write,
  description:
    "Cancels a `pending` update; an applied or cancelled one is a 409. Emits `subscription.update_cancelled`.",
  request: { params: updateParams },
  errors: { 404: ["subscription_not_found", "subscription_update_not_found"], 409: ["invalid_state_transition"] },
  responses: { 200: jsonContent(SubscriptionUpdateSchema, "The update, cancelled.") },
});

/** MS1-MS11. Fixed paths (statistics, bulk-*) before `{subscription_id}/`. */
export const subscriptionsMerchantRouter = createRouter();
const r = subscriptionsMerchantRouter;
r.openapi(listSubscriptionsRoute, async (c) =>
  c.json(envelopeOf(c, await listSubscriptions(serviceContext(c), listQueryOf(c, SUBSCRIPTION_LIST))), 200),
);
r.openapi(subscriptionStatisticsRoute, async (c) =>
  c.json(await subscriptionStatistics(serviceContext(c), c.req.valid("query")), 200),
);
r.openapi(bulkPauseRoute, async (c) => c.json(await bulkPause(serviceContext(c), c.req.valid("json")), 200));
r.openapi(bulkResumeRoute, async (c) => c.json(await bulkResume(serviceContext(c), c.req.valid("json")), 200));
r.openapi(getSubscriptionRoute, async (c) =>
  c.json(await subscriptionDetails(serviceContext(c), c.req.valid("param").subscription_id), 200),
);
r.openapi(cancelSubscriptionRoute, async (c) =>
  c.json(
    await cancelSubscription(serviceContext(c), c.env, c.req.valid("param").subscription_id, c.req.valid("json")),
    200,
  ),
);
r.openapi(cancelAutoRenewalRoute, async (c) => {
  const ctx = serviceContext(c);
  const id = c.req.valid("param").subscription_id;
  return c.json(await cancelAutoRenewal(ctx, id, merchantSubscriptionAnswer(ctx, id)), 200);
});
r.openapi(incrementUsageRoute, async (c) => {
  const b = c.req.valid("json");
  return c.json(
    await changeUsage(serviceContext(c), c.req.valid("param").subscription_id, b.quantity, b.reference ?? null),
    200,
  );
});
r.openapi(decrementUsageRoute, async (c) => {
  const b = c.req.valid("json");
  return c.json(
    await changeUsage(serviceContext(c), c.req.valid("param").subscription_id, -b.quantity, b.reference ?? null),
    200,
  );
});
r.openapi(createSubscriptionUpdateRoute, async (c) =>
  c.json(
    await createSubscriptionUpdate(serviceContext(c), c.req.valid("param").subscription_id, c.req.valid("json")),
    201,
  ),
);
r.openapi(cancelSubscriptionUpdateRoute, async (c) => {
  const p = c.req.valid("param");
  return c.json(await cancelSubscriptionUpdate(serviceContext(c), p.subscription_id, p.update_id), 200);
});
