import type { ProviderData } from "./reads";
import type { ChannelProvider } from "./schemas";
import { locationView, providerBase, windowView } from "./views";

/** List Channel Providers: who can serve a user at a location. Pure: computed from the cached provider data. */

export type UserLocation = { lat?: number; lng?: number; city_id?: number; debug?: boolean };

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance (haversine), in km. */
export function distanceKm(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLng = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Ray casting over [lat, lng] vertices; zones are city-sized, so the plane approximation holds. */
export function insidePolygon(point: [number, number], polygon: [number, number][]): boolean {
  const [y, x] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i]!;
    const [yj, xj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * A provider is available for the user when it delivers to the user's point (inside one of its
 * zones, or within a branch's delivery radius; in the user's city when `city_id` is given), or,
 * supporting pickup, has a pickup branch in the user's city. Without a point, only the city decides.
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
