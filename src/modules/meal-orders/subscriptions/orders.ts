import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { type ListParent, type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { type LinkContext, listInvoicesOfOrders, loadOrders } from "../../orders";
import { MEAL_ORDER_TYPES, mealOrders, mealSubscriptions as s } from "../tables";
import type { SubscriptionOrder } from "./schemas";
import { type SubscriptionScope, scopeSql, subscriptionNotFound } from "./service";

/** MM1 List Subscription Orders and MM3 List SubOrder Invoices: what a subscription was bought with. */

const m = mealOrders;

export const SUBSCRIPTION_ORDER_LIST: ListSpec = {
  fields: {
    id: { column: m.id, kind: "integer" },
    order_id: { column: m.orderId, kind: "integer" },
    type: { column: m.type, kind: "string", values: MEAL_ORDER_TYPES },
    start_date: { column: m.startDate, kind: "date", nullable: true },
    created_at: { column: m.createdAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: m.id,
  sync: { modifiedAt: m.modifiedAt, softDeleted: false },
};

/**
 * The meal orders of the subscription `id` in the scope: the one that bought it, its add-ons and
 * renewals; the subscription is read in the same statement (none when it is not in the scope).
 */
function ordersOf(ctx: ServiceContext, id: number, scope: SubscriptionScope): SQL {
  // Uncorrelated scalar subqueries: evaluated once, and the store's id still drives the index.
  const sub = (column: SQL) => sql`(SELECT ${column} FROM ${s} WHERE ${and(eq(s.id, id), scopeSql(ctx, scope))})`;
  return and(
    sql`${m.appId} = ${sub(sql`${s.appId}`)}`,
    notDeleted(m),
    sql`(${m.subscriptionId} = ${sub(sql`${s.id}`)} OR ${m.orderId} = ${sub(sql`${s.orderId}`)})`,
  )!;
}

/** The subscription as the parent of a list: its 404 checked in the list's own statement. */
const subscriptionParent = (ctx: ServiceContext, id: number, scope: SubscriptionScope): ListParent => ({
  exists: sql`EXISTS (SELECT 1 FROM ${s} WHERE ${and(eq(s.id, id), scopeSql(ctx, scope))})`,
  notFound: () => subscriptionNotFound(id),
});

export async function listSubscriptionOrders(
  ctx: ServiceContext,
  id: number,
  q: ListQuery,
  scope: SubscriptionScope,
  links: LinkContext,
): Promise<Page<SubscriptionOrder>> {
  // The subscription and the page in one statement; then the orders (the orders module reads them by id).
  const page = await listPage(ctx.db, q, {
    table: m,
    scope: () => ordersOf(ctx, id, scope),
    parent: subscriptionParent(ctx, id, scope),
  });
  const appId = page.results[0]?.appId ?? ctx.appId;
  const full = await loadOrders(
    { ...ctx, appId },
    page.results.map((o) => o.orderId),
    links,
  );
  return {
    ...page,
    results: page.results.map((o) => ({
      id: o.id,
      order_id: o.orderId,
      type: o.type,
      subscription_id: o.subscriptionId,
      plan_id: o.planId,
      plan_version_id: o.planVersionId,
      start_date: o.startDate,
      end_date: o.endDate,
      channel_app_id: o.channelAppId,
      order: full.get(o.orderId) ?? null,
      created_at: o.createdAt,
    })),
  };
}

/** The invoices of the subscription's orders (paid ones, refunds), newest first. */
export async function listSubscriptionInvoices(
  ctx: ServiceContext,
  id: number,
  q: ListQuery,
  scope: SubscriptionScope,
  links: LinkContext,
) {
  // The subscription and its orders' ids in one batch; then the invoices (the orders module lists them by order id).
  const [rows, ids] = await ctx.db.batch([
    ctx.db
      .select({ appId: s.appId, orderId: s.orderId })
      .from(s)
      .where(and(eq(s.id, id), scopeSql(ctx, scope))),
    ctx.db
      .select({ orderId: m.orderId })
      .from(m)
      .where(ordersOf(ctx, id, scope)),
  ]);
  const row = rows[0];
  if (!row) throw subscriptionNotFound(id);
  const orderIds = [...new Set([row.orderId, ...ids.map((o) => o.orderId)])];
  return listInvoicesOfOrders({ ...ctx, appId: row.appId }, orderIds, q, links);
}
