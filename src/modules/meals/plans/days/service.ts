import type { z } from "@hono/zod-openapi";
import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../../../core/context";
import { live, softDeleted, tenantTable } from "../../../../core/crud/tenant-table";
import { ApiError } from "../../../../core/errors";
import { nowIso } from "../../../../core/time";
import { bodyError, type Check, changed, findChecked, insertedRow, updatedRow, write } from "../../shared";
import { planCategories, planDays, planOptions, plans, products } from "../../tables";
import { planRows } from "../service";
import { planCategoryRecordView, planDayView, planOptionRecordView } from "../views";
import type {
  CreatePlanCategorySchema,
  CreatePlanDaySchema,
  CreatePlanOptionSchema,
  UpdatePlanCategorySchema,
  UpdatePlanDaySchema,
  UpdatePlanOptionSchema,
} from "./schemas";

/**
 * The plan's menu cycle: its days (masters), each with plan categories of options (products).
 * A change at any level is the plan's (`plan.updated`).
 */

const planDayRows = tenantTable(planDays, { label: "Plan day", notFound: "plan_day_not_found" });
const planCategoryRows = tenantTable(planCategories, { label: "Plan category", notFound: "plan_category_not_found" });
const planOptionRows = tenantTable(planOptions, { label: "Plan option", notFound: "plan_option_not_found" });

// ---- days ----

type PlanDayFields = z.infer<typeof UpdatePlanDaySchema>;

/** The body's fields → the day's columns (drizzle leaves the undefined ones out). */
const planDayColumns = (b: PlanDayFields) => ({
  day: b.day,
  repetitionCounter: b.repetition_counter,
  masterId: b.master_id,
  ordering: b.ordering,
});

/**
 * One day per place in the cycle, and no place beyond the plan's `repetition`: the plan `planId`
 * (an id, or a subquery of the day's) with the day already at that place, read in the write's
 * round of reads.
 */
function cycleCheck<Record>(
  ctx: ServiceContext,
  planId: number | SQL,
  counter: number | undefined,
  self: number | null,
): Check<Record> | undefined {
  if (counter === undefined) return undefined;
  const taken = and(
    live(planDays, ctx.appId),
    eq(planDays.planId, plans.id),
    eq(planDays.repetitionCounter, counter),
    self === null ? undefined : ne(planDays.id, self),
  );
  return {
    read: ctx.db
      .select({
        id: plans.id,
        repetition: plans.repetition,
        taken: sql<number | null>`(SELECT ${planDays.id} FROM ${planDays} WHERE ${taken} LIMIT 1)`,
      })
      .from(plans)
      .where(and(live(plans, ctx.appId), sql`${plans.id} = ${planId}`)),
    refuse: (rows: { repetition: number; taken: number | null }[]) => {
      const plan = rows[0];
      if (!plan) throw ApiError.notFound("plan_not_found", `Plan ${typeof planId === "number" ? planId : ""}`.trim());
      if (counter > plan.repetition)
        throw bodyError(
          "repetition_counter",
          `The plan's cycle has ${plan.repetition} days: give 1 to ${plan.repetition}.`,
        );
      if (plan.taken !== null)
        throw ApiError.conflict(
          "plan_day_taken",
          `Day ${plan.taken} already serves place ${counter} of the cycle; change or delete it first.`,
          { plan_day: plan.taken },
        );
    },
  };
}

export async function createPlanDay(ctx: ServiceContext, planId: number, body: z.infer<typeof CreatePlanDaySchema>) {
  const plan = await findChecked(ctx, planRows, planId, [cycleCheck(ctx, planId, body.repetition_counter, null)]);
  const [inserted] = await write(ctx, changed(ctx, "plan.updated", planId), [
    planDayRows.insert(ctx, {
      ...planDayColumns(body),
      appId: ctx.appId,
      planId,
      restaurantId: plan.restaurantId,
      day: body.day,
      repetitionCounter: body.repetition_counter,
    }),
  ]);
  return planDayView(insertedRow<typeof planDays.$inferSelect>(inserted));
}

