import type { z } from "@hono/zod-openapi";
import { and, asc, type Column, eq, inArray, max, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, softDeleted, type TenantTable, tenantTable } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { insertedRowEvent } from "../../../core/events/outbox";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page, searchColumns } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { liveRestaurant, restaurantNamed } from "../restaurants/service";
import type { RestaurantRow } from "../restaurants/views";
import {
  bodyError,
  type Check,
  changed,
  createAndRead,
  findChecked,
  runChecks,
  type ViewRead,
  write,
  writeAndRead,
} from "../shared";
import {
  menus,
  planCategories,
  planDays,
  planOptions,
  plans,
  planTags,
  planVersions,
  restaurants,
  type SUBSCRIPTION_TYPES,
} from "../tables";
import type { CreatePlanSchema, PlanSummary, UpdatePlanSchema } from "./schemas";
import { type PlanRow, planSummaryView } from "./views";

/** Meal plans: List Plans, and the merchant's writes of a plan (its levels have their own). */

export const planRows = tenantTable(plans, { label: "Plan", notFound: "plan_not_found" });

/** Plans the public sees: live, active, of an active restaurant. */
export const visiblePlan = (appId: number) =>
  and(
    live(plans, appId),
    eq(plans.isActive, true),
    sql`${plans.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(appId)})`,
  )!;

export const PLAN_LIST: ListSpec = {
  fields: {
    id: { column: plans.id, kind: "integer" },
    name_en: { column: plans.nameEn, kind: "string" },
    ordering: { column: plans.ordering, kind: "integer" },
    avg_daily_meal_calories: { column: plans.avgDailyMealCalories, kind: "number" },
  },
  defaultOrder: "ordering",
  idColumn: plans.id,
  sync: { modifiedAt: plans.modifiedAt, softDeleted: false },
};

/** List Plans' filters, from its body. */
export type PlanFilters = {
  restaurant_id?: number;
  tag_ids?: number[];
  subscription_type?: (typeof SUBSCRIPTION_TYPES)[number];
  gender?: string;
  supported_service?: string;
  is_featured?: boolean;
  is_marketplace_featured?: boolean;
  min_calories?: number;
  max_calories?: number;
  search?: string;
};

function planConditions(appId: number, f: PlanFilters): SQL {
  const conditions: SQL[] = [visiblePlan(appId)];
  if (f.restaurant_id !== undefined) conditions.push(eq(plans.restaurantId, f.restaurant_id));
  if (f.tag_ids?.length)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM json_each(${plans.tagIds}) WHERE value IN (SELECT value
          FROM json_each(${JSON.stringify(f.tag_ids)})))`,
    );
  if (f.subscription_type !== undefined) conditions.push(eq(plans.subscriptionType, f.subscription_type));
  if (f.gender !== undefined) conditions.push(eq(plans.gender, f.gender));
  if (f.supported_service !== undefined) conditions.push(eq(plans.supportedService, f.supported_service));
  if (f.is_featured !== undefined) conditions.push(eq(plans.isFeatured, f.is_featured));
  if (f.is_marketplace_featured !== undefined)
    conditions.push(eq(plans.isMarketplaceFeatured, f.is_marketplace_featured));
  if (f.min_calories !== undefined) conditions.push(sql`${plans.avgDailyMealCalories} >= ${f.min_calories}`);
  if (f.max_calories !== undefined) conditions.push(sql`${plans.avgDailyMealCalories} <= ${f.max_calories}`);
  if (f.search !== undefined)
    conditions.push(searchColumns(plans.nameEn, plans.nameAr, plans.subtitleEn, plans.subtitleAr)(f.search).where);
  return and(...conditions)!;
}

/** List Plans: the page of plans matching the filters, with their versions, tags and restaurants, in one statement. */
export async function listPlans(ctx: ServiceContext, q: ListQuery, filters: PlanFilters): Promise<Page<PlanSummary>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: plans, scope: () => planConditions(ctx.appId, filters) },
    (rows) => ({
      versions: rowsJson(
        planVersions,
        and(live(planVersions, ctx.appId), sql`${planVersions.planId} IN (SELECT id FROM ${rows})`)!,
        [asc(planVersions.ordering), asc(planVersions.id)],
      ),
      tags: rowsJson(
        planTags,
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT t.value FROM ${rows} AS p, json_each(p.tag_ids) t)`,
        )!,
      ),
      restaurants: rowsJson(
        restaurants,
        and(live(restaurants, ctx.appId), sql`${restaurants.id} IN (SELECT restaurant_id FROM ${rows})`)!,
      ),
    }),
  );
  const versions = decodeRows(planVersions, nested.versions);
  const tags = decodeRows(planTags, nested.tags);
  const rs = decodeRows(restaurants, nested.restaurants);
  return {
    ...page,
    results: page.results.map((p) =>
      planSummaryView(p, {
        tags,
        versions: versions.filter((v) => v.planId === p.id),
        restaurant: rs.find((r) => r.id === p.restaurantId)!,
      }),
    ),
  };
}

