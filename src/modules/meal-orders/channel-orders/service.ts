import { and, eq, getTableColumns, isNotNull, or, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { mergePages, rowFieldOf, windowOf } from "../../../core/list-merge";
import { fieldsOf, type ListQuery, listPage, type Page } from "../../../core/listing";
import { inList } from "../../../core/sql";
import type { Db } from "../../../db/client";
import type { LinkContext } from "../../orders";
import { channelShards } from "../../sales-channels";
import type { MealOrder } from "../orders/schemas";
import { MEAL_ORDER_LIST, mealOrderViews } from "../orders/service";
import { mealOrders } from "../tables";

/**
 * Meal orders across stores (MX3, CA15). A channel store sees the orders placed through it at the
 * providers it is ACTIVELY connected to, and nothing once a connection is deactivated or deleted;
 * a provider store sees the orders it received through channels (its own orders: no connection is
 * needed to read them). Each order is shown as its provider's (`app_id`). A provider's orders live on
 * its shard (docs/shards.md): the channel's view reads its own shard and the shards of its active
 * providers, at once, never another, and merges their pages.
 */

type Row = typeof mealOrders.$inferSelect;
/** A service context of store `appId` over `db` (its shard), for the views of its orders. */
export type ContextOf = (appId: number, db: Db) => ServiceContext;

/** The views of rows of several stores of one shard: one `mealOrderViews` per provider on the page. */
async function viewsAcross(contextOf: ContextOf, db: Db, rows: Row[], links: LinkContext): Promise<MealOrder[]> {
  const byStore = new Map<number, Row[]>();
  for (const r of rows) byStore.set(r.appId, [...(byStore.get(r.appId) ?? []), r]);
  const views = new Map<Row, MealOrder>();
  await Promise.all(
    [...byStore].map(async ([appId, of]) => {
      const byId = new Map((await mealOrderViews(contextOf(appId, db), of, links)).map((v) => [v.id, v]));
      for (const r of of) views.set(r, byId.get(r.orderId)!);
    }),
  );
  return rows.map((r) => views.get(r)!);
}

/** Orders placed through the channel (by its customer `customerId`, when given) at `providerAppIds`. */
function channelScope(ctx: ServiceContext, providerAppIds: readonly number[], customerId?: number): SQL | undefined {
  if (!providerAppIds.length) return undefined;
  return and(
    eq(mealOrders.channelAppId, ctx.appId),
    inList(mealOrders.appId, providerAppIds),
    notDeleted(mealOrders),
    customerId === undefined ? undefined : eq(mealOrders.channelCustomerId, customerId),
  )!;
}

/** The provider's orders that came through any channel. */
const providerScope = (ctx: ServiceContext): SQL =>
  and(live(mealOrders, ctx.appId), isNotNull(mealOrders.channelAppId))!;

/** Each shard's part of a view: its database and what the view reads there (none: nothing to read). */
type Part = { db: Db; scope: SQL | undefined };

/** The merchant's view: on its own shard, the orders it received beside what it sold there; elsewhere what it sold. */
async function merchantParts(env: Env, ctx: ServiceContext): Promise<Part[]> {
  const shards = await channelShards(env, ctx, { own: true });
  return shards.map((s) => ({
    db: s.db,
    scope: s.own ? or(providerScope(ctx), channelScope(ctx, s.providerAppIds)) : channelScope(ctx, s.providerAppIds),
  }));
}

/** The channel customer's view: what they bought through the channel, on its providers' shards. */
async function customerParts(env: Env, ctx: ServiceContext, customerId: number): Promise<Part[]> {
  const shards = await channelShards(env, ctx, { own: false });
  return shards.map((s) => ({ db: s.db, scope: channelScope(ctx, s.providerAppIds, customerId) }));
}

const orderField = rowFieldOf(fieldsOf(MEAL_ORDER_LIST), getTableColumns(mealOrders));

async function pageOf(parts: Part[], contextOf: ContextOf, q: ListQuery, links: LinkContext): Promise<Page<MealOrder>> {
  // Each shard's first rows up to the page asked, at once; the page is cut from their merge.
  const read = parts.filter((p): p is { db: Db; scope: SQL } => p.scope !== undefined);
  const windows = await Promise.all(
    read.map(async (p) => {
      const page = await listPage(p.db, windowOf(q), { table: mealOrders, scope: () => p.scope });
      return { ...page, results: page.results.map((row) => ({ row, db: p.db })) };
    }),
  );
  const page = mergePages(q, windows, (r, field) => orderField(r.row, field));
  // The views of the page's rows only, each shard's at once.
  const byDb = new Map<Db, Row[]>();
  for (const r of page.results) byDb.set(r.db, [...(byDb.get(r.db) ?? []), r.row]);
  const views = new Map<Row, MealOrder>();
  await Promise.all(
    [...byDb].map(async ([db, rows]) => {
      const shown = await viewsAcross(contextOf, db, rows, links);
      for (const [i, r] of rows.entries()) views.set(r, shown[i]!);
    }),
  );
  return { ...page, results: page.results.map((r) => views.get(r.row)!) };
}

/**
 * One order by id: ids are unique per shard only, so each shard of the view is asked, at once, and
 * the first in the view's order of shards answers (the store's own, then its providers').
 */
async function oneOf(parts: Part[], contextOf: ContextOf, id: number, links: LinkContext): Promise<MealOrder> {
  const found = await Promise.all(
    parts.map(async (p) =>
      p.scope === undefined
        ? undefined
        : await p.db
            .select()
            .from(mealOrders)
            .where(and(p.scope, eq(mealOrders.orderId, id)))
            .get(),
    ),
  );
  const at = found.findIndex((r) => r !== undefined);
  if (at < 0) throw ApiError.notFound("meal_order_not_found", `Meal order ${id}`);
  return (await viewsAcross(contextOf, parts[at]!.db, [found[at]!], links))[0]!;
}

/** MX3: as a channel, the orders sold through it; as a provider, those it received through channels. */
export async function listSalesChannelOrders(
  env: Env,
  ctx: ServiceContext,
  contextOf: ContextOf,
  q: ListQuery,
  links: LinkContext,
) {
  return pageOf(await merchantParts(env, ctx), contextOf, q, links);
}

export async function salesChannelOrder(
  env: Env,
  ctx: ServiceContext,
  contextOf: ContextOf,
  id: number,
  links: LinkContext,
) {
  return oneOf(await merchantParts(env, ctx), contextOf, id, links);
}

/** CA15: the channel customer's own orders at the providers their store is actively connected to. */
export async function listMyChannelOrders(
  env: Env,
  ctx: ServiceContext,
  contextOf: ContextOf,
  customerId: number,
  q: ListQuery,
  links: LinkContext,
) {
  return pageOf(await customerParts(env, ctx, customerId), contextOf, q, links);
}