export async function updatePlanDay(ctx: ServiceContext, id: number, body: PlanDayFields) {
  const dayPlan = sql`(SELECT ${planDays.planId} FROM ${planDays} WHERE ${planDays.id} = ${id})`;
  const day = await findChecked(ctx, planDayRows, id, [cycleCheck(ctx, dayPlan, body.repetition_counter, id)]);
  const [updated] = await write(ctx, changed(ctx, "plan.updated", day.planId), [
    planDayRows.update(ctx, id, { ...planDayColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return planDayView(await updatedRow(ctx, planDayRows, id, updated));
}

/** Its categories and their options go with it. */
export async function deletePlanDay(ctx: ServiceContext, id: number): Promise<void> {
  const day = await planDayRows.find(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", day.planId), [
    planDayRows.softDelete(ctx, id),
    ctx.db
      .update(planOptions)
      .set(softDeleted())
      .where(
        and(
          live(planOptions, ctx.appId),
          sql`${planOptions.planCategoryId} IN (SELECT id FROM ${planCategories}
              WHERE ${planCategories.planDayId} = ${id})`,
        ),
      ),
    ctx.db
      .update(planCategories)
      .set(softDeleted())
      .where(and(live(planCategories, ctx.appId), eq(planCategories.planDayId, id))),
  ]);
}

// ---- plan categories ----

type PlanCategoryFields = z.infer<typeof UpdatePlanCategorySchema>;

/** The body's fields → the category's columns (drizzle leaves the undefined ones out). */
const planCategoryColumns = (b: PlanCategoryFields) => ({
  nameEn: b.name_en,
  nameAr: b.name_ar,
  isMultiSelect: b.is_multi_select,
  maxSelectedOptions: b.max_selected_options,
  categoryMasterId: b.category_master_id,
  ordering: b.ordering,
});

export async function createPlanCategory(
  ctx: ServiceContext,
  dayId: number,
  body: z.infer<typeof CreatePlanCategorySchema>,
) {
  const day = await planDayRows.find(ctx, dayId);
  const [inserted] = await write(ctx, changed(ctx, "plan.updated", day.planId), [
    planCategoryRows.insert(ctx, {
      ...planCategoryColumns(body),
      appId: ctx.appId,
      planId: day.planId,
      planDayId: dayId,
      nameEn: body.name_en,
      nameAr: body.name_ar,
    }),
  ]);
  return planCategoryRecordView(insertedRow<typeof planCategories.$inferSelect>(inserted));
}

export async function updatePlanCategory(ctx: ServiceContext, id: number, body: PlanCategoryFields) {
  const category = await planCategoryRows.find(ctx, id);
  const [updated] = await write(ctx, changed(ctx, "plan.updated", category.planId), [
    planCategoryRows.update(ctx, id, { ...planCategoryColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return planCategoryRecordView(await updatedRow(ctx, planCategoryRows, id, updated));
}

/** Its options go with it. */
export async function deletePlanCategory(ctx: ServiceContext, id: number): Promise<void> {
  const category = await planCategoryRows.find(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", category.planId), [
    planCategoryRows.softDelete(ctx, id),
    ctx.db
      .update(planOptions)
      .set(softDeleted())
      .where(and(live(planOptions, ctx.appId), eq(planOptions.planCategoryId, id))),
  ]);
}

// ---- plan options ----

type PlanOptionFields = z.infer<typeof UpdatePlanOptionSchema>;

/** The body's fields → the option's columns (drizzle leaves the undefined ones out). */
const planOptionColumns = (b: PlanOptionFields) => ({
  productId: b.product_id,
  isRecommended: b.is_recommended,
  isActive: b.is_active,
  ordering: b.ordering,
});

/**
 * An option offers a live product of the plan's restaurant, once per category: two checks of the
 * write's round of reads. `planId` and `categoryId` are ids or subqueries.
 */
function optionProductChecks<Record>(
  ctx: ServiceContext,
  planId: number | SQL,
  categoryId: number | SQL,
  productId: number | undefined,
  self: number | null,
): Check<Record>[] {
  if (productId === undefined) return [];
  const product = {
    read: ctx.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          live(products, ctx.appId),
          eq(products.id, productId),
          sql`${products.restaurantId} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
    refuse: (rows: unknown[]) => {
      if (!rows.length) throw bodyError("product_id", "Must be a product of the plan's restaurant.");
    },
  };
  const duplicate = {
    read: ctx.db
      .select({ id: planOptions.id })
      .from(planOptions)
      .where(
        and(
          live(planOptions, ctx.appId),
          eq(planOptions.planCategoryId, categoryId),
          eq(planOptions.productId, productId),
          self === null ? undefined : ne(planOptions.id, self),
        ),
      ),
    refuse: ([dup]: { id: number }[]) => {
      if (dup)
        throw ApiError.conflict(
          "plan_option_taken",
          `Option ${dup.id} already offers product ${productId} in this category.`,
          { plan_option: dup.id },
        );
    },
  };
  return [product, duplicate];
}

export async function createPlanOption(
  ctx: ServiceContext,
  categoryId: number,
  body: z.infer<typeof CreatePlanOptionSchema>,
) {
  const categoryPlan = sql`(SELECT ${planCategories.planId} FROM ${planCategories} WHERE ${planCategories.id} = ${categoryId})`;
  const category = await findChecked(
    ctx,
    planCategoryRows,
    categoryId,
    optionProductChecks(ctx, categoryPlan, categoryId, body.product_id, null),
  );
  const [inserted] = await write(ctx, changed(ctx, "plan.updated", category.planId), [
    planOptionRows.insert(ctx, {
      ...planOptionColumns(body),
      appId: ctx.appId,
      planId: category.planId,
      planCategoryId: categoryId,
      productId: body.product_id,
    }),
  ]);
  return planOptionRecordView(insertedRow<typeof planOptions.$inferSelect>(inserted));
}

export async function updatePlanOption(ctx: ServiceContext, id: number, body: PlanOptionFields) {
  const ofOption = (column: SQLiteColumn) =>
    sql`(SELECT ${column} FROM ${planOptions} WHERE ${planOptions.id} = ${id})`;
  const option = await findChecked(
    ctx,
    planOptionRows,
    id,
    optionProductChecks(ctx, ofOption(planOptions.planId), ofOption(planOptions.planCategoryId), body.product_id, id),
  );
  const [updated] = await write(ctx, changed(ctx, "plan.updated", option.planId), [
    planOptionRows.update(ctx, id, { ...planOptionColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return planOptionRecordView(await updatedRow(ctx, planOptionRows, id, updated));
}

export async function deletePlanOption(ctx: ServiceContext, id: number): Promise<void> {
  const option = await planOptionRows.find(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", option.planId), [planOptionRows.softDelete(ctx, id)]);
}
