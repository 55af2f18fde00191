import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/*
 * Vouchers (discount codes) and their uses. A use is one row per voucher and order, so that a use
 * is counted once whatever the retries, and released (`released_at`) when its order is cancelled
 * or expires unpaid.
 */

export const VOUCHER_KINDS = ["percentage", "fixed"] as const;
export const VOUCHER_DISCOUNT_ON = ["total", "items", "delivery"] as const;
export const VOUCHER_STATUSES = ["active", "disabled"] as const;

export const vouchers = sqliteTable(
  "vouchers",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    /** Upper case, unique per store among live vouchers; customers type it. */
    code: text("code").notNull(),
    titleEn: text("title_en").notNull(),
    titleAr: text("title_ar").notNull(),
    kind: text("kind", { enum: VOUCHER_KINDS }).notNull(),
    /** Basis points for `percentage` (1000 = 10%), minor units for `fixed`. */
    value: integer("value").notNull(),
    discountOn: text("discount_on", { enum: VOUCHER_DISCOUNT_ON }).notNull().default("total"),
    minOrderMinor: integer("min_order_minor").notNull().default(0),
    maxDiscountMinor: integer("max_discount_minor"),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    /** Uses in all; null is unlimited. */
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    /** Live uses (not released): kept with the uses in the same guarded batch. */
    usageCount: integer("usage_count").notNull().default(0),
    /** Scope: empty arrays mean every item. */
    itemIds: text("item_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    categoryIds: text("category_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    isFeatured: integer("is_featured", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: VOUCHER_STATUSES }).notNull().default("active"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("vouchers_app_idx").on(t.appId, t.isDeleted, t.id),
    uniqueIndex("vouchers_app_code_live_idx").on(t.appId, t.code).where(sql`is_deleted = 0`),
  ],
);

export const voucherUsages = sqliteTable(
  "voucher_usages",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id").notNull(),
    voucherId: integer("voucher_id")
      .notNull()
      .references(() => vouchers.id),
    customerId: integer("customer_id"),
    orderId: integer("order_id").notNull(),
    createdAt: text("created_at").notNull(),
    releasedAt: text("released_at"),
  },
  (t) => [
    uniqueIndex("voucher_usages_voucher_order_idx").on(t.voucherId, t.orderId),
    index("voucher_usages_customer_idx").on(t.voucherId, t.customerId),
  ],
);
