import { and, eq, type SQL } from "drizzle-orm";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, type Page, parseListQuery } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { type SubscriptionTerms, subscriptionTermsOf, windowsAndBranchesByIds } from "../../meals";
import { calendarOf, firstChangeableDate } from "../rules";
import { mealSubscriptions, OPEN_SUBORDER_STATUSES, SUBORDER_STATUSES, suborders } from "../tables";
import { SUBORDER_STATES, type Suborder } from "./schemas";

export type SuborderRow = typeof suborders.$inferSelect;
const o = suborders;

/** The customer's own live suborders. */
export const mineSql = (ctx: ServiceContext, customerId: number): SQL =>
  and(live(o, ctx.appId), eq(o.customerId, customerId))!;

export const SUBORDER_LIST: ListSpec = {
  fields: {
    id: { column: o.id, kind: "integer" },
    subscription_id: { column: o.subscriptionId, kind: "integer" },
    restaurant_id: { column: o.restaurantId, kind: "integer" },
    date: { column: o.date, kind: "date" },
    original_date: { column: o.originalDate, kind: "date" },
    status: { column: o.status, kind: "string", values: SUBORDER_STATUSES },
    is_frozen: { column: o.isFrozen, kind: "boolean" },
    is_postponed: { column: o.isPostponed, kind: "boolean" },
    is_pickup: { column: o.isPickup, kind: "boolean" },
    delivery_window_id: { column: o.deliveryWindowId, kind: "integer", nullable: true },
    pickup_branch_id: { column: o.pickupBranchId, kind: "integer", nullable: true },
    created_at: { column: o.createdAt, kind: "datetime" },
  },
  defaultOrder: "date",
  idColumn: o.id,
};

/**
 * The list query with the FOUND `state` filter (frozen or postponed suborders, MM1's "Frozen/Postponed
 * SubOrders") taken out and turned into its condition; the rest is the list's usual parameters.
 */
export function suborderListQuery(params: URLSearchParams): ListQuery {
  const state = params.get("state");
  const rest = new URLSearchParams(params);
  rest.delete("state");
  const errors: FieldErrors = Object.create(null);
  if (params.getAll("state").length > 1) addFieldError(errors, "state", "Give this parameter once.");
  else if (state !== null && !(SUBORDER_STATES as readonly string[]).includes(state))
    addFieldError(errors, "state", `Must be one of: ${SUBORDER_STATES.join(", ")}.`);
  let q: ListQuery;
  try {
    q = parseListQuery(rest, SUBORDER_LIST);
  } catch (error) {
    if (error instanceof ApiError && error.extra.errors && Object.keys(errors).length)
      for (const [k, v] of Object.entries(errors)) error.extra.errors[k] = v;
    throw error;
  }
  if (Object.keys(errors).length) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
  if (state === null) return q;
  const cond = state === "frozen" ? eq(o.isFrozen, true) : eq(o.isPostponed, true);
  return { ...q, where: q.where ? and(q.where, cond) : cond };
}

/** The plan versions of the suborders' subscriptions, and their terms (the calendar the cutoff is counted in). */
export async function suborderTerms(ctx: ServiceContext, rows: readonly { subscriptionId: number }[]) {
  const subs = rows.length
    ? await ctx.db
        .select({ id: mealSubscriptions.id, versionId: mealSubscriptions.planVersionId })
        .from(mealSubscriptions)
        .where(
          and(
            eq(mealSubscriptions.appId, ctx.appId),
            inList(
              mealSubscriptions.id,
              rows.map((r) => r.subscriptionId),
            ),
          ),
        )
    : [];
  const terms = await subscriptionTermsOf(
    ctx.db,
    [ctx.appId],
    subs.map((s) => s.versionId),
  );
  const bySubscription = new Map<number, SubscriptionTerms>();
  for (const s of subs) {
    const t = terms.get(s.versionId);
    if (t) bySubscription.set(s.id, t);
  }
  return bySubscription;
}

export const isChangeable = (r: SuborderRow, t: SubscriptionTerms | undefined, at: number) =>
  t !== undefined &&
  OPEN_SUBORDER_STATUSES.includes(r.status) &&
  (r.isFrozen || r.date >= firstChangeableDate(calendarOf(t), at));

/** The views of `rows`: their window and branch, and whether they can still be changed. */
export async function suborderViews(ctx: ServiceContext, rows: readonly SuborderRow[]): Promise<Suborder[]> {
  if (!rows.length) return [];
  const [terms, refs] = await Promise.all([
    suborderTerms(ctx, rows),
    windowsAndBranchesByIds(
      ctx.db,
      [ctx.appId],
      rows.flatMap((r) => (r.deliveryWindowId === null ? [] : [r.deliveryWindowId])),
      rows.flatMap((r) => (r.pickupBranchId === null ? [] : [r.pickupBranchId])),
    ),
  ]);
  const at = nowMs();
  return rows.map((r) => {
    const w = r.deliveryWindowId === null ? undefined : refs.windows.get(r.deliveryWindowId);
    const b = r.pickupBranchId === null ? undefined : refs.branches.get(r.pickupBranchId);
    return {
      id: r.id,
      app_id: r.appId,
      subscription_id: r.subscriptionId,
      customer_id: r.customerId,
      restaurant_id: r.restaurantId,
      date: r.date,
      original_date: r.originalDate,
      status: r.status,
      is_frozen: r.isFrozen,
      is_postponed: r.isPostponed,
      is_changeable: isChangeable(r, terms.get(r.subscriptionId), at),
      plan_day_id: r.planDayId,
      is_pickup: r.isPickup,
      pickup_branch: b ? { id: b.id, name_en: b.nameEn, name_ar: b.nameAr } : null,
      delivery_window: w ? { id: w.id, from_time: w.fromTime, to_time: w.toTime } : null,
      location_id: r.locationId,
      location: r.location ?? null,
      meals: r.meals,
      add_ons: r.addOns,
      captain_id: r.captainId,
      notes: r.notes,
      delivered_at: r.deliveredAt,
      created_at: r.createdAt,
      modified_at: r.modifiedAt,
      deleted_at: r.deletedAt,
      is_deleted: r.isDeleted,
      ordering: r.ordering,
    };
  });
}

/** A page of the customer's suborders. */
export async function listSuborders(ctx: ServiceContext, q: ListQuery, customerId: number): Promise<Page<Suborder>> {
  const page = await listPage(ctx.db, q, { table: o, scope: () => mineSql(ctx, customerId) });
  return { ...page, results: await suborderViews(ctx, page.results) };
}

/** The customer's suborders of `ids` that exist (others are absent). */
export async function mySuborders(ctx: ServiceContext, customerId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return ctx.db
    .select()
    .from(o)
    .where(and(mineSql(ctx, customerId), inList(o.id, ids)));
}

export async function suborderDetails(ctx: ServiceContext, id: number, customerId: number): Promise<Suborder> {
  const [row] = await mySuborders(ctx, customerId, [id]);
  if (!row) throw ApiError.notFound("suborder_not_found", `Suborder ${id}`);
  return (await suborderViews(ctx, [row]))[0]!;
}
