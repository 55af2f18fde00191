import { defineStateMachine } from "../../../core/state-machine";
import type { MealSubscriptionStatus } from "../tables";
export type MealSubscriptionAction = "activate" | "pause" | "resume" | "postpone" | "cancel" | "complete" | "expire";

/**
 * A meal subscription's status (design-reference 14): paid, it is active; the customer pauses and
 * resumes it, postpones its deliveries (it stays active) or cancels it within the management rules
 * (rules.ts); it is completed once every suborder is final. Cancelled, completed, expired are final.
 */
export const mealSubscriptionMachine = defineStateMachine<MealSubscriptionStatus, MealSubscriptionAction>(
  "The meal subscription",
  {
    pending: { activate: "active", expire: "expired" },
    active: { pause: "paused", postpone: "active", cancel: "cancelled", complete: "completed" },
    paused: { resume: "active", cancel: "cancelled" },
    cancelled: {},
    completed: {},
    expired: {},
  },
);
