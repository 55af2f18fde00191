import { inList } from "../../../core/sql";
import type { Db } from "../../../db/client";
import { cities } from "../tables";

/** A city of the shared geography, as another module names it. */
export type CityName = { id: number; name_en: string; name_ar: string };

/** The cities among `ids` (reference data, every store's), in the order of `ids`; unknown ids are left out. */
export async function citiesByIds(db: Db, ids: readonly number[]): Promise<CityName[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: cities.id, name_en: cities.nameEn, name_ar: cities.nameAr })
    .from(cities)
    .where(inList(cities.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
