import { defineStateMachine } from "../../../core/state-machine";
import type { SUBSCRIPTION_STATUSES, SUBSCRIPTION_UPDATE_STATUSES } from "./tables";

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type SubscriptionAction =
  | "activate"
  | "start_trial"
  | "renew"
  | "suspend"
  | "pause"
  | "resume"
  | "cancel"
  | "cancel_auto_renewal"
  | "expire"
  | "record_usage"
  | "update";

/**
 * A subscription's status (design-reference 6.3), declared once. `renew` is a paid period;
 * `cancel_auto_renewal` keeps the status (the subscription expires at its period's end);
 * `record_usage` and `update` are allowed where the table says, and change no status.
 */
export const subscriptionMachine = defineStateMachine<SubscriptionStatus, SubscriptionAction>("The subscription", {
  pending: { activate: "active", start_trial: "trialing", cancel: "cancelled", cancel_auto_renewal: "pending" },
  trialing: {
    renew: "active",
    suspend: "suspended",
    cancel: "cancelled",
    cancel_auto_renewal: "trialing",
    expire: "expired",
    record_usage: "trialing",
    update: "trialing",
  },
  active: {
    renew: "active",
    suspend: "suspended",
    pause: "paused",
    cancel: "cancelled",
    cancel_auto_renewal: "active",
    expire: "expired",
    record_usage: "active",
    update: "active",
  },
  suspended: {
    renew: "active",
    pause: "paused",
    cancel: "cancelled",
    cancel_auto_renewal: "suspended",
    update: "suspended",
  },
  paused: { resume: "active", cancel: "cancelled", cancel_auto_renewal: "paused", update: "paused" },
  cancelled: {},
  expired: {},
});

type UpdateStatus = (typeof SUBSCRIPTION_UPDATE_STATUSES)[number];

/** A subscription update: pending until its period comes (applied) or the merchant cancels it. */
export const subscriptionUpdateMachine = defineStateMachine<UpdateStatus, "apply" | "cancel">(
  "The subscription update",
  {
    pending: { apply: "applied", cancel: "cancelled" },
    applied: {},
    cancelled: {},
  },
);
