import { and, type Column, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { inList } from "../../../core/sql";
import { cities, districts, supportedCities } from "../tables";

/** A city as a location embeds it (the peer's city model). */
export type CityRef = {
  id: number;
  name_en: string;
  name_ar: string;
  country_code: string;
  keywords: string;
  is_supported: boolean;
};

export type DistrictRef = { id: number; cityId: number; name_en: string; name_ar: string };

/**
 * The cities and districts of the given ids (or of a subquery's), in one round trip; `is_supported` says whether the
 * store serves the city. Unknown ids are simply absent from the maps.
 */
export async function placesOf(
  ctx: ServiceContext,
  cityIds: readonly number[] | SQL,
  districtIds: readonly number[] | SQL,
): Promise<{ cities: Map<number, CityRef>; districts: Map<number, DistrictRef> }> {
  if (Array.isArray(cityIds) && !cityIds.length && Array.isArray(districtIds) && !districtIds.length)
    return { cities: new Map(), districts: new Map() };
  // A subquery (the city of a location read in the same round trip) or the ids themselves.
  const among = (column: Column, ids: readonly number[] | SQL) =>
    Array.isArray(ids) ? inList(column, [...new Set(ids)]) : sql`${column} IN ${ids}`;
  // Three plain reads rather than a join: D1 returns joined columns by name, and both tables have `id`.
  const [cityRows, supportedRows, districtRows] = await ctx.db.batch([
    ctx.db
      .select({
        id: cities.id,
        name_en: cities.nameEn,
        name_ar: cities.nameAr,
        country_code: cities.countryCode,
        keywords: cities.keywords,
      })
      .from(cities)
      .where(among(cities.id, cityIds)),
    ctx.db
      .select({ cityId: supportedCities.cityId })
      .from(supportedCities)
      .where(and(live(supportedCities, ctx.appId), among(supportedCities.cityId, cityIds))),
    ctx.db
      .select({ id: districts.id, cityId: districts.cityId, name_en: districts.nameEn, name_ar: districts.nameAr })
      .from(districts)
      .where(among(districts.id, districtIds)),
  ]);
  const supported = new Set(supportedRows.map((r) => r.cityId));
  return {
    cities: new Map(cityRows.map((c) => [c.id, { ...c, is_supported: supported.has(c.id) }])),
    districts: new Map(districtRows.map((d) => [d.id, d])),
  };
}

/** The cities and districts a place names, to read beside a write's other reads (`refuseUnknownPlace`). */
export const placesNamed = (ctx: ServiceContext, place: { cityId?: number | null; districtId?: number | null }) =>
  placesOf(ctx, place.cityId == null ? [] : [place.cityId], place.districtId == null ? [] : [place.districtId]);

/** The fields a place's 400 names: `city_id` and `district_id` unless a body calls them otherwise. */
export type PlaceFields = { city: string; district: string };

/**
 * Checks that the city and district a body names exist and that the district is in the city;
 * a 400 naming the field otherwise (as for any id that does not exist). `fields` renames them.
 */
export async function checkPlace(
  ctx: ServiceContext,
  place: { cityId?: number | null; districtId?: number | null },
  fields?: PlaceFields,
): Promise<void> {
  if (place.cityId == null && place.districtId == null) return;
  refuseUnknownPlace(await placesNamed(ctx, place), place, fields);
}

/**
 * `checkPlace` over places already read (`placesOf`, in the round trip of the write's other reads):
 * the same 400 when the city or district is not among them, or the district is not in the city.
 */
export function refuseUnknownPlace(
  found: Awaited<ReturnType<typeof placesOf>>,
  place: { cityId?: number | null; districtId?: number | null },
  fields: PlaceFields = { city: "city_id", district: "district_id" },
): void {
  const cityId = place.cityId ?? null;
  const districtId = place.districtId ?? null;
  const errors: FieldErrors = Object.create(null);
  if (cityId !== null && !found.cities.has(cityId)) errors[fields.city] = [`No city ${cityId}.`];
  if (districtId !== null) {
    const district = found.districts.get(districtId);
    if (!district) errors[fields.district] = [`No district ${districtId}.`];
    else if (cityId === null) errors[fields.city] = ["Required with a district."];
    else if (district.cityId !== cityId) errors[fields.district] = [`District ${districtId} is not in city ${cityId}.`];
  }
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

/** The parts `placesJson` reads. */
export type PlaceParts = Record<"cities" | "supported" | "districts", unknown>;

/**
 * The cities and districts that `cityIds` and `districtIds` select (subqueries), with the store's
 * supported cities among them, as scalar subqueries of a larger statement (core/json-rows):
 * `placesFromJson` reads them as `placesOf` answers.
 */
export function placesJson(appId: number, cityIds: SQL, districtIds: SQL): Record<keyof PlaceParts, SQL> {
  return {
    cities: rowsJson(cities, sql`${cities.id} IN ${cityIds}`),
    supported: rowsJson(
      supportedCities,
      and(live(supportedCities, appId), sql`${supportedCities.cityId} IN ${cityIds}`)!,
    ),
    districts: rowsJson(districts, sql`${districts.id} IN ${districtIds}`),
  };
}

/** The cities and districts of `placesJson`'s parts (parsed JSON), as `placesOf` answers. */
export function placesFromJson(parts: PlaceParts): {
  cities: Map<number, CityRef>;
  districts: Map<number, DistrictRef>;
} {
  const supported = new Set(decodeRows(supportedCities, parts.supported).map((r) => r.cityId));
  return {
    cities: new Map(
      decodeRows(cities, parts.cities).map((c) => [
        c.id,
        {
          id: c.id,
          name_en: c.nameEn,
          name_ar: c.nameAr,
          country_code: c.countryCode,
          keywords: c.keywords,
          is_supported: supported.has(c.id),
        },
      ]),
    ),
    districts: new Map(
      decodeRows(districts, parts.districts).map((d) => [
        d.id,
        { id: d.id, cityId: d.cityId, name_en: d.nameEn, name_ar: d.nameAr },
      ]),
    ),
  };
}
