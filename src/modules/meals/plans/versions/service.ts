import type { z } from "@hono/zod-openapi";
import type { ServiceContext } from "../../../../core/context";
import { tenantTable } from "../../../../core/crud/tenant-table";
import { nowIso } from "../../../../core/time";
import { bodyError, changed, insertedRow, updatedRow, write } from "../../shared";
import { planVersions } from "../../tables";
import { planRows } from "../service";
import { planVersionRecordView } from "../views";
import type { CreatePlanVersionSchema, UpdatePlanVersionSchema } from "./schemas";

/** A plan's versions: priced durations, each with its range of start dates. A change is the plan's (`plan.updated`). */

const planVersionRows = tenantTable(planVersions, { label: "Plan version", notFound: "plan_version_not_found" });

type CreatePlanVersion = z.infer<typeof CreatePlanVersionSchema>;
type PlanVersionFields = z.infer<typeof UpdatePlanVersionSchema>;

/**
 * The body's fields → the version's columns (drizzle leaves the undefined ones out); the schema's `money`
 * gives prices in minor units already.
 */
const planVersionColumns = (b: PlanVersionFields) => ({
  minStartDate: b.min_start_date,
  maxStartDate: b.max_start_date,
  offDays: b.off_days,
  numOfDays: b.num_of_days,
  totalNumOfItems: b.total_num_of_items,
  deliveryPriceMinor: b.delivery_price,
  originalPriceMinor: b.original_price,
  discountPercentage: b.discount_percentage,
  duration: b.duration,
  pauseCredits: b.pause_credits,
  numOfPauseAttempts: b.num_of_pause_attempts,
  minOfPauseDays: b.min_of_pause_days,
  customFields: b.custom_fields,
  ordering: b.ordering,
});

export async function createPlanVersion(ctx: ServiceContext, planId: number, body: CreatePlanVersion) {
  await planRows.find(ctx, planId);
  const [inserted] = await write(ctx, changed(ctx, "plan.updated", planId), [
    planVersionRows.insert(ctx, {
      ...planVersionColumns(body),
      appId: ctx.appId,
      planId,
      minStartDate: body.min_start_date,
      maxStartDate: body.max_start_date,
      numOfDays: body.num_of_days,
      totalNumOfItems: body.total_num_of_items,
      originalPriceMinor: body.original_price,
    }),
  ]);
  return planVersionRecordView(insertedRow<typeof planVersions.$inferSelect>(inserted));
}

export async function updatePlanVersion(ctx: ServiceContext, id: number, body: PlanVersionFields) {
  const v = await planVersionRows.find(ctx, id);
  if ((body.min_start_date ?? v.minStartDate) > (body.max_start_date ?? v.maxStartDate))
    throw bodyError("min_start_date", "Must not be after max_start_date.");
  const [updated] = await write(ctx, changed(ctx, "plan.updated", v.planId), [
    planVersionRows.update(ctx, id, { ...planVersionColumns(body), modifiedAt: nowIso() }).returning(),
  ]);
  return planVersionRecordView(await updatedRow(ctx, planVersionRows, id, updated));
}

export async function deletePlanVersion(ctx: ServiceContext, id: number): Promise<void> {
  const v = await planVersionRows.find(ctx, id);
  await write(ctx, changed(ctx, "plan.updated", v.planId), [planVersionRows.softDelete(ctx, id)]);
}
