import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";
import { DURATION_UNITS, PAYMENT_PROVIDERS } from "../tables";

/*
 * Subscriptions (design-reference 6): born of a paid checkout of a plan-enabled item, renewed each
 * period through an order of their own. Dates of periods are the store's calendar days (YYYY-MM-DD);
 * a period runs from its start date up to (not including) its end date, which is the next billing date.
 */

export const SUBSCRIPTION_STATUSES = [
  "pending",
  "trialing",
  "active",
  "suspended",
  "paused",
  "cancelled",
  "expired",
] as const;

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id").notNull(),
    itemId: integer("item_id").notNull(),
    /** The checkout's order, and its invoice: the first period. */
    orderId: integer("order_id").notNull(),
    firstInvoiceId: integer("first_invoice_id"),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("pending"),
    quantity: integer("quantity").notNull().default(1),
    /** What one unit costs a period, VAT included (a renewal charges unit × quantity). */
    unitPriceMinor: integer("unit_price_minor").notNull(),
    currency: text("currency").notNull(),
    paymentProvider: text("payment_provider", { enum: PAYMENT_PROVIDERS }),
    duration: integer("duration").notNull(),
    durationUnit: text("duration_unit", { enum: DURATION_UNITS }).notNull(),
    trialDays: integer("trial_days").notNull().default(0),
    inTrial: integer("in_trial", { mode: "boolean" }).notNull().default(false),
    trialStartDate: text("trial_start_date"),
    trialEndDate: text("trial_end_date"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    totalBillingCycles: integer("total_billing_cycles"),
    remainingBillingCycles: integer("remaining_billing_cycles"),
    autoRenew: integer("auto_renew", { mode: "boolean" }).notNull().default(true),
    currentPeriodStartDate: text("current_period_start_date"),
    currentPeriodEndDate: text("current_period_end_date"),
    lastBillingDate: text("last_billing_date"),
    /** The start of the next period to charge (while suspended: of the unpaid one). */
    nextBillingDate: text("next_billing_date"),
    /** Suspended: the day the renewal is tried again. */
    retryDate: text("retry_date"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    usageCounter: integer("usage_counter").notNull().default(0),
    usageLimit: integer("usage_limit"),
    usageUnit: text("usage_unit").notNull().default("credit"),
    autoIncrementUsage: integer("auto_increment_usage", { mode: "boolean" }).notNull().default(false),
    /** Owed (+) or credited (−) by changes made mid-period, added to the next renewal. */
    prorationMinor: integer("proration_minor").notNull().default(0),
    activatedAt: text("activated_at"),
    pausedAt: text("paused_at"),
    pauseResumesAt: text("pause_resumes_at"),
    suspendedAt: text("suspended_at"),
    cancelledAt: text("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
    /** A random token each change writes, so that the change's events select exactly the rows it changed. */
    changeToken: text("change_token"),
  },
  (t) => [
    index("subscriptions_app_idx").on(t.appId, t.isDeleted, t.id),
    index("subscriptions_customer_idx").on(t.appId, t.customerId, t.id),
    index("subscriptions_order_idx").on(t.orderId),
    index("subscriptions_due_idx").on(t.status, t.nextBillingDate),
    index("subscriptions_retry_idx").on(t.status, t.retryDate),
    index("subscriptions_resume_idx").on(t.status, t.pauseResumesAt),
  ],
);

export const RENEWAL_STATUSES = ["pending", "paid", "failed"] as const;

/**
 * One row per subscription and period: UNIQUE(subscription_id, period_start) makes a period charged
 * at most once, whatever runs overlap. `pending` while a run holds the claim (a run that died is
 * taken over once the claim is stale); `failed` until the next retry claims it again.
 */
export const subscriptionRenewals = sqliteTable(
  "subscription_renewals",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    periodStart: text("period_start").notNull(),
    status: text("status", { enum: RENEWAL_STATUSES }).notNull(),
    orderId: integer("order_id"),
    invoiceId: integer("invoice_id"),
    amountMinor: integer("amount_minor").notNull().default(0),
    attempts: integer("attempts").notNull().default(1),
    nextRetryDate: text("next_retry_date"),
    errorMessage: text("error_message"),
    claimedAt: text("claimed_at").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("subscription_renewals_period_idx").on(t.subscriptionId, t.periodStart),
    index("subscription_renewals_order_idx").on(t.orderId),
  ],
);

export const SUBSCRIPTION_UPDATE_STATUSES = ["pending", "applied", "cancelled"] as const;
export const SUBSCRIPTION_UPDATE_EFFECTS = ["next_period", "immediate"] as const;

export type SubscriptionChanges = {
  item_id?: number;
  /** Minor units: the new unit price. */
  price_minor?: number;
  duration?: number;
  duration_unit?: (typeof DURATION_UNITS)[number];
  usage_limit?: number | null;
};

/** A change of a subscription (MS10): applied now, or pending until its next period (one pending at a time). */
export const subscriptionUpdates = sqliteTable(
  "subscription_updates",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    status: text("status", { enum: SUBSCRIPTION_UPDATE_STATUSES }).notNull().default("pending"),
    effective: text("effective", { enum: SUBSCRIPTION_UPDATE_EFFECTS }).notNull(),
    effectiveAt: text("effective_at"),
    changes: text("changes", { mode: "json" }).$type<SubscriptionChanges>().notNull(),
    prorationMinor: integer("proration_minor").notNull().default(0),
    appliedAt: text("applied_at"),
    cancelledAt: text("cancelled_at"),
  },
  (t) => [
    index("subscription_updates_subscription_idx").on(t.subscriptionId, t.id),
    uniqueIndex("subscription_updates_pending_idx").on(t.subscriptionId).where(sql`status = 'pending'`),
  ],
);
