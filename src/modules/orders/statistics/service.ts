import { sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { liveRow } from "../../../core/crud/tenant-table";
import { toMajor } from "../../../core/money";
import { storeCurrencySql } from "../../account";
import { findCustomer } from "../../customers";
import { ORDER_STATUSES } from "../tables";
import type { OrderStatistics } from "./schemas";

type Aggregate = Record<`n_${(typeof ORDER_STATUSES)[number]}`, number> & {
  total: number;
  spent: number;
  first: string | null;
  last: string | null;
  currency: string;
  recurring: number;
};

/**
 * MC3 Customer Order Statistics: one aggregate over the customer's orders (purchases and meal orders;
 * soft-deleted ones left out). Spent is what the store kept: the completed orders' totals less their refunds, and
 * fully refunded orders (status `refunded`) add nothing. 404 `customer_not_found` for another store's.
 */
export async function customerOrderStatistics(ctx: ServiceContext, customerId: number): Promise<OrderStatistics> {
  const [, row] = await Promise.all([
    findCustomer(ctx, customerId),
    ctx.db.get<Aggregate>(sql`
      SELECT count(*) AS total,
        ${sql.raw(ORDER_STATUSES.map((s) => `coalesce(sum(status = '${s}'), 0) AS n_${s}`).join(", "))},
        coalesce(sum(CASE WHEN status = 'completed' THEN total_minor - refunded_minor END), 0) AS spent,
        min(created_at) AS first, max(created_at) AS last,
        coalesce(max(currency), ${storeCurrencySql(ctx.appId)}) AS currency,
        (SELECT count(*) FROM recurring_purchases WHERE ${liveRow(ctx.appId)} AND customer_id = ${customerId}
          AND status = 'active') AS recurring
      FROM orders
      WHERE ${liveRow(ctx.appId)} AND customer_id = ${customerId} AND kind IN ('purchase', 'meal')`),
  ]);
  const completed = row.n_completed;
  return {
    customer_id: customerId,
    orders_count: row.total,
    orders_count_by_status: Object.fromEntries(ORDER_STATUSES.map((s) => [s, row[`n_${s}`]])) as Record<
      (typeof ORDER_STATUSES)[number],
      number
    >,
    completed_orders_count: completed,
    cancelled_orders_count: row.n_cancelled,
    total_spent: toMajor(row.spent),
    average_order_value: completed ? toMajor(Math.round(row.spent / completed)) : 0,
    first_order_at: row.first,
    last_order_at: row.last,
    active_recurring_purchases_count: row.recurring,
    // The store's currency when the customer has no orders (in the same statement).
    currency: row.currency,
  };
}
