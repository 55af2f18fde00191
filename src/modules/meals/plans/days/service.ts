import type { z } from "@hono/zod-openapi";
import { and, eq, ne, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../../core/context";
import { live, softDeleted, tenantTable } from "../../../../core/crud/tenant-table";
import { ApiError } from "../../../../core/errors";
import { nowIso } from "../../../../core/time";
import { bodyError, changed, insertedRow, write } from "../../shared";
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

/** One day per place in the cycle, and no place beyond the plan's `repetition`. */
async function checkCycle(
  ctx: ServiceContext,
  plan: { id: number; repetition: number },
  counter: number | undefined,
  self: number | null,
) {
  if (counter === undefined) return;
  if (counter > plan.repetition)
    throw bodyError(
      "repetition_counter",
      `The plan's cycle has ${plan.repetition} days: give 1 to ${plan.repetition}.`,
    );
  const taken = await ctx.db
    .select({ id: planDays.id })
    .from(planDays)
    .where(
      and(
        live(planDays, ctx.appId),
        eq(planDays.planId, plan.id),
        eq(planDays.repetitionCounter, counter),
        self === null ? undefined : ne(planDays.id, self),
      ),
    )
    .get();
  if (taken)
    throw ApiError.conflict(
      "plan_day_taken",
      `Day ${taken.id} already serves place ${counter} of the cycle; change or delete it first.`,
      { plan_day: taken.id },
    );
}

export async function createPlanDay(ctx: ServiceContext, planId: number, body: z.infer<typeof CreatePlanDaySchema>) {
  const plan = await planRows.find(ctx, planId);
  await checkCycle(ctx, plan, body.repetition_counter, null);
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
  const day = await planDayRows.find(ctx, id);
  await checkCycle(ctx, await planRows.find(ctx, day.planId), body.repetition_counter, id);
  await write(ctx, changed(ctx, "plan.updated", day.planId), [
    planDayRows.update(ctx, id, { ...planDayColumns(body), modifiedAt: nowIso() }),
  ]);
  return planDayView(await planDayRows.find(ctx, id));
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
  await write(ctx, changed(ctx, "plan.updated", category.planId), [
    planCategoryRows.update(ctx, id, { ...planCategoryColumns(body), modifiedAt: nowIso() }),
  ]);
  return planCategoryRecordView(await planCategoryRows.find(ctx, id));
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

/** An option offers a live product of the plan's restaurant, once per category. */
async function checkOptionProduct(
  ctx: ServiceContext,
  planId: number,
  categoryId: number,
  productId: number | undefined,
  self: number | null,
) {
  if (productId === undefined) return;
  const [p, dup] = await ctx.db.batch([
    ctx.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          live(products, ctx.appId),
          eq(products.id, productId),
          sql`${products.restaurantId} = (SELECT ${plans.restaurantId} FROM ${plans} WHERE ${plans.id} = ${planId})`,
        ),
      ),
    ctx.db
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
  ]);
  if (!p.length) throw bodyError("product_id", "Must be a product of the plan's restaurant.");
  if (dup[0])
    throw ApiError.conflict(
      "plan_option_taken",
      `Option ${dup[0].id} already offers product ${productId} in this category.`,
      { plan_option: dup[0].id },
    );
}

export async function createPlanOption(
  ctx: ServiceContext,
  categoryId: number,
  body: z.infer<typeof CreatePlanOptionSchema>,
) {
  const category = await planCategoryRows.find(ctx, categoryId);
  await checkOptionProduct(ctx, category.planId, categoryId, body.product_id, null);
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
  const option = await planOptionRows.find(ctx, id);
  await checkOptionProduct(ctx, option.planId, option.planCategoryId, body.product_id, id);
  await write(ctx, changed(ctx, "plan.updated", option.planId), [
    planOptionRows.update(ctx, id, { ...planOptionColumns(body), modifiedAt: nowIso() }),
  ]);
  return planOptionRecordView(await planOptionRows.find(ctx, id));
}

export async function deletePlanOption(ctx: ServiceContext, id: number): Promise<void> {
  const option = await planOptionRows.find(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", option.planId), [planOptionRows.softDelete(ctx, id)]);
}
