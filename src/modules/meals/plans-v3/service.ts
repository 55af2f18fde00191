import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListQuery,
  type ListSpec,
  listPage,
  listPageWith,
  mapPage,
  type Page,
  searchColumns,
} from "../../../core/listing";
import type { MenuOptionCategory } from "../menus-app/schemas";
import { menuOptionsPage, menuShown } from "../menus-app/service";
import { visiblePlan } from "../plans/service";
import { PLAN_TAG_LIST } from "../plans/tags";
import { planSummaryView, planTagView } from "../plans/views";
import type { RestaurantRow } from "../restaurants/views";
import { plans, planTags, planVersions, restaurants, SUBSCRIPTION_TYPES } from "../tables";
import type { SuperPlan } from "./schemas";

/** Plans v3 (MM4): featured tags, super plans, and a plan's menu categories. */

/** List Feature Plan Tags: the tags that the store's featured (and shown) plans carry. */
export async function listFeaturedPlanTags(ctx: ServiceContext, q: ListQuery) {
  const featured = sql`SELECT t.value FROM ${plans}, json_each(${plans.tagIds}) AS t
    WHERE ${and(visiblePlan(ctx.appId), eq(plans.isFeatured, true))}`;
  const page = await listPage(ctx.db, q, {
    table: planTags,
    scope: () => and(live(planTags, ctx.appId), sql`${planTags.id} IN (${featured})`)!,
  });
  return mapPage(page, planTagView);
}

export { PLAN_TAG_LIST };

/**
 * List Feature Plan Tags: chosen by the featured plans, so a tag leaves it when a plan changes,
 * not the tag: `modified_at` only (deleted tags are never on a live plan: deleting one is refused).
 */
export const FEATURED_PLAN_TAG_LIST: ListSpec = {
  ...PLAN_TAG_LIST,
  sync: { modifiedAt: planTags.modifiedAt, softDeleted: false },
};

export const SUPER_PLAN_LIST: ListSpec = {
  fields: {
    id: { column: plans.id, kind: "integer" },
    name_en: { column: plans.nameEn, kind: "string" },
    ordering: { column: plans.ordering, kind: "integer" },
    avg_daily_meal_calories: { column: plans.avgDailyMealCalories, kind: "number" },
    restaurant_id: { column: plans.restaurantId, kind: "integer" },
    subscription_type: { column: plans.subscriptionType, kind: "string", values: SUBSCRIPTION_TYPES },
    is_featured: { column: plans.isFeatured, kind: "boolean" },
    gender: { column: plans.gender, kind: "string", nullable: true },
  },
  search: searchColumns(plans.nameEn, plans.nameAr, plans.subtitleEn, plans.subtitleAr),
  defaultOrder: "ordering",
  idColumn: plans.id,
};

const restaurantOfPlan = (r: RestaurantRow) => ({
  id: r.id,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  logo: r.logo,
  supports_pickup: r.supportsPickup,
  supports_delivery: r.supportsDelivery,
  closed_dates: r.closedDates,
  off_days: r.offDays,
  time_zone: r.timeZone,
});

type Parts = {
  tags: (typeof planTags.$inferSelect)[];
  versions: (typeof planVersions.$inferSelect)[];
  restaurants: RestaurantRow[];
};

function superPlanView(p: typeof plans.$inferSelect, parts: Parts): SuperPlan {
  const restaurant = parts.restaurants.find((r) => r.id === p.restaurantId)!;
  const { restaurant: _one, ...plan } = planSummaryView(p, {
    tags: parts.tags,
    versions: parts.versions.filter((v) => v.planId === p.id),
    restaurant,
  });
  return { ...plan, restaurants: [restaurantOfPlan(restaurant)] };
}

