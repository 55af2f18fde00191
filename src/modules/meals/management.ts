import { and, asc, type Column, eq, SQL, sql } from "drizzle-orm";
import { live, liveRow } from "../../core/crud/tenant-table";
import type { Weekday } from "../../core/fields";
import { decodeRows, rowsJson } from "../../core/json-rows";
import { inList } from "../../core/sql";
import type { Db } from "../../db/client";
import { distanceKm, insidePolygon } from "./geometry";
import {
  deliveryWindows,
  deliveryZones,
  planCategories,
  planOptions,
  plans,
  planVersions,
  restaurantBranches,
  restaurants,
} from "./tables";

/**
 * What meals commerce reads of the meals side to manage a bought subscription (its rules, its
 * calendar, the choices of its days, where and when it is delivered). Unlike the reads for a new
 * order, a version, plan or restaurant deleted since the purchase is still read: the subscription
 * keeps being delivered under the terms it was bought with.
 */

export type SubscriptionTerms = {
  appId: number;
  versionId: number;
  planId: number;
  restaurantId: number;
  plan: { nameEn: string; nameAr: string; image: string; skipOptionSelection: boolean };
  version: {
    numOfDays: number;
    offDays: Weekday[];
    duration: string | null;
    pauseCredits: number | null;
    numOfPauseAttempts: number | null;
    minOfPauseDays: number | null;
  };
  restaurant: {
    nameEn: string;
    nameAr: string;
    logo: string;
    timeZone: string;
    cutoffHours: number;
    offDays: Weekday[];
    closedDates: string[];
    supportsPickup: boolean;
    supportsDelivery: boolean;
  };
};

/** The columns of a version's terms, each with the table alias (`v`, `p`, `r`) the joined read gives it. */
const TERM_COLUMNS = {
  appId: ["v", planVersions.appId],
  versionId: ["v", planVersions.id],
  planId: ["p", plans.id],
  restaurantId: ["r", restaurants.id],
  numOfDays: ["v", planVersions.numOfDays],
  versionOffDays: ["v", planVersions.offDays],
  duration: ["v", planVersions.duration],
  pauseCredits: ["v", planVersions.pauseCredits],
  numOfPauseAttempts: ["v", planVersions.numOfPauseAttempts],
  minOfPauseDays: ["v", planVersions.minOfPauseDays],
  planNameEn: ["p", plans.nameEn],
  planNameAr: ["p", plans.nameAr],
  planImage: ["p", plans.image],
  skipOptionSelection: ["p", plans.skipOptionSelection],
  nameEn: ["r", restaurants.nameEn],
  nameAr: ["r", restaurants.nameAr],
  logo: ["r", restaurants.logo],
  timeZone: ["r", restaurants.timeZone],
  cutoffHours: ["r", restaurants.cutoffHours],
  offDays: ["r", restaurants.offDays],
  closedDates: ["r", restaurants.closedDates],
  supportsPickup: ["r", restaurants.supportsPickup],
  supportsDelivery: ["r", restaurants.supportsDelivery],
} as const;
type TermColumns = typeof TERM_COLUMNS;
type TermRow = { [K in keyof TermColumns]: TermColumns[K][1]["_"]["data"] };

/** The terms of plan versions `ids` of the stores `appIds`, by version id, in one statement. */
export async function subscriptionTermsOf(
  db: Db,
  appIds: readonly number[],
  ids: readonly number[],
): Promise<Map<number, SubscriptionTerms>> {
  if (!ids.length) return new Map();
  return termsByVersion(
    await db.all<Record<string, unknown>>(
      termsSelect(inList(sql`v.app_id`, [...new Set(appIds)]), inList(sql`v.id`, [...new Set(ids)]), false),
    ),
  );
}

/**
 * `subscriptionTermsOf` as a scalar subquery (JSON) of a statement that reads more: `appIds` and
 * `versionIds` are subqueries (the page's rows); `subscriptionTermsFromJson` reads its value.
 */
export const subscriptionTermsJson = (appIds: SQL, versionIds: SQL): SQL =>
  sql`(${termsSelect(sql`v.app_id IN (${appIds})`, sql`v.id IN (${versionIds})`, true)})`;

/** The value of `subscriptionTermsJson` (as text or parsed), by version id. */
export function subscriptionTermsFromJson(json: unknown): Map<number, SubscriptionTerms> {
  const keys = Object.keys(TERM_COLUMNS);
  const rows = (typeof json === "string" ? JSON.parse(json) : (json ?? [])) as unknown[][];
  return termsByVersion(rows.map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))));
}

