import { and, asc, eq, sql } from "drizzle-orm";
import { live, liveRow } from "../../core/crud/tenant-table";
import type { Weekday } from "../../core/fields";
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

/** The terms of plan versions `ids` of the stores `appIds`, by version id, in one statement. */
export async function subscriptionTermsOf(
  db: Db,
  appIds: readonly number[],
  ids: readonly number[],
): Promise<Map<number, SubscriptionTerms>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      appId: planVersions.appId,
      versionId: planVersions.id,
      planId: plans.id,
      restaurantId: restaurants.id,
      numOfDays: planVersions.numOfDays,
      versionOffDays: planVersions.offDays,
      duration: planVersions.duration,
      pauseCredits: planVersions.pauseCredits,
      numOfPauseAttempts: planVersions.numOfPauseAttempts,
      minOfPauseDays: planVersions.minOfPauseDays,
      planNameEn: plans.nameEn,
      planNameAr: plans.nameAr,
      planImage: plans.image,
      skipOptionSelection: plans.skipOptionSelection,
      nameEn: restaurants.nameEn,
      nameAr: restaurants.nameAr,
      logo: restaurants.logo,
      timeZone: restaurants.timeZone,
      cutoffHours: restaurants.cutoffHours,
      offDays: restaurants.offDays,
      closedDates: restaurants.closedDates,
      supportsPickup: restaurants.supportsPickup,
      supportsDelivery: restaurants.supportsDelivery,
    })
    .from(planVersions)
    .innerJoin(plans, and(eq(plans.id, planVersions.planId), eq(plans.appId, planVersions.appId)))
    .innerJoin(restaurants, and(eq(restaurants.id, plans.restaurantId), eq(restaurants.appId, plans.appId)))
    .where(and(inList(planVersions.appId, [...new Set(appIds)]), inList(planVersions.id, [...new Set(ids)])));
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

/** The live categories (with their active options) of the plan days `planDayIds` of the store, by day. */
export async function dayCategoriesOf(
  db: Db,
  appId: number,
  planDayIds: readonly number[],
): Promise<Map<number, DayCategory[]>> {
  const out = new Map<number, DayCategory[]>();
  if (!planDayIds.length) return out;
  const days = [...new Set(planDayIds)];
  const categoryIds = sql`(SELECT id FROM ${planCategories} WHERE ${liveRow(appId)}
    AND ${inList(sql`plan_day_id`, days)})`;
  const [categories, options] = await db.batch([
    db
      .select()
      .from(planCategories)
      .where(and(live(planCategories, appId), inList(planCategories.planDayId, days)))
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

/** The windows, pickup branches and delivery areas of the store's restaurants `ids`, in one batch. */
export async function restaurantLogisticsOf(
  db: Db,
  appId: number,
  ids: readonly number[],
): Promise<Map<number, RestaurantLogistics>> {
  const out = new Map<number, RestaurantLogistics>();
  if (!ids.length) return out;
  const wanted = [...new Set(ids)];
  const [windows, branches, zones] = await db.batch([
    db
      .select()
      .from(deliveryWindows)
      .where(
        and(
          live(deliveryWindows, appId),
          inList(deliveryWindows.restaurantId, wanted),
          sql`${deliveryWindows.type} IN ('subscription', 'both')`,
        ),
      )
      .orderBy(asc(deliveryWindows.fromTime), asc(deliveryWindows.id)),
    db
      .select()
      .from(restaurantBranches)
      .where(and(live(restaurantBranches, appId), inList(restaurantBranches.restaurantId, wanted)))
      .orderBy(asc(restaurantBranches.id)),
    db
      .select({ restaurantId: deliveryZones.restaurantId, polygon: deliveryZones.polygon })
      .from(deliveryZones)
      .where(and(live(deliveryZones, appId), inList(deliveryZones.restaurantId, wanted))),
  ]);
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
