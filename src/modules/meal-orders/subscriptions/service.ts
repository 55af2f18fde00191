import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { liveRow, notDeleted, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { todayIn } from "../../../core/time";
import {
  type SubscriptionTerms,
  subscriptionTermsFromJson,
  subscriptionTermsJson,
  type windowsAndBranchesByIds,
  windowsAndBranchesFromJson,
  windowsAndBranchesJson,
} from "../../meals";
import { type Delivery, type ManagedSubscription, managementOf } from "../rules";
import { MEAL_SUBSCRIPTION_STATUSES, mealSubscriptions, suborders } from "../tables";
import type { MealSubscription, MealSubscriptionDetails } from "./schemas";

export type SubscriptionRow = typeof mealSubscriptions.$inferSelect;

/**
 * Who sees which meal subscriptions (every read and change goes through one of these):
 * - `customer`: the customer's own, in the store of the request;
 * - `channel_customer`: a sales channel's customer (CA15): those they bought through the channel
 *   store of the request, at providers it is actively connected to (`providerAppIds`, a subquery of
 *   the connections read in the same statement);
 * - `channel_merchant` (MX4): a channel store sees what it sold at its active providers; a
 *   provider store sees what it received through any channel.
 */
export type SubscriptionScope =
  | { kind: "customer"; customerId: number }
  | { kind: "channel_customer"; customerId: number; providerAppIds: SQL }
  | { kind: "channel_merchant"; providerAppIds: SQL };

const s = mealSubscriptions;

export function scopeSql(ctx: ServiceContext, scope: SubscriptionScope): SQL {
  switch (scope.kind) {
    case "customer":
      return sql`${liveRow(ctx.appId, s)} AND ${s.customerId} = ${scope.customerId}`;
    case "channel_customer":
      return sql`${s.channelAppId} = ${ctx.appId} AND ${s.channelCustomerId} = ${scope.customerId}
        AND ${s.appId} IN (${scope.providerAppIds}) AND ${notDeletedRow(s)}`;
    case "channel_merchant":
      return sql`((${s.channelAppId} = ${ctx.appId} AND ${s.appId} IN (${scope.providerAppIds}))
        OR (${s.appId} = ${ctx.appId} AND ${s.channelAppId} IS NOT NULL)) AND ${notDeletedRow(s)}`;
  }
}

export const SUBSCRIPTION_LIST: ListSpec = {
  fields: {
    id: { column: s.id, kind: "integer" },
    status: { column: s.status, kind: "string", values: MEAL_SUBSCRIPTION_STATUSES },
    start_date: { column: s.startDate, kind: "date" },
    end_date: { column: s.endDate, kind: "date" },
    plan_id: { column: s.planId, kind: "integer" },
    plan_version_id: { column: s.planVersionId, kind: "integer" },
    restaurant_id: { column: s.restaurantId, kind: "integer" },
    is_pickup: { column: s.isPickup, kind: "boolean" },
    order_id: { column: s.orderId, kind: "integer" },
    created_at: { column: s.createdAt, kind: "datetime" },
  },
  defaultOrder: "-created_at",
  idColumn: s.id,
  sync: { modifiedAt: s.modifiedAt, softDeleted: false },
};

/** The channel lists also filter by the two stores. */
export const CHANNEL_SUBSCRIPTION_LIST: ListSpec = {
  ...SUBSCRIPTION_LIST,
  fields: {
    ...SUBSCRIPTION_LIST.fields,
    app_id: { column: s.appId, kind: "integer" },
    channel_app_id: { column: s.channelAppId, kind: "integer", nullable: true },
  },
};

export const subscriptionNotFound = (id: number) =>
  ApiError.notFound("meal_subscription_not_found", `Meal subscription ${id}`);

/** The subscription `id` in the scope, or 404 `meal_subscription_not_found`. */
export async function findSubscription(ctx: ServiceContext, id: number, scope: SubscriptionScope) {
  const row = await ctx.db
    .select()
    .from(s)
    .where(and(eq(s.id, id), scopeSql(ctx, scope)))
    .get();
  if (!row) throw subscriptionNotFound(id);
  return row;
}

/** Whether subscription `id` is in the scope (a view across shards asks each, core/list-merge.ts). */
export async function subscriptionInScope(ctx: ServiceContext, id: number, scope: SubscriptionScope): Promise<boolean> {
  const row = await ctx.db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.id, id), scopeSql(ctx, scope)))
    .get();
  return row !== undefined;
}

/**
 * The customer's live subscription `id` as reads sent beside its row's take it: the row's select,
 * and one of its columns as a subquery key (the version or restaurant it names) for the meals side.
 */
export function customerSubscriptionRead(ctx: ServiceContext, id: number, customerId: number) {
  const where = and(eq(s.id, id), scopeSql(ctx, { kind: "customer", customerId }))!;
  return {
    row: () => ctx.db.select().from(s).where(where).get(),
    column: (column: SQLiteColumn) => sql`(SELECT ${column} FROM ${s} WHERE ${where})`,
  };
}