/** The versions joined to their plans and restaurants: rows of TERM_COLUMNS, or one JSON array of them. */
function termsSelect(apps: SQL, versions: SQL, asJson: boolean): SQL {
  const cols = Object.entries(TERM_COLUMNS).map(
    ([key, [alias, column]]) => [key, sql`${sql.raw(alias)}.${sql.identifier(column.name)}`] as const,
  );
  const list = asJson
    ? sql`json_group_array(json_array(${sql.join(
        cols.map(([, c]) => c),
        sql`, `,
      )}))`
    : sql.join(
        cols.map(([key, c]) => sql`${c} AS ${sql.identifier(key)}`),
        sql`, `,
      );
  return sql`SELECT ${list} FROM ${planVersions} AS v
    INNER JOIN ${plans} AS p ON p.id = v.plan_id AND p.app_id = v.app_id
    INNER JOIN ${restaurants} AS r ON r.id = p.restaurant_id AND r.app_id = p.app_id
    WHERE ${apps} AND ${versions}`;
}

/** Rows of driver values (TERM_COLUMNS' keys) → the terms, by version id. */
function termsByVersion(raw: readonly Record<string, unknown>[]): Map<number, SubscriptionTerms> {
  const rows = raw.map((v) => {
    const row: Record<string, unknown> = {};
    for (const [key, [, column]] of Object.entries(TERM_COLUMNS))
      row[key] = v[key] === null || v[key] === undefined ? null : column.mapFromDriverValue(v[key] as never);
    return row as TermRow;
  });
  return new Map(
    rows.map((r) => [
      r.versionId,
      {
        appId: r.appId,
        versionId: r.versionId,
        planId: r.planId,
        restaurantId: r.restaurantId,
        plan: {
          nameEn: r.planNameEn,
          nameAr: r.planNameAr,
          image: r.planImage,
          skipOptionSelection: r.skipOptionSelection,
        },
        version: {
          numOfDays: r.numOfDays,
          offDays: r.versionOffDays,
          duration: r.duration,
          pauseCredits: r.pauseCredits,
          numOfPauseAttempts: r.numOfPauseAttempts,
          minOfPauseDays: r.minOfPauseDays,
        },
        restaurant: {
          nameEn: r.nameEn,
          nameAr: r.nameAr,
          logo: r.logo,
          timeZone: r.timeZone,
          cutoffHours: r.cutoffHours,
          offDays: r.offDays,
          closedDates: r.closedDates,
          supportsPickup: r.supportsPickup,
          supportsDelivery: r.supportsDelivery,
        },
      },
    ]),
  );
}

/** One category of a plan day, as a day's meals are checked against it. */
export type DayCategory = {
  id: number;
  planDayId: number;
  nameEn: string;
  nameAr: string;
  maxSelectedOptions: number;
  /** Its active, live options. */
  optionIds: number[];
};

/**
 * `column IN` the ids: a list, or a subquery of them (the ids rows read in the same round trip name,
 * so that a read of the meals side needs no round trip of its own after theirs).
 */
const idsAmong =
  (ids: readonly number[] | SQL) =>
  (column: Column | SQL): SQL =>
    ids instanceof SQL ? sql`${column} IN (${ids})` : inList(column, [...new Set(ids)]);

/** The live categories (with their active options) of the plan days `planDayIds` (or a subquery of them) of the store, by day. */
export async function dayCategoriesOf(
  db: Db,
  appId: number,
  planDayIds: readonly number[] | SQL,
): Promise<Map<number, DayCategory[]>> {
  const out = new Map<number, DayCategory[]>();
  if (!(planDayIds instanceof SQL) && !planDayIds.length) return out;
  const among = idsAmong(planDayIds);
  const categoryIds = sql`(SELECT id FROM ${planCategories} WHERE ${liveRow(appId)}
    AND ${among(sql`plan_day_id`)})`;
  const [categories, options] = await db.batch([
    db
      .select()
      .from(planCategories)
      .where(and(live(planCategories, appId), among(planCategories.planDayId)))
      .orderBy(asc(planCategories.ordering), asc(planCategories.id)),
    db
      .select({ id: planOptions.id, categoryId: planOptions.planCategoryId })
      .from(planOptions)
      .where(
        and(
          live(planOptions, appId),
          eq(planOptions.isActive, true),
          sql`${planOptions.planCategoryId} IN ${categoryIds}`,
        ),
      ),
  ]);
  for (const c of categories) {
    const list = out.get(c.planDayId) ?? [];
    list.push({
      id: c.id,
      planDayId: c.planDayId,
      nameEn: c.nameEn,
      nameAr: c.nameAr,
      maxSelectedOptions: c.maxSelectedOptions,
      optionIds: options.filter((o) => o.categoryId === c.id).map((o) => o.id),
    });
    out.set(c.planDayId, list);
  }
  return out;
}

export type RestaurantLogistics = {
  restaurantId: number;
  /** Live windows serving subscriptions (`subscription` or `both`). */
  windows: { id: number; fromTime: string; toTime: string; tag: string | null }[];
  /** Live branches that hand meals over to customers who collect them. */
  pickupBranches: { id: number; nameEn: string; nameAr: string }[];
  zones: [number, number][][];
  radii: { lat: number; lng: number; km: number }[];
};

