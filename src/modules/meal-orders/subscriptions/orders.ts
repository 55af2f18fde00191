import { and, eq, or } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { type LinkContext, listInvoicesOfOrders, loadOrders } from "../../orders";
import { MEAL_ORDER_TYPES, mealOrders } from "../tables";
import type { SubscriptionOrder } from "./schemas";
import { findSubscription, type SubscriptionRow, type SubscriptionScope } from "./service";

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
};

/** The meal orders of the subscription: the one that bought it, its add-ons and renewals. */
const ordersOf = (r: SubscriptionRow) =>
  and(live(m, r.appId), or(eq(m.subscriptionId, r.id), eq(m.orderId, r.orderId)))!;

export async function listSubscriptionOrders(
  ctx: ServiceContext,
  id: number,
  q: ListQuery,
  scope: SubscriptionScope,
  links: LinkContext,
): Promise<Page<SubscriptionOrder>> {
  const row = await findSubscription(ctx, id, scope);
  const page = await listPage(ctx.db, q, { table: m, scope: () => ordersOf(row) });
  const owner = { ...ctx, appId: row.appId };
  const full = await loadOrders(
    owner,
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
  const row = await findSubscription(ctx, id, scope);
  const ids = await ctx.db.select({ orderId: m.orderId }).from(m).where(ordersOf(row));
  const orderIds = [...new Set([row.orderId, ...ids.map((o) => o.orderId)])];
  return listInvoicesOfOrders({ ...ctx, appId: row.appId }, orderIds, q, links);
}