/** The deliveries of subscriptions `ids` (of the stores `appIds`), as the rules read them, by subscription. */
export async function deliveriesOf(ctx: ServiceContext, appIds: readonly number[], ids: readonly number[]) {
  const out = new Map<number, Delivery[]>();
  if (!ids.length) return out;
  const rows = await ctx.db
    .select({
      id: suborders.id,
      subscriptionId: suborders.subscriptionId,
      date: suborders.date,
      status: suborders.status,
      isFrozen: suborders.isFrozen,
      isPostponed: suborders.isPostponed,
    })
    .from(suborders)
    .where(
      and(inList(suborders.appId, [...new Set(appIds)]), inList(suborders.subscriptionId, ids), notDeleted(suborders)),
    )
    .orderBy(asc(suborders.date), asc(suborders.id));
  for (const { subscriptionId, ...d } of rows) {
    const list = out.get(subscriptionId) ?? [];
    list.push(d);
    out.set(subscriptionId, list);
  }
  return out;
}

export const managedOf = (r: SubscriptionRow): ManagedSubscription => ({
  status: r.status,
  isPickup: r.isPickup,
  pausedFrom: r.pausedFrom,
  pauseAttemptsCredits: r.pauseAttemptsCredits,
  pauseCredits: r.pauseCredits,
  pausedDays: r.pausedDays,
  cancelCredits: r.cancelCredits,
});

const UPCOMING = 7;

/**
 * What the views of the subscriptions `rows` (a table expression of meal_subscriptions rows: a
 * list's page, or the one row of a read) need beside them, as JSON parts of the same statement:
 * their versions' terms, their deliveries, windows and branches.
 */
function viewParts(rows: SQL) {
  const of = (column: { name: string }) => sql`SELECT ${sql.identifier(column.name)} FROM ${rows}`;
  const d = suborders;
  const cols = [d.id, d.subscriptionId, d.date, d.status, d.isFrozen, d.isPostponed].map((c) => sql.identifier(c.name));
  return {
    terms: subscriptionTermsJson(of(s.appId), of(s.planVersionId)),
    deliveries: sql`(SELECT json_group_array(json_array(${sql.join(cols, sql`, `)})) FROM ${d}
      WHERE ${d.appId} IN (${of(s.appId)}) AND ${d.subscriptionId} IN (${of(s.id)}) AND ${notDeleted(d)})`,
    ...windowsAndBranchesJson(of(s.appId), of(s.deliveryWindowId), of(s.pickupBranchId)),
  };
}
type ViewParts = Record<keyof ReturnType<typeof viewParts>, unknown>;

/** The parsed `viewParts`: the deliveries by subscription (by date, then id), the terms, the windows and branches. */
function partsOf(parts: ViewParts) {
  const deliveries = new Map<number, Delivery[]>();
  const list = (typeof parts.deliveries === "string" ? JSON.parse(parts.deliveries) : (parts.deliveries ?? [])) as [
    number,
    number,
    string,
    Delivery["status"],
    number,
    number,
  ][];
  // By date, then id, as `deliveriesOf` reads them (json_group_array promises no order).
  list.sort((a, b) => (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : a[0] - b[0]));
  for (const [id, subscriptionId, date, status, isFrozen, isPostponed] of list) {
    const of = deliveries.get(subscriptionId) ?? [];
    of.push({ id, date, status, isFrozen: Boolean(isFrozen), isPostponed: Boolean(isPostponed) });
    deliveries.set(subscriptionId, of);
  }
  const terms = subscriptionTermsFromJson(parts.terms);
  const refs = windowsAndBranchesFromJson({ windows: parts.windows, branches: parts.branches });
  return { deliveries, terms, refs };
}

/** The views of `rows` from the parsed `viewParts`. */
function viewsFromParts(rows: readonly SubscriptionRow[], parts: ViewParts) {
  const { deliveries, terms, refs } = partsOf(parts);
  const at = nowMs();
  return rows.map((r) => viewWith(r, terms, deliveries, refs, at));
}

function viewWith(
  r: SubscriptionRow,
  terms: Map<number, SubscriptionTerms>,
  deliveries: Map<number, Delivery[]>,
  refs: Awaited<ReturnType<typeof windowsAndBranchesByIds>>,
  at: number,
): MealSubscriptionDetails {
  const t = terms.get(r.planVersionId);
  if (!t) throw new Error(`Meal subscription ${r.id}: plan version ${r.planVersionId} is missing`);
  return viewOf(r, t, deliveries.get(r.id) ?? [], refs, at);
}