/** The levels of the plans `ids` (a subquery) selects: versions, tags and restaurants, as JSON. */
const levels = (ctx: ServiceContext, ids: SQL) => ({
  versions: rowsJson(planVersions, and(live(planVersions, ctx.appId), sql`${planVersions.planId} IN (${ids})`)!, [
    asc(planVersions.ordering),
    asc(planVersions.id),
  ]),
  tags: rowsJson(
    planTags,
    and(
      live(planTags, ctx.appId),
      sql`${planTags.id} IN (SELECT t.value FROM ${plans} AS p, json_each(p.tag_ids) AS t WHERE p.id IN (${ids}))`,
    )!,
  ),
  restaurants: rowsJson(
    restaurants,
    and(
      live(restaurants, ctx.appId),
      sql`${restaurants.id} IN (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} IN (${ids}))`,
    )!,
  ),
});

const decoded = (nested: Record<"versions" | "tags" | "restaurants", unknown>): Parts => ({
  versions: decodeRows(planVersions, nested.versions),
  tags: decodeRows(planTags, nested.tags),
  restaurants: decodeRows(restaurants, nested.restaurants),
});

/** List Super Plans: a page of the shown plans, each with its versions, tags and restaurants; one statement. */
export async function listSuperPlans(ctx: ServiceContext, q: ListQuery): Promise<Page<SuperPlan>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: plans, scope: () => visiblePlan(ctx.appId) },
    (rows) => levels(ctx, sql`SELECT id FROM ${rows}`),
  );
  const parts = decoded(nested);
  return { ...page, results: page.results.map((p) => superPlanView(p, parts)) };
}

/** Super Plan Details: one shown plan in the same shape; one batch. */
export async function getSuperPlan(ctx: ServiceContext, planId: number): Promise<SuperPlan> {
  const [found, versions, tags, rs] = await ctx.db.batch([
    ctx.db
      .select()
      .from(plans)
      .where(and(visiblePlan(ctx.appId), eq(plans.id, planId))),
    ctx.db
      .select()
      .from(planVersions)
      .where(and(live(planVersions, ctx.appId), eq(planVersions.planId, planId)))
      .orderBy(asc(planVersions.ordering), asc(planVersions.id)),
    ctx.db
      .select()
      .from(planTags)
      .where(
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT value FROM ${plans}, json_each(${plans.tagIds}) WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db
      .select()
      .from(restaurants)
      .where(
        and(
          live(restaurants, ctx.appId),
          sql`${restaurants.id} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
  ]);
  if (!found[0]) throw ApiError.notFound("plan_not_found", `Plan ${planId}`);
  return superPlanView(found[0], { versions, tags, restaurants: rs });
}

/** A live plan of the store (shown or not: a customer may have bought one since taken off sale); else 404. */
export async function findStorePlan(ctx: ServiceContext, planId: number): Promise<{ id: number }> {
  const found = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(live(plans, ctx.appId), eq(plans.id, planId)))
    .get();
  if (!found) throw ApiError.notFound("plan_not_found", `Plan ${planId}`);
  return found;
}

/** Plan Menu Categories: the categories of the plan's menu, each with its active products. */
export async function listPlanMenuCategories(
  ctx: ServiceContext,
  planId: number,
  q: ListQuery,
): Promise<Page<MenuOptionCategory>> {
  const plan = and(visiblePlan(ctx.appId), eq(plans.id, planId));
  const menuId = sql`(SELECT ${plans.menuId} FROM ${plans} WHERE ${plan})`;
  // One statement. Its parent column: 1 when the menu is shown, else the plan's menu id negated
  // (a hidden menu), else NULL (a plan not shown, the first 404).
  return menuOptionsPage(
    ctx,
    menuId,
    {
      exists: sql`CASE WHEN ${menuShown(ctx, menuId)} THEN 1 ELSE -${menuId} END`,
      notFound: (found) =>
        found === null || found === undefined
          ? ApiError.notFound("plan_not_found", `Plan ${planId}`)
          : ApiError.notFound("menu_not_found", `Menu ${-Number(found)}`),
    },
    q,
  );
}
