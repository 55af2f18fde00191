import { eq, sql } from "drizzle-orm";
import { inList } from "../../../core/sql";
import { apps } from "../../../core/tenancy";
import type { Db } from "../../../db/client";
import { storeSettings } from "../tables";

/** How a store names itself to other stores: its settings' names and logo, else its app's names. */
export type StoreIdentity = { appId: number; nameEn: string; nameAr: string; logo: string | null };

/** The statement reading the identities of several stores (for a batch); `storeIdentitiesOf` reads its rows. */
export const storeIdentitiesQuery = (db: Db, appIds: readonly number[]) =>
  db
    .select({
      appId: apps.id,
      nameEn: sql<string>`coalesce(${storeSettings.nameEn}, ${apps.nameEn})`.as("identity_name_en"),
      nameAr: sql<string>`coalesce(${storeSettings.nameAr}, ${apps.nameAr})`.as("identity_name_ar"),
      logo: sql<string | null>`${storeSettings.logo}`.as("identity_logo"),
    })
    .from(apps)
    .leftJoin(storeSettings, eq(storeSettings.appId, apps.id))
    .where(inList(apps.id, appIds));

/** The rows of `storeIdentitiesQuery` by store; a store that does not exist is absent. */
export const storeIdentitiesOf = (rows: readonly StoreIdentity[]): Map<number, StoreIdentity> =>
  new Map(rows.map((r) => [r.appId, r]));