// ---- merchant writes ----

type CreatePlan = z.infer<typeof CreatePlanSchema>;
type PlanFields = z.infer<typeof UpdatePlanSchema>;

/** The body's fields → the plan's columns (drizzle leaves the undefined ones out); `size` spreads over four. */
const planColumns = (b: PlanFields) => ({
  menuId: b.menu_id,
  nameEn: b.name_en,
  nameAr: b.name_ar,
  subtitleEn: b.subtitle_en,
  subtitleAr: b.subtitle_ar,
  descriptionEn: b.description_en,
  descriptionAr: b.description_ar,
  image: b.image,
  imageAr: b.image_ar,
  tagIds: b.tag_ids,
  dailyNumOfItems: b.daily_num_of_items,
  avgDailyMealCalories: b.avg_daily_meal_calories,
  startAfter: b.start_after,
  specialProductSelectionLimit: b.special_product_selection_limit,
  featuredTitleEn: b.featured_title_en,
  featuredTitleAr: b.featured_title_ar,
  isFeatured: b.is_featured,
  isMarketplaceFeatured: b.is_marketplace_featured,
  isMarketplaceActive: b.is_marketplace_active,
  isActive: b.is_active,
  supportedService: b.supported_service,
  gender: b.gender,
  subscriptionType: b.subscription_type,
  repetition: b.repetition,
  skipOptionSelection: b.skip_option_selection,
  sizeTitle: b.size?.title,
  sizeProteinAmount: b.size?.protein_amount,
  sizeCarbAmount: b.size?.carb_amount,
  sizeUnit: b.size?.unit,
  ordering: b.ordering,
});

/**
 * The plan as the merchant sees it (inactive too), with its versions, tags and restaurant: reads of
 * the write's batch. `id` is an id or the handle of the plan the batch inserts.
 */
function planRecord(ctx: ServiceContext, id: number | SQL): ViewRead<PlanSummary> {
  const reads = [
    ctx.db
      .select()
      .from(plans)
      .where(and(live(plans, ctx.appId), eq(plans.id, id))),
    ctx.db
      .select()
      .from(planVersions)
      .where(and(live(planVersions, ctx.appId), eq(planVersions.planId, id)))
      .orderBy(planVersions.ordering, planVersions.id),
    ctx.db
      .select()
      .from(planTags)
      .where(
        and(
          live(planTags, ctx.appId),
          sql`${planTags.id} IN (SELECT value FROM ${plans}, json_each(${plans.tagIds}) WHERE ${plans.id} = ${id})`,
        ),
      ),
    ctx.db
      .select()
      .from(restaurants)
      .where(sql`${restaurants.id} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${id})`),
  ] as const;
  return {
    reads: [...reads],
    view: (results) => {
      const [rows, versions, tags, rs] = results as [
        PlanRow[],
        (typeof planVersions.$inferSelect)[],
        (typeof planTags.$inferSelect)[],
        RestaurantRow[],
      ];
      if (!rows[0]) throw ApiError.notFound("plan_not_found", `Plan ${typeof id === "number" ? id : ""}`.trim());
      return planSummaryView(rows[0], { versions, tags, restaurant: rs[0]! });
    },
  };
}

/**
 * What a plan names must be the store's: its menu one of the plan's restaurant (`restaurantOf` the
 * plan), its tags live tags. Checks of the write's round of reads.
 */
