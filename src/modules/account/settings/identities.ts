import { eq, type SQL, sql } from "drizzle-orm";
import { inList } from "../../../core/sql";
import { apps } from "../../../core/tenancy";
import type { Db } from "../../../db/client";
import { storeSettings } from "../tables";

/** How a store names itself to other stores: its settings' names and logo, else its app's names. */
export type StoreIdentity = { appId: number; nameEn: string; nameAr: string; logo: string | null };

/** The stores `appIds` names: a list of ids, or a subquery of them (read in the same statement). */
const among = (appIds: readonly number[] | SQL): SQL =>
  Array.isArray(appIds) ? inList(apps.id, appIds) : sql`${apps.id} IN (${appIds})`;

/**
 * The statement reading the identities of several stores (for a batch; `appIds` a list of ids or a
 * subquery of them); `storeIdentitiesOf` reads its rows.
 */
export const storeIdentitiesQuery = (db: Db, appIds: readonly number[] | SQL) =>
  db
    .select({
      appId: apps.id,
      nameEn: sql<string>`coalesce(${storeSettings.nameEn}, ${apps.nameEn})`.as("identity_name_en"),
      nameAr: sql<string>`coalesce(${storeSettings.nameAr}, ${apps.nameAr})`.as("identity_name_ar"),
      logo: sql<string | null>`${storeSettings.logo}`.as("identity_logo"),
    })
    .from(apps)
    .leftJoin(storeSettings, eq(storeSettings.appId, apps.id))
    .where(among(appIds));

/** The rows of `storeIdentitiesQuery` by store; a store that does not exist is absent. */
export const storeIdentitiesOf = (rows: readonly StoreIdentity[]): Map<number, StoreIdentity> =>
  new Map(rows.map((r) => [r.appId, r]));

/**
 * The identities of the stores a subquery names, as one JSON array (a scalar subquery, for a
 * statement that reads more beside them); `storeIdentitiesFromJson` reads it.
 */
export const storeIdentitiesJson = (appIds: SQL): SQL => {
  // Qualified by hand: a column inside a raw fragment is written without its table.
  const app = (c: { name: string }) => sql`a.${sql.identifier(c.name)}`;
  const own = (c: { name: string }) => sql`s.${sql.identifier(c.name)}`;
  return sql`(SELECT json_group_array(json_array(${app(apps.id)}, coalesce(${own(storeSettings.nameEn)}, ${app(apps.nameEn)}),
      coalesce(${own(storeSettings.nameAr)}, ${app(apps.nameAr)}), ${own(storeSettings.logo)}))
    FROM ${apps} AS a LEFT JOIN ${storeSettings} AS s ON ${own(storeSettings.appId)} = ${app(apps.id)}
    WHERE ${app(apps.id)} IN (${appIds}))`;
};

/** The value of `storeIdentitiesJson` (as text, or already parsed), by store. */
export const storeIdentitiesFromJson = (json: unknown): Map<number, StoreIdentity> =>
  storeIdentitiesOf(
    ((typeof json === "string" ? JSON.parse(json) : (json ?? [])) as [number, string, string, string | null][]).map(
      ([appId, nameEn, nameAr, logo]) => ({
        appId,
        nameEn,
        nameAr,
        logo,
      }),
    ),
  );
