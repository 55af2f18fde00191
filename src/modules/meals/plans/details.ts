import { and, asc, type Column, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, type TenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { isOpen, nextMidnight, nextOpenDate, openDates, todayIn, weekdayOf } from "../dates";
import { nutritionsOf } from "../menus/products";
import { factsByProduct } from "../menus/views";
import { liveRestaurant } from "../restaurants/service";
import { planCategories, planDays, planOptions, plans, planTags, planVersions, products, restaurants } from "../tables";
import type { Plan } from "./schemas";
import { visiblePlan } from "./service";
import { deliveryClosures, earliestStartDate } from "./start";
import { planCategoryRecordView, planDayView, planOptionRecordView, planProductView, planSummaryView } from "./views";

/** Plan Details: a plan with every level of its tree, read in one D1 batch whatever the plan's size. */

/** A plan with every level of its tree, in one batch of nine statements, each selecting by plan. */
async function loadPlan(ctx: ServiceContext, planId: number) {
  const optionProducts = sql`SELECT ${planOptions.productId} FROM ${planOptions}
      WHERE ${planOptions.planId} = ${planId} AND ${live(planOptions, ctx.appId)}`;
  const byPlan = (t: TenantTable & { planId: Column }) => and(live(t, ctx.appId), eq(t.planId, planId));
  const [planRows, versions, tags, rs, days, categories, options, items, facts] = await ctx.db.batch([
    ctx.db
      .select()
      .from(plans)
      .where(and(visiblePlan(ctx.appId), eq(plans.id, planId))),
    ctx.db
      .select()
      .from(planVersions)
      .where(byPlan(planVersions))
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
          liveRestaurant(ctx.appId),
          sql`${restaurants.id} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db.select().from(planDays).where(byPlan(planDays)).orderBy(asc(planDays.repetitionCounter), asc(planDays.id)),
    ctx.db
      .select()
      .from(planCategories)
      .where(byPlan(planCategories))
      .orderBy(asc(planCategories.ordering), asc(planCategories.id)),
    ctx.db
      .select()
      .from(planOptions)
      .where(byPlan(planOptions))
      .orderBy(asc(planOptions.ordering), asc(planOptions.id)),
    ctx.db
      .select()
      .from(products)
      .where(and(live(products, ctx.appId), sql`${products.id} IN (${optionProducts})`)),
    nutritionsOf(ctx, optionProducts),
  ]);
  return {
    plan: planRows[0],
    versions,
    tags,
    restaurant: rs[0],
    days,
    categories,
    options,
    items,
    facts: factsByProduct(facts),
  };
}

/**
 * Plan Details. The version defaults to the plan's first; the start date to the earliest the
 * version allows, the first date Place Order accepts (`earliestStartDate`): today (where the
 * restaurant is) plus the larger of the plan's and the restaurant's `start_after`, not before the
 * version's `min_start_date`, moved to the first delivery day. Delivery days skip the version's
 * off days, the restaurant's off days and its closed dates; `dates` holds `num_of_days` of them.
 * The plan depends on today where the restaurant is: `validUntil` is when that day ends.
 */
export async function planDetails(
  ctx: ServiceContext,
  planId: number,
  q: { plan_version_id?: number; start_date?: string },
): Promise<{ plan: Plan; validUntil: number }> {
  const t = await loadPlan(ctx, planId);
  if (!t.plan || !t.restaurant) throw ApiError.notFound("plan_not_found", `Plan ${planId}`);
  const { plan, restaurant } = t;
  const bad = (field: string, message: string) =>
    ApiError.validation({ [field]: [message] }, "Invalid query parameters; see `errors`.");

  if (!t.versions.length) throw ApiError.conflict("plan_has_no_versions", `Plan ${planId} has no version on sale yet.`);
  const version = q.plan_version_id === undefined ? t.versions[0]! : t.versions.find((v) => v.id === q.plan_version_id);
  if (!version)
    throw bad(
      "plan_version_id",
      `Not a version of plan ${planId}; its versions are ${t.versions.map((v) => v.id).join(", ")}.`,
    );

  const days = deliveryClosures({ version, restaurant });
  const first = earliestStartDate({ plan, version, restaurant }, todayIn(restaurant.timeZone));
  let start: string;
  if (q.start_date === undefined) {
    if (!first) {
      throw ApiError.conflict(
        "plan_version_closed",
        `Version ${version.id} can no longer start: its last start date is ${version.maxStartDate}.`,
      );
    }
    start = first;
  } else {
    start = q.start_date;
    if (!first)
      throw bad(
        "start_date",
        `Version ${version.id} can no longer start: its last start date is ${version.maxStartDate}.`,
      );
    if (start < first) throw bad("start_date", `Too early: the first start date is ${first}.`);
    if (start > version.maxStartDate)
      throw bad("start_date", `Too late: the last start date of version ${version.id} is ${version.maxStartDate}.`);
    if (!isOpen(start, days))
      throw bad(
        "start_date",
        `Not a delivery day (${weekdayOf(start)}${restaurant.closedDates.includes(start) ? ", closed" : ""}); ` +
          `the next is ${nextOpenDate(start, days)}.`,
      );
  }

  const productById = new Map(t.items.map((p) => [p.id, p]));
  const optionsOf = new Map<number, typeof t.options>();
  for (const o of t.options)
    if (productById.has(o.productId))
      (optionsOf.get(o.planCategoryId) ?? optionsOf.set(o.planCategoryId, []).get(o.planCategoryId)!).push(o);

  const body: Plan = {
    ...planSummaryView(plan, { tags: t.tags, versions: t.versions, restaurant }),
    start_date: start,
    plan_version_id: version.id,
    dates: openDates(start, version.numOfDays, days),
    masters: t.days.map((d) => ({
      ...planDayView(d),
      restaurant_name: restaurant.nameEn,
      plan_categories: t.categories
        .filter((c) => c.planDayId === d.id)
        .map((c) => ({
          ...planCategoryRecordView(c),
          options: (optionsOf.get(c.id) ?? []).map((o) => ({
            ...planOptionRecordView(o),
            product: planProductView(productById.get(o.productId)!, t.facts),
          })),
        })),
    })),
  };
  return { plan: body, validUntil: nextMidnight(restaurant.timeZone) };
}
