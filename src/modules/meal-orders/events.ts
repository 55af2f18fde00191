import { z } from "@hono/zod-openapi";
import { ById, defineEvents, type RegisteredEvents } from "../../core/events/registry";
import { MEAL_SUBSCRIPTION_STATUSES, SUBORDER_STATUSES } from "./tables";

const SuborderRef = ById.extend({
  subscription_id: z.number().int(),
  date: z.string().openapi({ format: "date", description: "The suborder's delivery date." }),
});

/** A meal subscription's events carry its status and the channel that sold it (null: the store's own app). */
export const MealSubscriptionRef = ById.extend({
  status: z.enum(MEAL_SUBSCRIPTION_STATUSES),
  channel_app_id: z.number().int().nullable(),
});

/** The events meals commerce emits, with the schema of their `data`. */
export const mealOrderEvents = defineEvents({
  "meal_subscription.created": {
    description: "A paid meal order started a meal subscription, with one suborder per delivery date.",
    data: MealSubscriptionRef,
  },
  "meal_subscription.activated": {
    description: "A meal subscription became active (its order was paid).",
    data: MealSubscriptionRef,
  },
  "meal_subscription.renewed": {
    description: "A paid renewal order started the subscription's next term (`renewed_to_id`, a new subscription).",
    data: MealSubscriptionRef.extend({ renewed_to_id: z.number().int() }),
  },
  "meal_subscription.paused": {
    description:
      "The customer paused a meal subscription: its deliveries from `from_date` are frozen (a bounded pause with " +
      "`to_date` is resumed at once, and `meal_subscription.resumed` follows).",
    data: MealSubscriptionRef.extend({
      from_date: z.string().openapi({ format: "date" }),
      to_date: z.string().nullable().openapi({ format: "date" }),
      frozen_count: z.number().int(),
    }),
  },
  "meal_subscription.resumed": {
    description: "A paused meal subscription resumed: its frozen deliveries got dates from `resume_date`.",
    data: MealSubscriptionRef.extend({
      resume_date: z.string().openapi({ format: "date" }),
      paused_days: z.number().int(),
      end_date: z.string().openapi({ format: "date" }),
    }),
  },
  "meal_subscription.cancelled": {
    description: "The customer cancelled a meal subscription; its deliveries from `from_date` became `cancel_credits`.",
    data: MealSubscriptionRef.extend({
      from_date: z.string().openapi({ format: "date" }),
      cancelled_count: z.number().int(),
      cancel_credits: z.number().int(),
    }),
  },
  "meal_subscription.completed": {
    description: "Every suborder of a meal subscription reached a final status (delivered, cancelled, not received).",
    data: MealSubscriptionRef,
  },
  "meal_subscription.updated": {
    description: "A meal subscription's location or dates changed (`fields` names them: location, end_date).",
    data: MealSubscriptionRef.extend({ fields: z.array(z.string()) }),
  },
  "complaint.created": {
    description: "A customer complained about a delivered (or not received) suborder.",
    data: ById.extend({ suborder_id: z.number().int(), status: z.string(), reason: z.string() }),
  },
  "complaint.updated": {
    description: "The store moved a complaint (in review, rejected) or changed its note.",
    data: ById.extend({ suborder_id: z.number().int(), status: z.string(), reason: z.string() }),
  },
  "complaint.resolved": {
    description: "The store resolved a complaint, perhaps crediting the customer's wallet (`wallet_credit`).",
    data: ById.extend({
      suborder_id: z.number().int(),
      status: z.string(),
      reason: z.string(),
      wallet_credit: z.number().nullable(),
    }),
  },
  "suborder.status_changed": {
    description: "A suborder moved to another status (the kitchen, a captain, operations or the customer).",
    data: SuborderRef.extend({ from: z.enum(SUBORDER_STATUSES), to: z.enum(SUBORDER_STATUSES) }),
  },
  "suborder.delivered": {
    description: "A suborder was delivered (beside its `suborder.status_changed`).",
    data: SuborderRef.extend({ captain_id: z.number().int().nullable() }),
  },
  "suborder.updated": {
    description: "A suborder's meals, location, delivery window, date, captain or note changed (`fields` names them).",
    data: SuborderRef.extend({ fields: z.array(z.string()) }),
  },
  "captain.created": { description: "A captain was added to the store's logistics.", data: ById },
  "captain.updated": { description: "A captain's details, city, branch or activity changed.", data: ById },
  "captain.deleted": { description: "A captain was deleted.", data: ById },
});

declare module "../../core/events/registry" {
  interface EventRegistry extends RegisteredEvents<typeof mealOrderEvents> {}
}
