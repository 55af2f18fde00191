import { z } from "@hono/zod-openapi";
import { ById, defineEvents } from "../../../core/events/registry";
import { SUBSCRIPTION_STATUSES } from "./tables";

const SubscriptionRef = ById.extend({
  customer_id: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
});
const UpdateRef = ById.extend({ subscription_id: z.number().int(), status: z.string() });

/** Subscription events (design-reference 6.4): one per change, written in the change's batch. */
export const subscriptionEvents = defineEvents({
  "subscription.created": {
    description: "A checkout of a plan-enabled item created a subscription (`pending` until its order is paid).",
    data: SubscriptionRef.extend({ order_id: z.number().int(), item_id: z.number().int() }),
  },
  "subscription.activated": {
    description: "A subscription's first order was paid: `trialing` when its plan has a trial, else `active`.",
    data: SubscriptionRef,
  },
  "subscription.renewed": {
    description: "A period was charged (its renewal order paid): the subscription is `active` for the next period.",
    data: SubscriptionRef.extend({ order_id: z.number().int(), period_start: z.string(), previous_status: z.string() }),
  },
  "subscription.suspended": {
    description: "A renewal could not be charged: `suspended` until a retry pays it, or the grace period ends.",
    data: SubscriptionRef.extend({ error_message: z.string() }),
  },
  "subscription.paused": { description: "The merchant paused a subscription (no renewals).", data: SubscriptionRef },
  "subscription.resumed": {
    description: "A paused subscription resumed; its billing dates moved on by the days it was paused.",
    data: SubscriptionRef,
  },
  "subscription.auto_renewal_cancelled": {
    description: "Auto-renewal was turned off: the subscription ends (`expired`) at its period's end.",
    data: SubscriptionRef,
  },
  "subscription.cancelled": {
    description: "A subscription was cancelled (by the merchant, or unpaid past its grace period).",
    data: SubscriptionRef.extend({ reason: z.string().nullable() }),
  },
  "subscription.expired": {
    description: "A subscription reached its end: auto-renewal off, or its billing cycles used up.",
    data: SubscriptionRef,
  },
  "subscription.usage_updated": {
    description: "A subscription's usage counter moved (increment or decrement).",
    data: ById.extend({ usage_counter: z.number().int(), change: z.number().int(), reference: z.string().nullable() }),
  },
  "subscription.update_created": { description: "A change of a subscription was scheduled.", data: UpdateRef },
  "subscription.update_applied": { description: "A scheduled (or immediate) change was applied.", data: UpdateRef },
  "subscription.update_cancelled": { description: "A pending change was cancelled.", data: UpdateRef },
});
