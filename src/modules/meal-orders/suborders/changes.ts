import { type Column, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import { emit, rowEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { getLocation, type Location } from "../../customers";
import {
  type DayCategory,
  dayCategoriesOf,
  deliversTo,
  type RestaurantLogistics,
  restaurantLogisticsOf,
} from "../../meals";
import { checkChangeable } from "../rules";
import { newToken, OPEN, SUB_DATE, SUB_ID, updateOpenSuborders } from "../subscriptions/writes";
import { type MealChoice, suborders } from "../tables";
import { SUBORDER_CHANGE_CODES, type Suborder, type SuborderBulkResult, type SuborderChangeCode } from "./schemas";
import { mySubordersColumn, mySubordersWithTerms, type SuborderRow, suborderFromReads, suborderReads } from "./service";

/**
 * Changes the customer makes to suborders before the cutoff (MM1): location, delivery window,
 * pickup branch, meals, one or many at once. Every id is answered on its own (not found, past the
 * cutoff, not served...); the good ones change in one batch, each guarded on its row as read, with
 * one `suborder.updated` each. The single-suborder operations are the same change for one id.
 */

export type SuborderChange =
  | { kind: "location"; location_id: number }
  | { kind: "delivery_window"; delivery_window_id: number }
  | { kind: "pickup_branch"; pickup_branch_id: number }
  | { kind: "meals"; meals: ReadonlyMap<number, MealChoice[]> };

const FIELDS: Record<SuborderChange["kind"], string[]> = {
  location: ["location"],
  delivery_window: ["delivery_window"],
  pickup_branch: ["pickup_branch"],
  meals: ["meals"],
};

const label = (id: number) => `Suborder ${id}`;

/** The errors of a day's choices against its plan categories (`max_selected_options`, active options). */
export function mealErrors(choices: readonly MealChoice[], categories: readonly DayCategory[], prefix = "meals") {
  const errors: FieldErrors = Object.create(null);
  choices.forEach((m, i) => {
    const c = categories.find((x) => x.id === m.plan_category_id);
    if (!c) {
      const known = categories.map((x) => x.id).join(", ") || "none";
      addFieldError(errors, `${prefix}.${i}.plan_category_id`, `Not a category of the suborder's day (its: ${known}).`);
      return;
    }
    const unknown = m.option_ids.filter((id) => !c.optionIds.includes(id));
    if (unknown.length)
      addFieldError(
        errors,
        `${prefix}.${i}.option_ids`,
        `Not active options of category ${c.id}: ${unknown.join(", ")}.`,
      );
    if (m.option_ids.length > c.maxSelectedOptions)
      addFieldError(
        errors,
        `${prefix}.${i}.option_ids`,
        `At most ${c.maxSelectedOptions} option(s) in category ${c.id}.`,
      );
  });
  return errors;
}

/** The choices after the change: those of the categories given replaced, the others kept. */
const merged = (current: readonly MealChoice[], given: readonly MealChoice[]) => [
  ...current.filter((m) => !given.some((g) => g.plan_category_id === m.plan_category_id)),
  ...given,
];

type Context = {
  logistics: Map<number, RestaurantLogistics>;
  location: Location | undefined;
  days: Map<number, DayCategory[]>;
};

/** Throws what is wrong with applying `change` to the suborder `r` (beyond the cutoff, checked before). */
function checkChange(r: SuborderRow, change: SuborderChange, c: Context, skipSelection: boolean): void {
  const l = c.logistics.get(r.restaurantId);
  switch (change.kind) {
    case "location":
      if (r.isPickup) throw pickup(r.id);
      if (!l || !deliversTo(l, [Number(c.location!.latitude), Number(c.location!.longitude)]))
        throw ApiError.conflict(
          "location_not_served",
          `The restaurant does not deliver to location ${c.location!.id}.`,
          {
            location_id: c.location!.id,
          },
        );
      return;
    case "delivery_window":
      if (r.isPickup) throw pickup(r.id);
      if (!l?.windows.some((w) => w.id === change.delivery_window_id))
        throw ApiError.conflict(
          "delivery_window_not_of_restaurant",
          `Delivery window ${change.delivery_window_id} is not a window of ${label(r.id)}'s restaurant serving subscriptions.`,
          { delivery_window_ids: l?.windows.map((w) => w.id) ?? [] },
        );
      return;
    case "pickup_branch":
      if (!r.isPickup)
        throw ApiError.conflict("suborder_not_pickup", `${label(r.id)} is delivered: it has no pickup branch.`);
      if (!l?.pickupBranches.some((b) => b.id === change.pickup_branch_id))
        throw ApiError.conflict(
          "pickup_branch_not_of_restaurant",
          `Branch ${change.pickup_branch_id} is not a pickup branch of ${label(r.id)}'s restaurant.`,
          { pickup_branch_ids: l?.pickupBranches.map((b) => b.id) ?? [] },
        );
      return;
    case "meals": {
      if (skipSelection)
        throw ApiError.conflict("meal_selection_skipped", "The plan skips option selection: the provider chooses.");
      const errors = mealErrors(change.meals.get(r.id) ?? [], c.days.get(r.planDayId ?? 0) ?? []);
      if (Object.keys(errors).length)
        throw ApiError.validation(errors, `The meals of ${label(r.id)} do not fit its plan day; see \`errors\`.`);
    }
  }
}

const pickup = (id: number) =>
  ApiError.conflict("suborder_is_pickup", `${label(id)} is picked up at a branch: it has no location or window.`);

/** The statement of the change for the suborders that passed, guarded on each row's status and date. */
function changeStatement(ctx: ServiceContext, ok: SuborderRow[], change: SuborderChange, c: Context, token: string) {
  const at = nowIso();
  switch (change.kind) {
    case "location":
      return updateOpenSuborders(
        ctx,
        ok,
        { locationId: c.location!.id, location: c.location as Record<string, unknown> },
        token,
        at,
      );
    case "delivery_window":
      return updateOpenSuborders(ctx, ok, { deliveryWindowId: change.delivery_window_id }, token, at);
    case "pickup_branch":
      return updateOpenSuborders(ctx, ok, { pickupBranchId: change.pickup_branch_id }, token, at);
    case "meals": {
      const map = JSON.stringify(ok.map((r) => [r.id, r.date, merged(r.meals, change.meals.get(r.id) ?? [])]));
      return ctx.db
        .update(suborders)
        .set({
          meals: sql`(SELECT json_extract(value, '$[2]') FROM json_each(${map}) WHERE value ->> 0 = ${SUB_ID})`,
          changeToken: token,
          modifiedAt: at,
        })
        .where(
          sql`${suborders.appId} = ${ctx.appId} AND ${OPEN}
            AND EXISTS (SELECT 1 FROM json_each(${map}) WHERE value ->> 0 = ${SUB_ID} AND value ->> 1 = ${SUB_DATE})`,
        );
    }
  }
}

export type Outcome = { id: number; error: ApiError | null };

/**
 * Applies `change` to the customer's suborders `ids`: one outcome per id, in the order given. The
 * rows with their terms, the location, and the restaurants' logistics or the plan days' categories
 * (read by the meals side through the rows, as subqueries) come in one round trip; then the guarded
 * batch, which ends with `after` (reads of the answer) when given: its results in `read`.
 */
export async function changeSuborders(
  ctx: ServiceContext,
  customerId: number,
  ids: readonly number[],
  change: SuborderChange,
  after: readonly BatchItem<"sqlite">[] = [],
): Promise<{ outcomes: Outcome[]; read: unknown[] | null }> {
  // The meals side reads by what the rows name: their restaurants or plan days, as subqueries.
  const named = (column: Column) => mySubordersColumn(ctx, customerId, ids, column);
  const [{ rows, terms }, location, logistics, days] = await Promise.all([
    mySubordersWithTerms(ctx, customerId, ids),
    change.kind === "location" ? getLocation(ctx, customerId, change.location_id) : undefined,
    change.kind === "meals" || !ids.length
      ? new Map<number, RestaurantLogistics>()
      : restaurantLogisticsOf(ctx.db, ctx.appId, named(suborders.restaurantId)),
    change.kind === "meals" && ids.length
      ? dayCategoriesOf(ctx.db, ctx.appId, named(suborders.planDayId))
      : new Map<number, DayCategory[]>(),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const c: Context = { logistics, location, days };
  const clock = nowMs();
  const errors = new Map<number, ApiError>();
  const ok: SuborderRow[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    const t = r && terms.get(r.subscriptionId);
    try {
      if (!r || !t) throw ApiError.notFound("suborder_not_found", label(id));
      checkChangeable(r, t, label(id), clock);
      checkChange(r, change, c, t.plan.skipOptionSelection);
      ok.push(r);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.set(id, error);
    }
  }
  let read: unknown[] | null = null;
  if (ok.length) {
    const token = newToken();
    const statement = changeStatement(ctx, ok, change, c, token).returning({ id: suborders.id });
    const fields = JSON.stringify(FIELDS[change.kind]);
    const { results } = await emit(
      ctx.db,
      ctx.events,
      [statement as BatchItem<"sqlite">, ...after],
      rowEvent(
        "suborder.updated",
        suborders,
        sql`app_id = ${ctx.appId} AND change_token = ${token}`,
        sql`json_object('id', id, 'subscription_id', subscription_id, 'date', date, 'fields', json(${fields}))`,
      ),
    );
    read = results.slice(1);
    const changed = new Set((results[0] as { id: number }[]).map((r) => r.id));
    for (const r of ok)
      if (!changed.has(r.id))
        errors.set(r.id, ApiError.conflict("concurrent_update", `${label(r.id)} changed meanwhile; retry.`));
  }
  return { outcomes: ids.map((id) => ({ id, error: errors.get(id) ?? null })), read };
}

/** A per-suborder code the document declares; any other error is the request's own, not one id's. */
function changeCode(error: ApiError): SuborderChangeCode {
  if (!(SUBORDER_CHANGE_CODES as readonly string[]).includes(error.code)) throw error;
  return error.code as SuborderChangeCode;
}

/** The bulk result shape (as the commerce subscriptions' bulk pause and resume answer). */
export function bulkResult(outcomes: readonly Outcome[]): SuborderBulkResult {
  const results = outcomes.map(({ id, error }) => ({
    id,
    success: error === null,
    error: error && {
      code: changeCode(error),
      detail: error.detail,
      ...(typeof error.extra.first_valid_date === "string" && { first_valid_date: error.extra.first_valid_date }),
    },
  }));
  const succeeded = results.filter((r) => r.success).length;
  return { results, succeeded_count: succeeded, failed_count: results.length - succeeded };
}

/** One suborder changed: its view (read back by the change's batch), or the error the change met. */
export async function changeSuborder(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  change: SuborderChange,
): Promise<Suborder> {
  const reads = suborderReads(ctx, id, customerId);
  const { outcomes, read } = await changeSuborders(ctx, customerId, [id], change, reads);
  if (outcomes[0]!.error) throw outcomes[0]!.error;
  return suborderFromReads(id, read as never);
}
