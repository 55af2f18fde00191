import { getTableColumns, is, type SQL, SQL as SqlChunk, sql, type Table } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { rowEvent } from "../../../core/events/outbox";
import type { PaidHook } from "../../orders";
import { mealOrders, mealSubscriptions, suborders } from "../tables";

/**
 * What paying a meal order writes, in the batch that pays it (checkout, a card callback, a captured
 * transfer): registered with the orders module for orders of kind `meal` (see index.ts).
 *
 * - a subscription or renewal order: the meal subscription, active, with one suborder per delivery
 *   date from the order's `selections` (date, plan day, meals), the window or pickup branch and the
 *   location snapshot; `meal_subscription.created` and `.activated` (and `.renewed` on the
 *   subscription a renewal continues);
 * - an add-on order: its products appended to the suborders' `add_ons`; `suborder.updated`.
 *
 * Every write is guarded by the batch having paid the order, so an order that expired or was
 * cancelled (or is paid twice) creates nothing. Until paid, an order has no subscription at all.
 */

const SUBSCRIPTION_REF = sql`json_object('id', id, 'status', status, 'channel_app_id', channel_app_id)`;

export const mealPaidStatements: PaidHook = (ctx: ServiceContext, { orderId, at, paidNow }) => {
  const mine = sql`mo.order_id = ${orderId} AND mo.app_id = ${ctx.appId}`;
  const statements: BatchItem<"sqlite">[] = [
    ctx.db.insert(mealSubscriptions).select(
      sql`SELECT ${selectList(mealSubscriptions, {
        appId: sql`mo.app_id`,
        createdAt: sql`${at}`,
        modifiedAt: sql`${at}`,
        customerId: sql`mo.customer_id`,
        orderId: sql`mo.order_id`,
        restaurantId: sql`mo.restaurant_id`,
        planId: sql`mo.plan_id`,
        planVersionId: sql`mo.plan_version_id`,
        status: sql`'active'`,
        startDate: sql`mo.start_date`,
        endDate: sql`mo.end_date`,
        numOfDays: sql`json_array_length(mo.selections)`,
        isPickup: sql`mo.is_pickup`,
        pickupBranchId: sql`mo.pickup_branch_id`,
        deliveryWindowId: sql`mo.delivery_window_id`,
        primaryLocationId: sql`mo.primary_location_id`,
        secondaryLocationId: sql`mo.secondary_location_id`,
        location: sql`mo.location`,
        notes: sql`mo.notes`,
        pauseAttemptsCredits: sql`mo.pause_attempts_credits`,
        pauseCredits: sql`mo.pause_credits`,
        renewedFromId: sql`CASE mo.type WHEN 'renewal' THEN mo.subscription_id END`,
        channelAppId: sql`mo.channel_app_id`,
        channelCustomerId: sql`mo.channel_customer_id`,
      })}
      FROM meal_orders mo
      WHERE ${mine} AND mo.type IN ('subscription', 'renewal') AND ${paidNow}
        AND NOT EXISTS (SELECT 1 FROM meal_subscriptions s WHERE s.order_id = mo.order_id)`,
    ),
    ctx.db.insert(suborders).select(
      sql`SELECT ${selectList(suborders, {
        appId: sql`s.app_id`,
        createdAt: sql`${at}`,
        modifiedAt: sql`${at}`,
        ordering: sql`CAST(j.key AS INTEGER)`,
        subscriptionId: sql`s.id`,
        customerId: sql`s.customer_id`,
        restaurantId: sql`s.restaurant_id`,
        date: sql`j.value ->> '$.date'`,
        originalDate: sql`j.value ->> '$.date'`,
        planDayId: sql`j.value ->> '$.plan_day_id'`,
        isPickup: sql`s.is_pickup`,
        pickupBranchId: sql`s.pickup_branch_id`,
        deliveryWindowId: sql`s.delivery_window_id`,
        locationId: sql`s.primary_location_id`,
        location: sql`s.location`,
        meals: sql`json(j.value -> '$.meals')`,
        notes: sql`s.notes`,
      })}
      FROM meal_orders mo
        JOIN meal_subscriptions s ON s.order_id = mo.order_id AND s.created_at = ${at}
        JOIN json_each(mo.selections) j
      WHERE ${mine} AND mo.type IN ('subscription', 'renewal')`,
    ),
    // The order that started a subscription names it; a renewal keeps naming the one it renews.
    ctx.db
      .update(mealOrders)
      .set({
        subscriptionId: sql`(SELECT s.id FROM meal_subscriptions s WHERE s.order_id = ${orderId})`,
        modifiedAt: at,
      })
      .where(
        sql`${mealOrders.orderId} = ${orderId} AND ${mealOrders.appId} = ${ctx.appId} AND ${mealOrders.type} = 'subscription'
          AND EXISTS (SELECT 1 FROM meal_subscriptions s WHERE s.order_id = ${orderId} AND s.created_at = ${at})`,
      ),
    ctx.db
      .update(suborders)
      .set({
        modifiedAt: at,
        addOns: sql`(SELECT json_group_array(json(v)) FROM (
          SELECT value AS v FROM json_each(suborders.add_ons)
          UNION ALL
          SELECT json_object('product_id', j.value ->> '$.product_id', 'qty', j.value ->> '$.qty',
            'order_id', mo.order_id)
          FROM meal_orders mo JOIN json_each(mo.selections) j
          WHERE ${mine} AND mo.type = 'add_on' AND j.value ->> '$.suborder_id' = suborders.id))`,
      })
      .where(sql`${paidNow} AND ${suborders.id} IN (${addOnSuborders(ctx, orderId)})`),
  ];
  const created = sql`order_id = ${orderId} AND app_id = ${ctx.appId} AND created_at = ${at}`;
  const events: SQL[] = [
    rowEvent("meal_subscription.created", mealSubscriptions, created, SUBSCRIPTION_REF),
    rowEvent("meal_subscription.activated", mealSubscriptions, created, SUBSCRIPTION_REF),
    rowEvent(
      "meal_subscription.renewed",
      mealSubscriptions,
      sql`id = (SELECT subscription_id FROM meal_orders WHERE order_id = ${orderId} AND type = 'renewal')
        AND EXISTS (SELECT 1 FROM ${mealSubscriptions} n WHERE n.order_id = ${orderId} AND n.created_at = ${at})`,
      sql`json_object('id', id, 'status', status, 'channel_app_id', channel_app_id,
        'renewed_to_id', (SELECT n.id FROM ${mealSubscriptions} n WHERE n.order_id = ${orderId}))`,
    ),
    rowEvent(
      "suborder.updated",
      suborders,
      sql`id IN (${addOnSuborders(ctx, orderId)}) AND modified_at = ${at}`,
      sql`json_object('id', id, 'subscription_id', subscription_id, 'date', date, 'fields', json_array('add_ons'))`,
    ),
  ];
  return { statements, events };
};

/** The suborders an add-on order adds to. */
const addOnSuborders = (ctx: ServiceContext, orderId: SQL) =>
  sql`SELECT DISTINCT CAST(j.value ->> '$.suborder_id' AS INTEGER) FROM meal_orders mo JOIN json_each(mo.selections) j
    WHERE mo.order_id = ${orderId} AND mo.app_id = ${ctx.appId} AND mo.type = 'add_on'`;

/**
 * The SELECT list of an INSERT … SELECT into `table`: drizzle inserts every column in the table's
 * order, so the list follows it, each column from `exprs` or else its default (NULL without one),
 * and a column another part adds later takes its default here.
 */
function selectList<T extends Table>(table: T, exprs: Partial<Record<keyof T["_"]["columns"], SQL>>): SQL {
  // No column of these tables is generated: drizzle lists them all.
  const parts = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const expr = (exprs as Record<string, SQL | undefined>)[key];
    if (expr) return expr;
    if (col.default === undefined || col.default === null) return sql`NULL`;
    return is(col.default, SqlChunk) ? col.default : sql.param(col.default, col);
  });
  return sql.join(parts, sql`, `);
}