function viewOf(
  r: SubscriptionRow,
  t: SubscriptionTerms,
  list: Delivery[],
  refs: Awaited<ReturnType<typeof windowsAndBranchesByIds>>,
  at: number,
): MealSubscriptionDetails {
  const today = todayIn(t.restaurant.timeZone, new Date(at));
  const open = list.filter((d) => d.status === "new" || d.status === "confirmed");
  const upcoming = open.filter((d) => !d.isFrozen && d.date >= today);
  const frozen = open.filter((d) => d.isFrozen);
  const window = r.deliveryWindowId === null ? undefined : refs.windows.get(r.deliveryWindowId);
  const branch = r.pickupBranchId === null ? undefined : refs.branches.get(r.pickupBranchId);
  const ref = (d: Delivery) => ({
    id: d.id,
    date: d.date,
    status: d.status,
    is_frozen: d.isFrozen,
    is_postponed: d.isPostponed,
  });
  return {
    id: r.id,
    app_id: r.appId,
    status: r.status,
    customer_id: r.customerId,
    order_id: r.orderId,
    restaurant: {
      id: t.restaurantId,
      name_en: t.restaurant.nameEn,
      name_ar: t.restaurant.nameAr,
      logo: t.restaurant.logo,
      time_zone: t.restaurant.timeZone,
    },
    plan: { id: t.planId, name_en: t.plan.nameEn, name_ar: t.plan.nameAr, image: t.plan.image },
    plan_version: { id: t.versionId, num_of_days: t.version.numOfDays, duration: t.version.duration },
    start_date: r.startDate,
    end_date: r.endDate,
    num_of_days: r.numOfDays,
    is_pickup: r.isPickup,
    pickup_branch: branch ? { id: branch.id, name_en: branch.nameEn, name_ar: branch.nameAr } : null,
    delivery_window: window ? { id: window.id, from_time: window.fromTime, to_time: window.toTime } : null,
    primary_location_id: r.primaryLocationId,
    secondary_location_id: r.secondaryLocationId,
    location: r.location ?? null,
    notes: r.notes,
    paused_from: r.pausedFrom,
    resume_date: r.resumeDate,
    cancelled_at: r.cancelledAt,
    renewed_from_id: r.renewedFromId,
    channel_app_id: r.channelAppId,
    channel_customer_id: r.channelCustomerId,
    ...managementOf(managedOf(r), list, t, at),
    suborders_summary: {
      total: list.length,
      delivered: list.filter((d) => d.status === "delivered").length,
      remaining: open.length,
      frozen: frozen.length,
      postponed: open.filter((d) => d.isPostponed).length,
      cancelled: list.filter((d) => d.status.startsWith("cancelled")).length,
      next_date: upcoming[0]?.date ?? null,
    },
    upcoming_suborders: [...upcoming.slice(0, UPCOMING), ...frozen].map(ref),
    custom_fields: r.customFields ?? null,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
    deleted_at: r.deletedAt,
    is_deleted: r.isDeleted,
    ordering: r.ordering,
  };
}

/** A page of the subscriptions in the scope. */
export async function listSubscriptions(
  ctx: ServiceContext,
  q: ListQuery,
  scope: SubscriptionScope,
): Promise<Page<MealSubscription>> {
  // One statement: the page and what its views need.
  const { page, nested } = await listPageWith(ctx.db, q, { table: s, scope: () => scopeSql(ctx, scope) }, viewParts);
  const views = viewsFromParts(page.results, nested);
  return { ...page, results: views.map(({ upcoming_suborders: _u, ...v }) => v) };
}

/**
 * The reads of one subscription in the scope keyed by its id, for a batch of their own or the end
 * of a change's batch (which then answers the subscription as changed): the row, and what its view
 * and its rules need (its terms, its deliveries, its window and branch).
 */
export function subscriptionReads(ctx: ServiceContext, id: number, scope: SubscriptionScope) {
  const where = and(eq(s.id, id), scopeSql(ctx, scope))!;
  const parts = viewParts(sql`(SELECT * FROM ${s} WHERE ${where})`);
  return [
    ctx.db.select().from(s).where(where),
    ctx.db
      .select({
        terms: parts.terms.as("terms"),
        deliveries: parts.deliveries.as("deliveries"),
        windows: parts.windows.as("windows"),
        branches: parts.branches.as("branches"),
      })
      .from(sql`(SELECT 1)`),
  ] as const;
}

type SubscriptionRead = [SubscriptionRow[], ViewParts[]];

/** The subscription `subscriptionReads` found (else its 404), its terms and its deliveries. */
export function subscriptionRead(id: number, [rows, partRows]: SubscriptionRead) {
  const row = rows[0];
  if (!row) throw subscriptionNotFound(id);
  const { deliveries, terms } = partsOf(partRows[0]!);
  const t = terms.get(row.planVersionId);
  if (!t) throw new Error(`Meal subscription ${id}: plan version ${row.planVersionId} is missing`);
  return { row, t, deliveries: deliveries.get(row.id) ?? [] };
}

/** The view of the subscription `subscriptionReads` found, else its 404. */
export function subscriptionFromReads(id: number, [rows, partRows]: SubscriptionRead): MealSubscriptionDetails {
  if (!rows[0]) throw subscriptionNotFound(id);
  return viewsFromParts(rows, partRows[0]!)[0]!;
}

/** One subscription in the scope, with its upcoming deliveries. */
export async function subscriptionDetails(
  ctx: ServiceContext,
  id: number,
  scope: SubscriptionScope,
): Promise<MealSubscriptionDetails> {
  // One batch keyed by the id: the row, and what its view needs.
  return subscriptionFromReads(id, (await ctx.db.batch(subscriptionReads(ctx, id, scope))) as SubscriptionRead);
}
