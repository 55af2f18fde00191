import { type SQL, sql } from "drizzle-orm";
import { inList } from "../../../core/sql";
import type { Db } from "../../../db/client";
import { cities } from "../tables";

/** A city of the shared geography, as another module names it. */
export type CityName = { id: number; name_en: string; name_ar: string };

/**
 * The cities among `ids` (a list, or a subquery read in the same statement), as a select for a batch
 * that reads more; `citiesInOrder` puts its rows in the order of the ids.
 */
export const citiesQuery = (db: Db, ids: readonly number[] | SQL) =>
  db
    .select({ id: cities.id, name_en: cities.nameEn, name_ar: cities.nameAr })
    .from(cities)
    .where(Array.isArray(ids) ? inList(cities.id, ids) : sql`${cities.id} IN (${ids})`);

/** The rows of `citiesQuery` in the order of `ids`; unknown ids are left out. */
export function citiesInOrder(rows: readonly CityName[], ids: readonly number[]): CityName[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The cities among `ids` (reference data, every store's), in the order of `ids`; unknown ids are left out. */
export async function citiesByIds(db: Db, ids: readonly number[]): Promise<CityName[]> {
  if (!ids.length) return [];
  return citiesInOrder(await citiesQuery(db, ids), ids);
}
