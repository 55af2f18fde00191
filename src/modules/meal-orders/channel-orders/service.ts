import { and, eq, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, listPage, type Page } from "../../../core/listing";
import type { LinkContext } from "../../orders";
import { connectedProviderAppIdsSql } from "../../sales-channels";
import type { MealOrder } from "../orders/schemas";
import { mealOrderViews } from "../orders/service";
import { mealOrders } from "../tables";

/**
 * Meal orders across stores (MX3, CA15). A channel store sees the orders placed through it at the
 * providers it is ACTIVELY connected to, and nothing once a connection is deactivated or deleted;
 * a provider store sees the orders it received through channels (its own orders: no connection is
 * needed to read them). Each order is shown as its provider's (`app_id`).
 */

type Row = typeof mealOrders.$inferSelect;
export type ContextOf = (appId: number) => ServiceContext;

/** The views of rows of several stores: one `mealOrderViews` per provider on the page. */
async function viewsAcross(contextOf: ContextOf, rows: Row[], links: LinkContext): Promise<MealOrder[]> {
  const byStore = new Map<number, Row[]>();
  for (const r of rows) byStore.set(r.appId, [...(byStore.get(r.appId) ?? []), r]);
  const views = new Map<number, MealOrder>();
  await Promise.all(
    [...byStore].map(async ([appId, of]) => {
      for (const v of await mealOrderViews(contextOf(appId), of, links)) views.set(v.id, v);
    }),
  );
  return rows.map((r) => views.get(r.orderId)!);
}

/** Orders placed through the channel `channelAppId` (by its customer `customerId`, when given), at active connections. */
function channelScope(ctx: ServiceContext, customerId?: number): SQL {
  return and(
    eq(mealOrders.channelAppId, ctx.appId),
    sql`${mealOrders.appId} IN (${connectedProviderAppIdsSql(ctx.appId)})`,
    notDeleted(mealOrders),
    customerId === undefined ? undefined : eq(mealOrders.channelCustomerId, customerId),
  )!;
}

/** The provider's orders that came through any channel. */
const providerScope = (ctx: ServiceContext): SQL =>
  and(live(mealOrders, ctx.appId), isNotNull(mealOrders.channelAppId))!;

async function pageOf(
  ctx: ServiceContext,
  contextOf: ContextOf,
  q: ListQuery,
  scope: SQL,
  links: LinkContext,
): Promise<Page<MealOrder>> {
  const p = await listPage(ctx.db, q, { table: mealOrders, scope: () => scope });
  return { ...p, results: await viewsAcross(contextOf, p.results, links) };
}

async function oneOf(ctx: ServiceContext, contextOf: ContextOf, id: number, scope: SQL, links: LinkContext) {
  const row = await ctx.db
    .select()
    .from(mealOrders)
    .where(and(scope, eq(mealOrders.orderId, id)))
    .get();
  if (!row) throw ApiError.notFound("meal_order_not_found", `Meal order ${id}`);
  return (await viewsAcross(contextOf, [row], links))[0]!;
}

/** MX3: as a channel, the orders sold through it; as a provider, those it received through channels. */
export async function listSalesChannelOrders(
  ctx: ServiceContext,
  contextOf: ContextOf,
  q: ListQuery,
  links: LinkContext,
) {
  return pageOf(ctx, contextOf, q, merchantScope(ctx), links);
}

export async function salesChannelOrder(ctx: ServiceContext, contextOf: ContextOf, id: number, links: LinkContext) {
  return oneOf(ctx, contextOf, id, merchantScope(ctx), links);
}

/** Either side's orders: the store's own (as a provider) or those sold through it (as a channel). */
function merchantScope(ctx: ServiceContext): SQL {
  return or(providerScope(ctx), channelScope(ctx))!;
}

/** CA15: the channel customer's own orders at the providers their store is actively connected to. */
export async function listMyChannelOrders(
  ctx: ServiceContext,
  contextOf: ContextOf,
  customerId: number,
  q: ListQuery,
  links: LinkContext,
) {
  return pageOf(ctx, contextOf, q, channelScope(ctx, customerId), links);
}
