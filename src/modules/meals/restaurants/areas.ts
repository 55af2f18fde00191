import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { insidePolygon } from "../geometry";
import { deliveryWindows, deliveryZones, REST_TYPES, restaurantBranches, restaurants } from "../tables";
import { auditView } from "../views";

/**
 * Where the store's restaurants deliver, as logistics reads it: the cities of their zones and
 * branches, the zones of a city, the windows serving a point, and one window or time zone by id.
 */

/** What a delivery window serves: on-demand orders, subscriptions' suborders, or both. */
export const WINDOW_TYPES = REST_TYPES;
export type WindowType = (typeof WINDOW_TYPES)[number];

/** A delivery zone as logistics shows it. */
export type DeliveryZoneView = {
  id: number;
  name_en: string;
  city_id: number;
  restaurant_id: number;
  polygon: [number, number][];
};

/** A delivery window with the fields of the captain app's model (design-reference 12). */
export type DeliveryWindowDetail = {
  id: number;
  app_id: number;
  created_at: string;
  modified_at: string;
  ordering: number;
  restaurant_id: number;
  type: WindowType;
  from_time: string;
  to_time: string;
  is_default: boolean;
  tag: string | null;
  is_on_demand_opened: boolean;
};

export type DeliveryWindowRow = typeof deliveryWindows.$inferSelect;

export const deliveryWindowView = (w: DeliveryWindowRow): DeliveryWindowDetail => {
  const { deleted_at: _d, is_deleted: _i, ...audit } = auditView(w);
  return {
    id: w.id,
    ...audit,
    restaurant_id: w.restaurantId,
    type: w.type,
    from_time: w.fromTime,
    to_time: w.toTime,
    is_default: w.isDefault,
    tag: w.tag,
    is_on_demand_opened: w.isOnDemandOpened,
  };
};

/** The cities the store's live zones and branches are in, ascending. */
export async function deliveryCityIds(ctx: ServiceContext): Promise<number[]> {
  const rows = await ctx.db.all<{ city_id: number }>(
    sql`SELECT ${deliveryZones.cityId} AS city_id FROM ${deliveryZones} WHERE ${live(deliveryZones, ctx.appId)}
      UNION SELECT ${restaurantBranches.cityId} FROM ${restaurantBranches} WHERE ${live(restaurantBranches, ctx.appId)}
      ORDER BY 1`,
  );
  return rows.map((r) => Number(r.city_id));
}

/** The store's live zones, by city, then as the merchant ordered them. */
export async function storeZones(ctx: ServiceContext): Promise<DeliveryZoneView[]> {
  const rows = await ctx.db
    .select()
    .from(deliveryZones)
    .where(live(deliveryZones, ctx.appId))
    .orderBy(asc(deliveryZones.cityId), asc(deliveryZones.ordering), asc(deliveryZones.id));
  return rows.map((z) => ({
    id: z.id,
    name_en: z.nameEn,
    city_id: z.cityId,
    restaurant_id: z.restaurantId,
    polygon: z.polygon,
  }));
}

/** Latitude ([0]) or longitude ([1]) bounds of a zone's polygon, computed by SQLite over its JSON. */
const bound = (fn: "min" | "max", axis: 0 | 1): SQL =>
  sql`(SELECT ${sql.raw(fn)}(json_extract(value, ${`$[${axis}]`})) FROM json_each(${deliveryZones.polygon}))`;

export type ZoneAtPoint = { id: number; restaurantId: number; cityId: number };

/**
 * The live zones of the store (in `cityId` when given) that contain the point: the database keeps
 * those whose bounding box holds it, the exact test is the ray casting of geometry.ts. The point may
 * be SQL (a location's coordinates, read in the same round trip as the location): the answer then
 * takes the point read beside it.
 */
