import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";

/**
 * Complaints about a delivered (or not received) suborder (design-reference 14, MM2): the customer
 * files one, the store reviews it and resolves it (perhaps with wallet credit) or rejects it.
 */

export const COMPLAINT_STATUSES = ["open", "in_review", "resolved", "rejected"] as const;

export const complaints = sqliteTable(
  "meal_complaints",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    suborderId: integer("suborder_id").notNull(),
    subscriptionId: integer("subscription_id").notNull(),
    customerId: integer("customer_id").notNull(),
    /** A code of the fixed reasons list (complaints/reasons.ts). */
    reason: text("reason").notNull(),
    description: text("description"),
    images: text("images", { mode: "json" }).$type<string[]>().notNull().default([]),
    status: text("status", { enum: COMPLAINT_STATUSES }).notNull().default("open"),
    /** What the store answered (shown to the customer). */
    resolutionNote: text("resolution_note"),
    /** Cashback credited to the customer's wallet by the resolution, in minor units. */
    walletCreditMinor: integer("wallet_credit_minor"),
    resolvedAt: text("resolved_at"),
  },
  (t) => [
    index("meal_complaints_app_idx").on(t.appId, t.isDeleted, t.status, t.id),
    index("meal_complaints_customer_idx").on(t.appId, t.customerId, t.id),
    // One complaint per suborder: a second one is a 409 naming the first.
    uniqueIndex("meal_complaints_suborder_idx").on(t.suborderId),
  ],
);
