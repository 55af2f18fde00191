import type { ServiceContext } from "../../../core/context";
import type { ListQuery, Page } from "../../../core/listing";
import { listCitiesAmong } from "../../customers";
import { type DeliveryWindowDetail, deliveryCityIds, storeZones, type WindowType, windowsAtPoint } from "../../meals";
import type { LogisticsCity } from "./schemas";

/** Where the store delivers (ML1) and which windows serve a point (ML4), from the meals side's areas. */

/**
 * ML1: the cities of the store's delivery zones and restaurant branches, a page of the city list
 * (its filters and search), each with the store's zones in it.
 */
export async function listLogisticsCities(ctx: ServiceContext, q: ListQuery): Promise<Page<LogisticsCity>> {
  // The zones of every city the store delivers in (the store's own zones) are read with the city
  // ids, not after the page: one round trip fewer. The city list (customers module) takes ids.
  const [cityIds, zones] = await Promise.all([deliveryCityIds(ctx), storeZones(ctx)]);
  const page = await listCitiesAmong(ctx, q, cityIds);
  return {
    ...page,
    results: page.results.map((c) => ({
      ...c,
      zones: zones.filter((z) => z.city_id === c.id).map(({ city_id: _c, ...z }) => z),
    })),
  };
}

/** ML4: the windows of the restaurants with a zone containing the point (in `city_id` when given). */
export function listSupportedWindows(
  ctx: ServiceContext,
  q: ListQuery,
  at: { lat: number; lng: number; city_id?: number; type?: WindowType },
): Promise<Page<DeliveryWindowDetail>> {
  return windowsAtPoint(ctx, q, { lat: at.lat, lng: at.lng, cityId: at.city_id, type: at.type });
}