export async function zonesAround(
  ctx: ServiceContext,
  at: { lat?: number | SQL; lng?: number | SQL; cityId?: number },
): Promise<(point: { lat: number; lng: number }) => ZoneAtPoint[]> {
  const rows = await ctx.db
    .select({
      id: deliveryZones.id,
      restaurantId: deliveryZones.restaurantId,
      cityId: deliveryZones.cityId,
      polygon: deliveryZones.polygon,
    })
    .from(deliveryZones)
    .where(
      and(
        live(deliveryZones, ctx.appId),
        at.cityId === undefined ? undefined : eq(deliveryZones.cityId, at.cityId),
        // Without a point (it is read elsewhere), every zone: the caller's point picks among them.
        at.lat === undefined ? undefined : sql`${bound("min", 0)} <= ${at.lat} AND ${bound("max", 0)} >= ${at.lat}`,
        at.lng === undefined ? undefined : sql`${bound("min", 1)} <= ${at.lng} AND ${bound("max", 1)} >= ${at.lng}`,
        // Zones of a deleted restaurant go with it; an inactive one's stay, and deliver nothing.
        sql`${deliveryZones.restaurantId} IN (SELECT id FROM ${restaurants} WHERE ${live(restaurants, ctx.appId)} AND ${restaurants.isActive} = 1)`,
      ),
    );
  return (point) =>
    rows.filter((z) => insidePolygon([point.lat, point.lng], z.polygon)).map(({ polygon: _p, ...z }) => z);
}

/** The window list's fields; `type` is the operation's own parameter (what the window serves). */
export const SUPPORTED_WINDOW_LIST: ListSpec = {
  fields: {
    id: { column: deliveryWindows.id, kind: "integer" },
    restaurant_id: { column: deliveryWindows.restaurantId, kind: "integer" },
    from_time: { column: deliveryWindows.fromTime, kind: "time" },
    to_time: { column: deliveryWindows.toTime, kind: "time" },
    is_default: { column: deliveryWindows.isDefault, kind: "boolean" },
    ordering: { column: deliveryWindows.ordering, kind: "integer" },
  },
  defaultOrder: "from_time",
  idColumn: deliveryWindows.id,
};

/** The window types that serve orders of `type`: its own, and `both` (which serves every kind). */
const serving = (type: WindowType): WindowType[] => (type === "both" ? ["both"] : [type, "both"]);

/**
 * Supported Windows: the windows of the restaurants with a zone containing the point, serving
 * `type` when given; an empty page when no zone does.
 */
export async function windowsAtPoint(
  ctx: ServiceContext,
  q: ListQuery,
  at: { lat: number; lng: number; cityId?: number; type?: WindowType },
): Promise<Page<DeliveryWindowDetail>> {
  const restaurantIds = [...new Set((await zonesAround(ctx, at))(at).map((z) => z.restaurantId))];
  const page = await listPage(ctx.db, q, {
    table: deliveryWindows,
    scope: () =>
      and(
        live(deliveryWindows, ctx.appId),
        inList(deliveryWindows.restaurantId, restaurantIds),
        at.type === undefined ? undefined : inArray(deliveryWindows.type, serving(at.type)),
      )!,
  });
  return mapPage(page, deliveryWindowView);
}

/** The live delivery window `id` of the store, or undefined. */
export async function findDeliveryWindow(ctx: ServiceContext, id: number): Promise<DeliveryWindowDetail | undefined> {
  const row = await ctx.db
    .select()
    .from(deliveryWindows)
    .where(and(live(deliveryWindows, ctx.appId), eq(deliveryWindows.id, id)))
    .get();
  return row && deliveryWindowView(row);
}

/**
 * The time zone of one restaurant of the store (deleted ones too: their suborders keep their dates),
 * as SQL for a statement that reads more (its row names the restaurant).
 */
export const restaurantTimeZoneSql = (appId: number, restaurantId: SQL): SQL<string | null> =>
  sql`(SELECT ${restaurants.timeZone} FROM ${restaurants} WHERE ${restaurants.appId} = ${appId} AND ${restaurants.id} = ${restaurantId})`;
