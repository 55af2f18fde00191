import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/*
 * Meals commerce (design-reference 12 and 14): a meal order is an order of the orders module (its
 * money, invoice, payment and events are the orders module's), described here by `meal_orders`;
 * a paid subscription order starts a meal subscription, which is delivered as one suborder per
 * delivery date. Dates are the restaurant's calendar days (YYYY-MM-DD, in its time zone).
 */

type Json = Record<string, unknown>;

/** What a customer chose for one day: the plan category and the plan options picked in it. */
export type MealChoice = { plan_category_id: number; option_ids: number[] };
/** An add-on on a suborder: a menu product bought by an add-on order. */
export type SuborderAddOn = { product_id: number; qty: number; order_id: number };

export const MEAL_ORDER_TYPES = ["subscription", "add_on", "renewal"] as const;

/** One row per order of the orders module that the meals side placed. */
export const mealOrders = sqliteTable(
  "meal_orders",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    /** The order of the orders module (status, money, invoice, payment). */
    orderId: integer("order_id").notNull(),
    type: text("type", { enum: MEAL_ORDER_TYPES }).notNull(),
    customerId: integer("customer_id").notNull(),
    restaurantId: integer("restaurant_id").notNull(),
    planId: integer("plan_id"),
    planVersionId: integer("plan_version_id"),
    /** The subscription this order started (subscription), renews (renewal) or adds to (add_on). */
    subscriptionId: integer("subscription_id"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    isPickup: integer("is_pickup", { mode: "boolean" }).notNull().default(false),
    pickupBranchId: integer("pickup_branch_id"),
    deliveryWindowId: integer("delivery_window_id"),
    primaryLocationId: integer("primary_location_id"),
    secondaryLocationId: integer("secondary_location_id"),
    cityId: integer("city_id"),
    /** The primary location as it was at placing (a snapshot the subscription and its suborders keep). */
    location: text("location", { mode: "json" }).$type<Json>(),
    notes: text("notes"),
    /** The plan version's pause allowances at placing, given to the subscription when it is paid. */
    pauseCredits: integer("pause_credits").notNull().default(0),
    pauseAttemptsCredits: integer("pause_attempts_credits").notNull().default(0),
    /** The days and options as placed (subscription), or the add-ons and their suborders (add_on). */
    selections: text("selections", { mode: "json" }).$type<unknown[]>().notNull().default([]),
    /** Placed through a sales channel: the channel store and its customer. */
    channelAppId: integer("channel_app_id"),
    channelCustomerId: integer("channel_customer_id"),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
  },
  (t) => [
    uniqueIndex("meal_orders_order_idx").on(t.orderId),
    index("meal_orders_app_idx").on(t.appId, t.isDeleted, t.id),
    index("meal_orders_customer_idx").on(t.appId, t.customerId, t.id),
    index("meal_orders_channel_idx").on(t.channelAppId, t.channelCustomerId, t.id),
  ],
);

export const MEAL_SUBSCRIPTION_STATUSES = ["pending", "active", "paused", "cancelled", "completed", "expired"] as const;
export type MealSubscriptionStatus = (typeof MEAL_SUBSCRIPTION_STATUSES)[number];

/** Statuses in which the customer manages the subscription (changes, pauses, cancels). */
export const MANAGED_STATUSES: readonly MealSubscriptionStatus[] = ["active", "paused"];

