import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";
import { CART_PROVIDERS, DURATION_UNITS, PAYMENT_PROVIDERS } from "../tables";

/*
 * Recurring purchases (design-reference 4.8): a saved cart ordered again every period, and one row
 * per cycle charged.
 */

export const RECURRING_STATUSES = ["pending", "active", "inactive"] as const;

export const recurringPurchases = sqliteTable(
  "recurring_purchases",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id").notNull(),
    /** The saved cart each cycle orders again. */
    cartId: integer("cart_id").notNull(),
    status: text("status", { enum: RECURRING_STATUSES }).notNull().default("pending"),
    cartProvider: text("cart_provider", { enum: CART_PROVIDERS }).notNull().default("app"),
    duration: integer("duration").notNull(),
    durationUnit: text("duration_unit", { enum: DURATION_UNITS }).notNull(),
    paymentProvider: text("payment_provider", { enum: PAYMENT_PROVIDERS }),
    savedPaymentMethodId: integer("saved_payment_method_id"),
    nextOrderDate: text("next_order_date"),
    lastOrderDate: text("last_order_date"),
    lastChargeDate: text("last_charge_date"),
    chargeAttempts: integer("charge_attempts").notNull().default(0),
    inactiveReason: text("inactive_reason"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("recurring_purchases_app_idx").on(t.appId, t.isDeleted, t.id),
    index("recurring_purchases_customer_idx").on(t.appId, t.customerId, t.id),
    index("recurring_purchases_due_idx").on(t.status, t.nextOrderDate),
  ],
);

/** `pending`: the cycle is claimed and being charged (a run that died mid-charge leaves it; the next run takes it over). */
export const RECURRING_CHARGE_STATUSES = ["pending", "success", "failed"] as const;

/** One row per cycle: the unique (purchase, cycle date) makes a cycle charged at most once. */
export const recurringCharges = sqliteTable(
  "recurring_charges",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    recurringPurchaseId: integer("recurring_purchase_id")
      .notNull()
      .references(() => recurringPurchases.id),
    cycleDate: text("cycle_date").notNull(),
    orderId: integer("order_id"),
    status: text("status", { enum: RECURRING_CHARGE_STATUSES }).notNull(),
    amountMinor: integer("amount_minor").notNull(),
    errorMessage: text("error_message"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("recurring_charges_cycle_idx").on(t.recurringPurchaseId, t.cycleDate)],
);
