import { and, asc, type Column, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, type TenantTable } from "../../../core/crud/tenant-table";
import { inList } from "../../../core/sql";
import { visiblePlan } from "../plans/service";
import { liveRestaurant } from "../restaurants/service";
import {
  deliveryWindows,
  planCategories,
  planDays,
  planOptions,
  plans,
  planVersions,
  products,
  restaurantBranches,
  restaurants,
} from "../tables";

/**
 * What meals commerce reads of the meals side to sell a plan and deliver it: a plan version with
 * its plan, restaurant, menu cycle (days, categories, options), and the restaurant's branches and
 * windows; and menu products sold as add-ons. Rows as the tables hold them (plain values).
 */

export type PlanRow = typeof plans.$inferSelect;
export type PlanVersionRow = typeof planVersions.$inferSelect;
export type RestaurantRow = typeof restaurants.$inferSelect;
export type PlanDayRow = typeof planDays.$inferSelect;
export type PlanCategoryRow = typeof planCategories.$inferSelect;
export type PlanOptionRow = typeof planOptions.$inferSelect;
export type BranchRow = typeof restaurantBranches.$inferSelect;
export type WindowRow = typeof deliveryWindows.$inferSelect;
export type MealProductRow = typeof products.$inferSelect;

export type PlanForOrder = {
  plan: PlanRow;
  version: PlanVersionRow;
  restaurant: RestaurantRow;
  /** The menu cycle, by `repetition_counter`. */
  days: PlanDayRow[];
  categories: PlanCategoryRow[];
  /** Active options only. */
  options: PlanOptionRow[];
  branches: BranchRow[];
  windows: WindowRow[];
};

/**
 * A version on sale (its plan visible, its restaurant live and active) with everything an order
 * of it is checked against, in one D1 batch; undefined when the store has no such version. The id
 * may be a subquery (the version a subscription names), so that the read goes beside the one of its row.
 */
export async function planVersionForOrder(
  ctx: ServiceContext,
  versionId: number | SQL,
): Promise<PlanForOrder | undefined> {
  const planId = sql`(SELECT ${planVersions.planId} FROM ${planVersions} WHERE ${planVersions.id} = ${versionId})`;
  const restaurantId = sql`(SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`;
  const byPlan = (t: TenantTable & { planId: Column }) => and(live(t, ctx.appId), sql`${t.planId} = ${planId}`);
  const byRestaurant = (t: TenantTable & { restaurantId: Column }) =>
    and(live(t, ctx.appId), sql`${t.restaurantId} = ${restaurantId}`);
  const [versions, planRows, rs, days, categories, options, branches, windows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(planVersions)
      .where(and(live(planVersions, ctx.appId), sql`${planVersions.id} = ${versionId}`)),
    ctx.db
      .select()
      .from(plans)
      .where(and(visiblePlan(ctx.appId), sql`${plans.id} = ${planId}`)),
    ctx.db
      .select()
      .from(restaurants)
      .where(and(liveRestaurant(ctx.appId), sql`${restaurants.id} = ${restaurantId}`)),
    ctx.db.select().from(planDays).where(byPlan(planDays)).orderBy(asc(planDays.repetitionCounter), asc(planDays.id)),
    ctx.db
      .select()
      .from(planCategories)
      .where(byPlan(planCategories))
      .orderBy(asc(planCategories.ordering), asc(planCategories.id)),
    ctx.db
      .select()
      .from(planOptions)
      .where(and(byPlan(planOptions), eq(planOptions.isActive, true)))
      .orderBy(asc(planOptions.ordering), asc(planOptions.id)),
    ctx.db
      .select()
      .from(restaurantBranches)
      .where(byRestaurant(restaurantBranches))
      .orderBy(asc(restaurantBranches.id)),
    ctx.db.select().from(deliveryWindows).where(byRestaurant(deliveryWindows)).orderBy(asc(deliveryWindows.id)),
  ]);
  const [version, plan, restaurant] = [versions[0], planRows[0], rs[0]];
  if (!version || !plan || !restaurant) return undefined;
  return { plan, version, restaurant, days, categories, options, branches, windows };
}

/** The store's live, active menu products of `ids` (add-ons), with their restaurant. */
export async function mealProductsByIds(ctx: ServiceContext, ids: readonly number[]): Promise<MealProductRow[]> {
  if (!ids.length) return [];
  return ctx.db
    .select()
    .from(products)
    .where(and(live(products, ctx.appId), eq(products.isActive, true), inList(products.id, [...new Set(ids)])));
}

export type Named = { name_en: string; name_ar: string };

/** The names of plans and branches that orders name (deleted ones too: an order keeps what it sold). */
export async function orderNames(
  ctx: ServiceContext,
  ids: { planIds: readonly number[]; branchIds: readonly number[] },
): Promise<{ plans: Map<number, Named>; branches: Map<number, Named> }> {
  const none = [0];
  const [planRows, branchRows] = await ctx.db.batch([
    ctx.db
      .select({ id: plans.id, nameEn: plans.nameEn, nameAr: plans.nameAr })
      .from(plans)
      .where(and(eq(plans.appId, ctx.appId), inList(plans.id, ids.planIds.length ? [...new Set(ids.planIds)] : none))),
    ctx.db
      .select({ id: restaurantBranches.id, nameEn: restaurantBranches.nameEn, nameAr: restaurantBranches.nameAr })
      .from(restaurantBranches)
      .where(
        and(
          eq(restaurantBranches.appId, ctx.appId),
          inList(restaurantBranches.id, ids.branchIds.length ? [...new Set(ids.branchIds)] : none),
        ),
      ),
  ]);
  const named = (r: { id: number; nameEn: string; nameAr: string }) =>
    [r.id, { name_en: r.nameEn, name_ar: r.nameAr }] as const;
  return { plans: new Map(planRows.map(named)), branches: new Map(branchRows.map(named)) };
}

/**
 * The store's live restaurant `id` (active or not: its subscriptions still deliver), or undefined;
 * `id` may be a subquery (the restaurant a subscription names).
 */
export async function restaurantById(ctx: ServiceContext, id: number | SQL): Promise<RestaurantRow | undefined> {
  return ctx.db
    .select()
    .from(restaurants)
    .where(and(live(restaurants, ctx.appId), sql`${restaurants.id} = ${id}`))
    .get();
}
