import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { live, notDeleted, notDeletedRow } from "../../../core/crud/tenant-table";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import {
  type ListParent,
  type ListQuery,
  type ListSpec,
  listPageWith,
  type Page,
  searchColumns,
} from "../../../core/listing";
import type { Db } from "../../../db/client";
import { plans, planTags, planVersions, restaurants, SUBSCRIPTION_TYPES } from "../tables";
import type { PlanSummary } from "./schemas";
import { visiblePlan } from "./service";
import { planSummaryView } from "./views";

/**
 * The plans a provider store offers to sales channels: live, active and `is_marketplace_active`, of
 * an active restaurant. Read by the sales channels module for a channel that an active connection
 * lets see the provider (it checks that; these functions only read the provider's rows).
 */

const offeredBy = (providerAppId: number): SQL => and(visiblePlan(providerAppId), eq(plans.isMarketplaceActive, true))!;

export const OFFERED_PLAN_LIST: ListSpec = {
  fields: {
    id: { column: plans.id, kind: "integer" },
    name_en: { column: plans.nameEn, kind: "string" },
    name_ar: { column: plans.nameAr, kind: "string" },
    ordering: { column: plans.ordering, kind: "integer" },
    restaurant_id: { column: plans.restaurantId, kind: "integer" },
    subscription_type: { column: plans.subscriptionType, kind: "string", values: SUBSCRIPTION_TYPES },
    is_marketplace_featured: { column: plans.isMarketplaceFeatured, kind: "boolean" },
    avg_daily_meal_calories: { column: plans.avgDailyMealCalories, kind: "number" },
  },
  search: searchColumns(plans.nameEn, plans.nameAr, plans.subtitleEn, plans.subtitleAr),
  searchDescription: "A term found in the plan's names or subtitles; may repeat (all terms must match).",
  defaultOrder: "ordering",
  idColumn: plans.id,
  sync: { modifiedAt: plans.modifiedAt, softDeleted: false },
};

/**
 * What the caller reads in the same statement as the page: `parent`, its own check (a channel's
 * active connection, refused before any page); `of`, a scalar subquery over the page's plan ids
 * (a subquery), whose value comes back as `beside`.
 */
export type OfferedPlansBeside = { parent?: ListParent; of?: (planIds: SQL) => SQL };

/** A page of the plans the provider offers to channels, with their versions, tags and restaurants, in one statement. */
export async function listOfferedPlans(
  db: Db,
  providerAppId: number,
  q: ListQuery,
  alongside: OfferedPlansBeside = {},
): Promise<{ page: Page<PlanSummary>; beside: unknown }> {
  const { page, nested } = await listPageWith(
    db,
    q,
    { table: plans, scope: () => offeredBy(providerAppId), parent: alongside.parent },
    (rows) => ({
      beside: alongside.of ? alongside.of(sql`SELECT id FROM ${rows}`) : sql`NULL`,
      versions: rowsJson(
        planVersions,
        and(live(planVersions, providerAppId), sql`${planVersions.planId} IN (SELECT id FROM ${rows})`)!,
        [asc(planVersions.ordering), asc(planVersions.id)],
      ),
      tags: rowsJson(
        planTags,
        and(
          live(planTags, providerAppId),
          sql`${planTags.id} IN (SELECT t.value FROM ${rows} AS p, json_each(p.tag_ids) t)`,
        )!,
      ),
      restaurants: rowsJson(
        restaurants,
        and(live(restaurants, providerAppId), sql`${restaurants.id} IN (SELECT restaurant_id FROM ${rows})`)!,
      ),
    }),
  );
  const versions = decodeRows(planVersions, nested.versions);
  const tags = decodeRows(planTags, nested.tags);
  const rs = decodeRows(restaurants, nested.restaurants);
  return {
    page: {
      ...page,
      results: page.results.map((p) =>
        planSummaryView(p, {
          tags,
          versions: versions.filter((v) => v.planId === p.id),
          restaurant: rs.find((r) => r.id === p.restaurantId)!,
        }),
      ),
    },
    beside: nested.beside,
  };
}

/** A plan of the provider's, named by the channel. */
export type OfferedPlanRef = { providerAppId: number; planId: number };

/**
 * The plans among `refs` that their provider offers to channels now, by plan id, each read only if
 * it is that provider's (a plan id of another store is absent). One statement, whatever the count.
 */
export async function offeredPlansByIds(db: Db, refs: readonly OfferedPlanRef[]): Promise<Map<number, PlanSummary>> {
  if (!refs.length) return new Map();
  const pairs = JSON.stringify(refs.map((r) => [r.providerAppId, r.planId]));
  const parts = offeredPlansJson(sql`SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(${pairs})`);
  const row = await db.get<Record<keyof typeof parts, string>>(
    sql`SELECT ${sql.join(
      Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
      sql`, `,
    )}`,
  );
  return offeredPlansFromJson(row ?? {});
}

/**
 * `offeredPlansByIds` as JSON parts of a statement that reads more: `pairs` a subquery of
 * (provider app id, plan id) rows (a page of listings); `offeredPlansFromJson` reads them.
 */
export function offeredPlansJson(pairs: SQL) {
  const offered = and(
    sql`(${plans.appId}, ${plans.id}) IN (${pairs})`,
    notDeleted(plans),
    eq(plans.isActive, true),
    eq(plans.isMarketplaceActive, true),
    // Qualified by hand: inside the subquery a bare column would be the restaurant's.
    sql`EXISTS (SELECT 1 FROM ${restaurants} r WHERE r.id = ${plans}.${sql.identifier(plans.restaurantId.name)}
      AND r.app_id = ${plans}.${sql.identifier(plans.appId.name)} AND ${notDeletedRow("r")} AND r.is_active = 1)`,
  )!;
  const ids = sql`(SELECT id FROM ${plans} WHERE ${offered})`;
  return {
    plans: rowsJson(plans, offered),
    versions: rowsJson(
      planVersions,
      and(
        sql`${planVersions.planId} IN ${ids}`,
        notDeleted(planVersions),
        sql`${planVersions.appId} = (SELECT p.app_id FROM ${plans} p WHERE p.id = ${planVersions.planId})`,
      )!,
      [asc(planVersions.ordering), asc(planVersions.id)],
    ),
    tags: rowsJson(
      planTags,
      and(
        notDeleted(planTags),
        sql`(${planTags.appId}, ${planTags.id}) IN (SELECT p.app_id, t.value FROM ${plans} p, json_each(p.tag_ids) t
          WHERE p.id IN ${ids})`,
      )!,
    ),
    restaurants: rowsJson(
      restaurants,
      sql`(${restaurants.appId}, ${restaurants.id}) IN (SELECT p.app_id, p.restaurant_id FROM ${plans} p
        WHERE p.id IN ${ids})`,
    ),
  };
}

/** The plans of `offeredPlansJson`'s parts (as text or parsed), by plan id. */
export function offeredPlansFromJson(
  parts: Partial<Record<keyof ReturnType<typeof offeredPlansJson>, unknown>>,
): Map<number, PlanSummary> {
  const rows = decodeRows(plans, parts.plans);
  const versions = decodeRows(planVersions, parts.versions);
  const tags = decodeRows(planTags, parts.tags);
  const rs = decodeRows(restaurants, parts.restaurants);
  return new Map(
    rows.map((p) => [
      p.id,
      planSummaryView(p, {
        tags: tags.filter((t) => t.appId === p.appId),
        versions: versions.filter((v) => v.planId === p.id),
        restaurant: rs.find((r) => r.id === p.restaurantId && r.appId === p.appId)!,
      }),
    ]),
  );
}