function planRefChecks<Record>(
  ctx: ServiceContext,
  restaurantOf: (plan: Record) => number,
  body: { menu_id?: number; tag_ids?: number[] },
): Check<Record>[] {
  const checks: Check<Record>[] = [];
  if (body.menu_id !== undefined)
    checks.push({
      read: ctx.db
        .select({ restaurantId: menus.restaurantId })
        .from(menus)
        .where(and(live(menus, ctx.appId), eq(menus.id, body.menu_id))),
      refuse: ([m]: { restaurantId: number }[], plan) => {
        if (!m || m.restaurantId !== restaurantOf(plan))
          throw bodyError("menu_id", "Must be a menu of the plan's restaurant.");
      },
    });
  const tagIds = body.tag_ids;
  if (tagIds?.length)
    checks.push({
      read: ctx.db
        .select({ id: planTags.id })
        .from(planTags)
        .where(and(live(planTags, ctx.appId), inArray(planTags.id, tagIds))),
      refuse: (found: { id: number }[]) => {
        const missing = tagIds.filter((t) => !found.some((f) => f.id === t));
        if (missing.length) throw bodyError("tag_ids", `No such plan tags in this store: ${missing.join(", ")}.`);
      },
    });
  return checks;
}

/** A plan's cycle may not shrink below a day it has (`repetition`). */
function repetitionCheck(ctx: ServiceContext, id: number, repetition: number | undefined): Check<PlanRow> | undefined {
  if (repetition === undefined) return undefined;
  return {
    read: ctx.db
      .select({ n: max(planDays.repetitionCounter) })
      .from(planDays)
      .where(and(live(planDays, ctx.appId), eq(planDays.planId, id))),
    refuse: ([top]: { n: number | null }[]) => {
      if (top?.n && top.n > repetition)
        throw ApiError.conflict(
          "plan_days_beyond_repetition",
          `The plan has a day at place ${top.n} of its cycle; delete the days beyond ${repetition} first.`,
        );
    },
  };
}

export async function createPlan(ctx: ServiceContext, body: CreatePlan): Promise<PlanSummary> {
  await runChecks(ctx, [
    restaurantNamed(ctx, body.restaurant_id),
    ...planRefChecks(ctx, () => body.restaurant_id, body),
  ]);
  return createAndRead(
    ctx,
    planRows.insert(ctx, {
      ...planColumns(body),
      appId: ctx.appId,
      restaurantId: body.restaurant_id,
      menuId: body.menu_id,
      nameEn: body.name_en,
      nameAr: body.name_ar,
      dailyNumOfItems: body.daily_num_of_items,
      subscriptionType: body.subscription_type,
      repetition: body.repetition,
      sizeTitle: body.size.title,
      sizeProteinAmount: body.size.protein_amount,
    }),
    (id) => insertedRowEvent("plan.created", plans, { id }),
    (id) => planRecord(ctx, id),
  );
}

export async function updatePlan(ctx: ServiceContext, id: number, body: PlanFields): Promise<PlanSummary> {
  await findChecked(ctx, planRows, id, [
    ...planRefChecks(ctx, (plan: PlanRow) => plan.restaurantId, body),
    repetitionCheck(ctx, id, body.repetition),
  ]);
  return writeAndRead(
    ctx,
    changed(ctx, "plan.updated", id),
    [planRows.update(ctx, id, { ...planColumns(body), modifiedAt: nowIso() })],
    planRecord(ctx, id),
  );
}

/** The plan's versions, days, categories and options go with it. */
export async function deletePlan(ctx: ServiceContext, id: number): Promise<void> {
  await planRows.find(ctx, id);
  const gone = softDeleted();
  const ofPlan = (t: TenantTable & { planId: Column }) => and(live(t, ctx.appId), eq(t.planId, id));
  await write(ctx, changed(ctx, "plan.deleted", id), [
    planRows.softDelete(ctx, id),
    ctx.db.update(planVersions).set(gone).where(ofPlan(planVersions)),
    ctx.db.update(planDays).set(gone).where(ofPlan(planDays)),
    ctx.db.update(planCategories).set(gone).where(ofPlan(planCategories)),
    ctx.db.update(planOptions).set(gone).where(ofPlan(planOptions)),
  ]);
}
