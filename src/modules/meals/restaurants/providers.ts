import { and, asc, type Column, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { distanceKm, insidePolygon } from "../geometry";
import { deliveryWindows, deliveryZones, restaurantBranches, restaurants } from "../tables";
import type { ChannelProvider } from "./schemas";
import { liveRestaurant } from "./service";
import { type BranchRow, locationView, providerBase, type RestaurantRow, windowView } from "./views";

/** List Channel Providers: who can serve a user at a location. */

export type ProviderData = {
  restaurants: RestaurantRow[];
  branches: BranchRow[];
  zones: { id: number; restaurantId: number; cityId: number; polygon: [number, number][] }[];
  windows: { id: number; restaurantId: number; fromTime: string; toTime: string }[];
};

/**
 * What List Channel Providers computes from: the tenant's active restaurants with their areas. The route caches it per
 * tenant.
 */
export async function loadProviderData(ctx: ServiceContext): Promise<ProviderData> {
  const ofLive = (t: { restaurantId: Column }) =>
    sql`${t.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${liveRestaurant(ctx.appId)})`;
  const [rs, branches, zones, windows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(restaurants)
      .where(liveRestaurant(ctx.appId))
      .orderBy(asc(restaurants.ordering), asc(restaurants.id)),
    ctx.db
      .select()
      .from(restaurantBranches)
      .where(and(live(restaurantBranches, ctx.appId), ofLive(restaurantBranches)))
      .orderBy(asc(restaurantBranches.ordering), asc(restaurantBranches.id)),
    ctx.db
      .select({
        id: deliveryZones.id,
        restaurantId: deliveryZones.restaurantId,
        cityId: deliveryZones.cityId,
        polygon: deliveryZones.polygon,
      })
      .from(deliveryZones)
      .where(and(live(deliveryZones, ctx.appId), ofLive(deliveryZones))),
    ctx.db
      .select({
        id: deliveryWindows.id,
        restaurantId: deliveryWindows.restaurantId,
        fromTime: deliveryWindows.fromTime,
        toTime: deliveryWindows.toTime,
      })
      .from(deliveryWindows)
      .where(and(live(deliveryWindows, ctx.appId), ofLive(deliveryWindows)))
      .orderBy(asc(deliveryWindows.fromTime)),
  ]);
  return { restaurants: rs, branches, zones, windows };
}

export type UserLocation = { lat?: number; lng?: number; city_id?: number; debug?: boolean };

/**
 * A provider is available for the user when it delivers to the user's point (inside one of its
 * zones, or within a branch's delivery radius; in the user's city when `city_id` is given), or,
 * supporting pickup, has a pickup branch in the user's city. Without a point, only the city decides.
 * Pure: computed per request from the (cached) provider data.
 */
export function channelProviders(data: ProviderData, at: UserLocation): ChannelProvider[] {
  const point: [number, number] | null = at.lat !== undefined && at.lng !== undefined ? [at.lat, at.lng] : null;
  const inCity = (cityId: number) => at.city_id === undefined || cityId === at.city_id;
  return data.restaurants.map((r) => {
    const branches = data.branches.filter((b) => b.restaurantId === r.id && inCity(b.cityId));
    const zones = data.zones.filter((z) => z.restaurantId === r.id && inCity(z.cityId));
    const pickup = r.supportsPickup ? branches.filter((b) => b.supportsPickup) : [];

    let nearest: { id: number; km: number } | null = null;
    if (point) {
      for (const b of branches) {
        const km = distanceKm(point, [b.lat, b.lng]);
        if (!nearest || km < nearest.km) nearest = { id: b.id, km };
      }
    }
    let zoneId: number | null = null;
    let reason: string;
    let available = false;
    if (r.supportsDelivery && point) {
      zoneId = zones.find((z) => insidePolygon(point, z.polygon))?.id ?? null;
      const byRadius = branches.find(
        (b) => b.deliveryRadiusKm !== null && distanceKm(point, [b.lat, b.lng]) <= b.deliveryRadiusKm,
      );
      available = zoneId !== null || byRadius !== undefined;
      reason = zoneId !== null ? "inside_delivery_zone" : byRadius ? "within_branch_radius" : "outside_delivery_area";
    } else if (r.supportsDelivery && at.city_id !== undefined) {
      available = zones.length > 0 || branches.some((b) => b.deliveryRadiusKm !== null);
      reason = available ? "delivers_in_city" : "no_delivery_in_city";
    } else {
      reason = "no_delivery";
    }
    if (!available && pickup.length && at.city_id !== undefined) {
      available = true;
      reason = "pickup_in_city";
    }

    return {
      ...providerBase(r),
      is_available_for_user: available,
      delivery_windows: r.supportsDelivery ? data.windows.filter((w) => w.restaurantId === r.id).map(windowView) : [],
      pickup_branches: pickup.map((b) => ({
        id: b.id,
        name_en: b.nameEn,
        name_ar: b.nameAr,
        location: locationView(b),
      })),
      ...(at.debug && {
        debug: {
          reason,
          zone_id: zoneId,
          nearest_branch_id: nearest?.id ?? null,
          nearest_branch_km: nearest ? Math.round(nearest.km * 1000) / 1000 : null,
        },
      }),
    };
  });
}
