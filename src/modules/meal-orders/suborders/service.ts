import { and, type Column, eq, type SQL, sql } from "drizzle-orm";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPageWith, type Page, parseListQuery } from "../../../core/listing";
import { inList } from "../../../core/sql";
import {
  type SubscriptionTerms,
  subscriptionTermsFromJson,
  subscriptionTermsJson,
  windowsAndBranchesFromJson,
  windowsAndBranchesJson,
} from "../../meals";
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
  sync: { modifiedAt: o.modifiedAt, softDeleted: false },
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

/**
 * The customer's suborders of `ids` that exist (others are absent), with the terms of their
 * subscriptions' versions (the calendar the cutoff is counted in), by subscription: one batch.
 */
export async function mySubordersWithTerms(ctx: ServiceContext, customerId: number, ids: readonly number[]) {
  if (!ids.length) return { rows: [] as SuborderRow[], terms: new Map<number, SubscriptionTerms>() };
  const where = and(mineSql(ctx, customerId), inList(o.id, ids))!;
  const parts = viewParts(ctx, sql`(SELECT * FROM ${o} WHERE ${where})`);
  const [rows, partRows] = await ctx.db.batch([
    ctx.db.select().from(o).where(where),
    ctx.db.select({ versions: parts.versions.as("versions"), terms: parts.terms.as("terms") }).from(sql`(SELECT 1)`),
  ]);
  return { rows, terms: termsBySubscription(partRows[0]!) };
}

/** A column of the customer's suborders `ids` as a subquery: the ids of what they name, for reads sent beside theirs. */
export const mySubordersColumn = (ctx: ServiceContext, customerId: number, ids: readonly number[], column: Column) =>
  sql`SELECT ${column} FROM ${o} WHERE ${and(mineSql(ctx, customerId), inList(o.id, ids))}`;

export const isChangeable = (r: SuborderRow, t: SubscriptionTerms | undefined, at: number) =>
  t !== undefined &&
  OPEN_SUBORDER_STATUSES.includes(r.status) &&
  (r.isFrozen || r.date >= firstChangeableDate(calendarOf(t), at));

/**
 * What the views of the suborders `rows` (a table expression of suborder rows of the store: a
 * list's page, or the one row of a read) need beside them, as JSON parts of the same statement:
 * their subscriptions' versions and those versions' terms, their windows and branches.
 */
function viewParts(ctx: ServiceContext, rows: SQL) {
  const of = (column: { name: string }) => sql`SELECT ${sql.identifier(column.name)} FROM ${rows}`;
  const m = mealSubscriptions;
  const subs = sql`${m.appId} = ${ctx.appId} AND ${m.id} IN (${of(o.subscriptionId)})`;
  return {
    versions: sql`(SELECT json_group_array(json_array(${m.id}, ${m.planVersionId})) FROM ${m} WHERE ${subs})`,
    terms: subscriptionTermsJson(sql`${ctx.appId}`, sql`SELECT ${m.planVersionId} FROM ${m} WHERE ${subs}`),
    ...windowsAndBranchesJson(sql`${ctx.appId}`, of(o.deliveryWindowId), of(o.pickupBranchId)),
  };
}

/** The terms of the subscriptions `viewParts` read, by subscription. */
function termsBySubscription(parts: { versions: unknown; terms: unknown }) {
  const terms = subscriptionTermsFromJson(parts.terms);
  const versions = (typeof parts.versions === "string" ? JSON.parse(parts.versions) : (parts.versions ?? [])) as [
    number,
    number,
  ][];
  const bySubscription = new Map<number, SubscriptionTerms>();
  for (const [id, versionId] of versions) {
    const t = terms.get(versionId);
    if (t) bySubscription.set(id, t);
  }
  return bySubscription;
}

/** The views of `rows` from the parsed `viewParts`. */
function viewsFromParts(rows: readonly SuborderRow[], parts: Record<keyof ReturnType<typeof viewParts>, unknown>) {
  return suborderViews(
    rows,
    termsBySubscription(parts),
    windowsAndBranchesFromJson({ windows: parts.windows, branches: parts.branches }),
  );
}

/** The views of `rows`: their window and branch, and whether they can still be changed. */
function suborderViews(
  rows: readonly SuborderRow[],
  terms: Map<number, SubscriptionTerms>,
  refs: ReturnType<typeof windowsAndBranchesFromJson>,
): Suborder[] {
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
  // One statement: the page and what its views need.
  const { page, nested } = await listPageWith(ctx.db, q, { table: o, scope: () => mineSql(ctx, customerId) }, (rows) =>
    viewParts(ctx, rows),
  );
  return { ...page, results: viewsFromParts(page.results, nested) };
}

/** The reads of Suborder Details keyed by the id, for a batch of their own or the end of a change's. */
export function suborderReads(ctx: ServiceContext, id: number, customerId: number) {
  const where = and(mineSql(ctx, customerId), eq(o.id, id))!;
  const parts = viewParts(ctx, sql`(SELECT * FROM ${o} WHERE ${where})`);
  return [
    ctx.db.select().from(o).where(where),
    ctx.db
      .select({
        versions: parts.versions.as("versions"),
        terms: parts.terms.as("terms"),
        windows: parts.windows.as("windows"),
        branches: parts.branches.as("branches"),
      })
      .from(sql`(SELECT 1)`),
  ] as const;
}

type SuborderRead = [SuborderRow[], Record<keyof ReturnType<typeof viewParts>, unknown>[]];

/** The view of the suborder `suborderReads` found, else its 404. */
export function suborderFromReads(id: number, [rows, partRows]: SuborderRead): Suborder {
  if (!rows[0]) throw ApiError.notFound("suborder_not_found", `Suborder ${id}`);
  return viewsFromParts(rows, partRows[0]!)[0]!;
}

export async function suborderDetails(ctx: ServiceContext, id: number, customerId: number): Promise<Suborder> {
  // One batch keyed by the id: the row, and what its view needs.
  return suborderFromReads(id, (await ctx.db.batch(suborderReads(ctx, id, customerId))) as SuborderRead);
}