export const mealSubscriptions = sqliteTable(
  "meal_subscriptions",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id").notNull(),
    /** The order that bought it (its first term). */
    orderId: integer("order_id").notNull(),
    restaurantId: integer("restaurant_id").notNull(),
    planId: integer("plan_id").notNull(),
    planVersionId: integer("plan_version_id").notNull(),
    status: text("status", { enum: MEAL_SUBSCRIPTION_STATUSES }).notNull().default("pending"),
    startDate: text("start_date").notNull(),
    /** The last delivery date: moves later when suborders are postponed or paused. */
    endDate: text("end_date").notNull(),
    numOfDays: integer("num_of_days").notNull(),
    isPickup: integer("is_pickup", { mode: "boolean" }).notNull().default(false),
    pickupBranchId: integer("pickup_branch_id"),
    deliveryWindowId: integer("delivery_window_id"),
    primaryLocationId: integer("primary_location_id"),
    secondaryLocationId: integer("secondary_location_id"),
    /** The delivery address as it was chosen (a snapshot: the customer may edit the location later). */
    location: text("location", { mode: "json" }).$type<Json>(),
    notes: text("notes"),
    /** Pauses left, from the plan version's `num_of_pause_attempts`. */
    pauseAttemptsCredits: integer("pause_attempts_credits").notNull().default(0),
    /** Days that may still be paused, from the version's `pause_credits`. */
    pauseCredits: integer("pause_credits").notNull().default(0),
    pausedDays: integer("paused_days").notNull().default(0),
    /** Deliveries cancelled and owed back (as credit, or a later renewal). */
    cancelCredits: integer("cancel_credits").notNull().default(0),
    pausedFrom: text("paused_from"),
    resumeDate: text("resume_date"),
    cancelledAt: text("cancelled_at"),
    renewedFromId: integer("renewed_from_id"),
    channelAppId: integer("channel_app_id"),
    channelCustomerId: integer("channel_customer_id"),
    customFields: text("custom_fields", { mode: "json" }).$type<Json>(),
    /** Marks the rows one change touched, so that its events are derived from exactly those (see rowEvent). */
    changeToken: text("change_token"),
  },
  (t) => [
    index("meal_subscriptions_app_idx").on(t.appId, t.isDeleted, t.id),
    index("meal_subscriptions_customer_idx").on(t.appId, t.customerId, t.id),
    index("meal_subscriptions_order_idx").on(t.orderId),
    index("meal_subscriptions_channel_idx").on(t.channelAppId, t.channelCustomerId, t.id),
  ],
);

/** The public system's values (design-reference 12). */
export const SUBORDER_STATUSES = [
  "new",
  "confirmed",
  "on_delivery",
  "delivered",
  "cancelled_by_customer",
  "cancelled_by_operation",
  "not_received_by_customer",
] as const;
export type SuborderStatus = (typeof SUBORDER_STATUSES)[number];

/** Statuses in which a suborder is still to be delivered (a pause, a move or a change may touch it). */
export const OPEN_SUBORDER_STATUSES: readonly SuborderStatus[] = ["new", "confirmed"];

/** One delivery (or pickup) of a meal subscription on one date. */
export const suborders = sqliteTable(
  "suborders",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    subscriptionId: integer("subscription_id").notNull(),
    customerId: integer("customer_id").notNull(),
    restaurantId: integer("restaurant_id").notNull(),
    /** The delivery date; a frozen suborder keeps its last date until it is given a new one. */
    date: text("date").notNull(),
    /** The date it was first planned for (before postponing or pausing moved it). */
    originalDate: text("original_date").notNull(),
    status: text("status", { enum: SUBORDER_STATUSES }).notNull().default("new"),
    /** Held by a pause: not delivered until the subscription resumes and gives it a date. */
    isFrozen: integer("is_frozen", { mode: "boolean" }).notNull().default(false),
    /** Moved to a later date by the customer (postpone). */
    isPostponed: integer("is_postponed", { mode: "boolean" }).notNull().default(false),
    /** The plan day (menu cycle) serving it. */
    planDayId: integer("plan_day_id"),
    isPickup: integer("is_pickup", { mode: "boolean" }).notNull().default(false),
    pickupBranchId: integer("pickup_branch_id"),
    deliveryWindowId: integer("delivery_window_id"),
    locationId: integer("location_id"),
    location: text("location", { mode: "json" }).$type<Json>(),
    meals: text("meals", { mode: "json" }).$type<MealChoice[]>().notNull().default([]),
    addOns: text("add_ons", { mode: "json" }).$type<SuborderAddOn[]>().notNull().default([]),
    captainId: integer("captain_id"),
    notes: text("notes"),
    /** Operations' note on this delivery (logistics' bulk update), beside the customer's `notes`. */
    operationNote: text("operation_note"),
    deliveredAt: text("delivered_at"),
    /** Marks the rows one change touched, so that its events are derived from exactly those (see rowEvent). */
    changeToken: text("change_token"),
  },
  (t) => [
    index("suborders_subscription_idx").on(t.subscriptionId, t.date),
    index("suborders_customer_idx").on(t.appId, t.customerId, t.date),
    // The kitchen's day and the logistics board: a store's suborders of a date.
    index("suborders_day_idx").on(t.appId, t.date, t.status),
    // One live delivery per subscription and date: a move to a taken date is refused by the database.
    uniqueIndex("suborders_subscription_date_idx")
      .on(t.subscriptionId, t.date)
      .where(sql`is_frozen = 0 AND status NOT IN ('cancelled_by_customer', 'cancelled_by_operation')`),
  ],
);