/** The windows, pickup branches and delivery areas of the store's restaurants `ids` (or a subquery of them), in one batch. */
export async function restaurantLogisticsOf(
  db: Db,
  appId: number,
  ids: readonly number[] | SQL,
): Promise<Map<number, RestaurantLogistics>> {
  const out = new Map<number, RestaurantLogistics>();
  if (!(ids instanceof SQL) && !ids.length) return out;
  const among = idsAmong(ids);
  const [windows, branches, zones] = await db.batch([
    db
      .select()
      .from(deliveryWindows)
      .where(
        and(
          live(deliveryWindows, appId),
          among(deliveryWindows.restaurantId),
          sql`${deliveryWindows.type} IN ('subscription', 'both')`,
        ),
      )
      .orderBy(asc(deliveryWindows.fromTime), asc(deliveryWindows.id)),
    db
      .select()
      .from(restaurantBranches)
      .where(and(live(restaurantBranches, appId), among(restaurantBranches.restaurantId)))
      .orderBy(asc(restaurantBranches.id)),
    db
      .select({ restaurantId: deliveryZones.restaurantId, polygon: deliveryZones.polygon })
      .from(deliveryZones)
      .where(and(live(deliveryZones, appId), among(deliveryZones.restaurantId))),
  ]);
  // By a subquery, the restaurants are those it names that have any logistics: the others have none.
  const wanted =
    ids instanceof SQL
      ? [...new Set([...windows, ...branches, ...zones].map((r) => r.restaurantId))]
      : [...new Set(ids)];
  for (const id of wanted)
    out.set(id, {
      restaurantId: id,
      windows: windows
        .filter((w) => w.restaurantId === id)
        .map((w) => ({ id: w.id, fromTime: w.fromTime, toTime: w.toTime, tag: w.tag })),
      pickupBranches: branches
        .filter((b) => b.restaurantId === id && b.supportsPickup)
        .map((b) => ({ id: b.id, nameEn: b.nameEn, nameAr: b.nameAr })),
      zones: zones.filter((z) => z.restaurantId === id).map((z) => z.polygon),
      radii: branches
        .filter((b) => b.restaurantId === id && b.deliveryRadiusKm !== null)
        .map((b) => ({ lat: b.lat, lng: b.lng, km: b.deliveryRadiusKm! })),
    });
  return out;
}

/** Whether the restaurant delivers to the point: inside one of its zones, or within a branch's radius. */
export function deliversTo(l: RestaurantLogistics, point: [number, number]): boolean {
  return (
    l.zones.some((polygon) => insidePolygon(point, polygon)) ||
    l.radii.some((r) => distanceKm(point, [r.lat, r.lng]) <= r.km)
  );
}

/** The store's windows and branches of `ids` (deleted ones too), for showing what a suborder names. */
export async function windowsAndBranchesByIds(
  db: Db,
  appIds: readonly number[],
  windowIds: readonly number[],
  branchIds: readonly number[],
) {
  const apps = [...new Set(appIds)];
  const [windows, branches] = await db.batch([
    db
      .select({ id: deliveryWindows.id, fromTime: deliveryWindows.fromTime, toTime: deliveryWindows.toTime })
      .from(deliveryWindows)
      .where(and(inList(deliveryWindows.appId, apps), inList(deliveryWindows.id, [...new Set(windowIds)]))),
    db
      .select({ id: restaurantBranches.id, nameEn: restaurantBranches.nameEn, nameAr: restaurantBranches.nameAr })
      .from(restaurantBranches)
      .where(and(inList(restaurantBranches.appId, apps), inList(restaurantBranches.id, [...new Set(branchIds)]))),
  ]);
  return { windows: new Map(windows.map((w) => [w.id, w])), branches: new Map(branches.map((b) => [b.id, b])) };
}

/**
 * `windowsAndBranchesByIds` as JSON parts of a statement that reads more (`appIds`, `windowIds`,
 * `branchIds` subqueries); `windowsAndBranchesFromJson` reads them.
 */
export const windowsAndBranchesJson = (appIds: SQL, windowIds: SQL, branchIds: SQL) => ({
  windows: rowsJson(
    deliveryWindows,
    sql`${deliveryWindows.appId} IN (${appIds}) AND ${deliveryWindows.id} IN (${windowIds})`,
  ),
  branches: rowsJson(
    restaurantBranches,
    sql`${restaurantBranches.appId} IN (${appIds}) AND ${restaurantBranches.id} IN (${branchIds})`,
  ),
});

/** The parsed parts of `windowsAndBranchesJson`, as `windowsAndBranchesByIds` answers. */
export function windowsAndBranchesFromJson(parts: { windows: unknown; branches: unknown }) {
  const windows = decodeRows(deliveryWindows, parts.windows).map((w) => ({
    id: w.id,
    fromTime: w.fromTime,
    toTime: w.toTime,
  }));
  const branches = decodeRows(restaurantBranches, parts.branches).map((b) => ({
    id: b.id,
    nameEn: b.nameEn,
    nameAr: b.nameAr,
  }));
  return { windows: new Map(windows.map((w) => [w.id, w])), branches: new Map(branches.map((b) => [b.id, b])) };
}
