import { and, eq, inArray, not, notInArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, notDeleted, softDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import {
  type ListQuery,
  type ListSpec,
  listPage,
  mapPage,
  namedListSpec,
  type Page,
  searchColumns,
} from "../../../core/listing";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { cities, countries, districts, regions, supportedCities } from "../tables";
import type { City, Country, District, Region } from "./schemas";

/**
 * Geography: countries, regions, cities and districts are reference data shared by every store
 * (migration 0007 holds them), so their lists have no tenant scope. What is per store is which
 * cities it serves (`supported_cities`): a city's `is_supported`, and the customer app's list.
 */

/** Reference data: every store reads the same rows. */
const EVERY_STORE = sql`1 = 1`;

const BY_NAMES = "A term found in `name_en` or `name_ar`; may repeat (all terms must match).";

export const COUNTRY_LIST: ListSpec = {
  ...namedListSpec(countries, {
    code: { column: countries.code, kind: "string" },
    phone_code: { column: countries.phoneCode, kind: "string" },
  }),
  searchDescription: BY_NAMES,
};

export const REGION_LIST: ListSpec = {
  ...namedListSpec(regions, {
    country_id: { column: regions.countryId, kind: "integer" },
    code: { column: regions.code, kind: "string" },
  }),
  searchDescription: BY_NAMES,
};

/** The cities' list; the merchant's adds `is_supported`, which depends on the calling store. */
export const CITY_LIST: ListSpec = {
  ...namedListSpec(cities, {
    region_id: { column: cities.regionId, kind: "integer" },
    country_code: { column: cities.countryCode, kind: "string" },
    lat: { column: cities.lat, kind: "number" },
    lng: { column: cities.lng, kind: "number" },
  }),
  search: searchColumns(cities.nameEn, cities.nameAr, cities.keywords),
  searchDescription:
    "A term found in `name_en`, `name_ar` or `keywords` (other spellings: Jiddah, Mecca, جده); may repeat " +
    "(all terms must match).",
};

export const DISTRICT_LIST: ListSpec = {
  ...namedListSpec(districts, { city_id: { column: districts.cityId, kind: "integer" } }),
  searchDescription: BY_NAMES,
};

const countryView = (c: typeof countries.$inferSelect): Country => ({
  id: c.id,
  code: c.code,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  phone_code: c.phoneCode,
  ordering: c.ordering,
});

const regionView = (r: typeof regions.$inferSelect): Region => ({
  id: r.id,
  country_id: r.countryId,
  code: r.code,
  name_en: r.nameEn,
  name_ar: r.nameAr,
  ordering: r.ordering,
});

const cityView = (c: typeof cities.$inferSelect, isSupported: boolean): City => ({
  id: c.id,
  region_id: c.regionId,
  country_code: c.countryCode,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  keywords: c.keywords,
  lat: c.lat,
  lng: c.lng,
  ordering: c.ordering,
  is_supported: isSupported,
});

const districtView = (d: typeof districts.$inferSelect): District => ({
  id: d.id,
  city_id: d.cityId,
  name_en: d.nameEn,
  name_ar: d.nameAr,
  ordering: d.ordering,
});

export async function listCountries(ctx: ServiceContext, q: ListQuery): Promise<Page<Country>> {
  return mapPage(await listPage(ctx.db, q, { table: countries, scope: () => EVERY_STORE }), countryView);
}

export async function listRegions(ctx: ServiceContext, q: ListQuery): Promise<Page<Region>> {
  return mapPage(await listPage(ctx.db, q, { table: regions, scope: () => EVERY_STORE }), regionView);
}

export async function listDistricts(ctx: ServiceContext, q: ListQuery): Promise<Page<District>> {
  return mapPage(await listPage(ctx.db, q, { table: districts, scope: () => EVERY_STORE }), districtView);
}

/** The ids of the cities the store serves, as a subquery or a query of its own. */
const supportedIds = (ctx: ServiceContext) =>
  ctx.db.select({ id: supportedCities.cityId }).from(supportedCities).where(live(supportedCities, ctx.appId));

/**
 * The cities, each with `is_supported` for the calling store; `isSupported` keeps only the cities
 * it serves (true) or those it does not (false). The store's set is read beside the page, at once:
 * a store serves a bounded number of cities.
 */
export async function listCities(
  ctx: ServiceContext,
  q: ListQuery,
  isSupported: boolean | undefined,
): Promise<Page<City>> {
  const scope: SQL =
    isSupported === undefined
      ? EVERY_STORE
      : isSupported
        ? inArray(cities.id, supportedIds(ctx))
        : notInArray(cities.id, supportedIds(ctx));
  const [page, supported] = await Promise.all([
    listPage(ctx.db, q, { table: cities, scope: () => scope }),
    supportedIds(ctx),
  ]);
  const ids = new Set(supported.map((r) => r.id));
  return mapPage(page, (c) => cityView(c, ids.has(c.id)));
}

/** The customer app's Supported Cities: the cities the store serves. */
export async function listSupportedCities(ctx: ServiceContext, q: ListQuery): Promise<Page<City>> {
  const page = await listPage(ctx.db, q, { table: cities, scope: () => inArray(cities.id, supportedIds(ctx)) });
  return mapPage(page, (c) => cityView(c, true));
}

/**
 * A page of the cities among `ids` (other modules' own set, such as the cities a store delivers
 * in), each with `is_supported` for the calling store.
 */
export async function listCitiesAmong(ctx: ServiceContext, q: ListQuery, ids: readonly number[]): Promise<Page<City>> {
  const [page, supported] = await Promise.all([
    listPage(ctx.db, q, { table: cities, scope: () => inList(cities.id, ids) }),
    supportedIds(ctx),
  ]);
  const served = new Set(supported.map((r) => r.id));
  return mapPage(page, (c) => cityView(c, served.has(c.id)));
}

async function findCity(ctx: ServiceContext, id: number): Promise<typeof cities.$inferSelect> {
  const city = await ctx.db.select().from(cities).where(eq(cities.id, id)).get();
  if (!city) throw ApiError.notFound("city_not_found", `City ${id}`);
  return city;
}

/** The store's live row for the city, if it serves it. */
const servedBy = (ctx: ServiceContext, cityId: number) =>
  and(live(supportedCities, ctx.appId), eq(supportedCities.cityId, cityId))!;
const serves = (ctx: ServiceContext, cityId: number) =>
  sql`EXISTS (SELECT 1 FROM ${supportedCities} WHERE ${servedBy(ctx, cityId)})`;

/**
 * The store serves the city from now on. Idempotent: serving it already changes nothing and emits
 * nothing. A city the store stopped serving is revived (the row is unique per store and city).
 * The event is written only when the set changed, by the same guard as the write.
 */
export async function supportCity(ctx: ServiceContext, cityId: number): Promise<City> {
  const city = await findCity(ctx, cityId);
  const now = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(supportedCities)
        .values({ appId: ctx.appId, cityId, createdAt: now, modifiedAt: now })
        .onConflictDoUpdate({
          target: [supportedCities.appId, supportedCities.cityId],
          set: { isDeleted: false, deletedAt: null, modifiedAt: now },
          // Only a soft-deleted city comes back: a live one keeps its row as it is.
          setWhere: not(notDeleted(supportedCities)),
        }),
    ],
    [newEvent(ctx.appId, "store.supported_cities.updated", { city_id: cityId, is_supported: true })],
    { guard: sql`NOT ${serves(ctx, cityId)}` },
  );
  return cityView(city, true);
}

/** The store no longer serves the city (a soft delete). Idempotent, like `supportCity`. */
export async function unsupportCity(ctx: ServiceContext, cityId: number): Promise<void> {
  await findCity(ctx, cityId);
  await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(supportedCities).set(softDeleted()).where(servedBy(ctx, cityId))],
    [newEvent(ctx.appId, "store.supported_cities.updated", { city_id: cityId, is_supported: false })],
    { guard: serves(ctx, cityId) },
  );
}
