import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { decodeRows, rowsJson } from "../../core/json-rows";
import { inList } from "../../core/sql";
import type { Db } from "../../db/client";
import {
  type StoreIdentity,
  storeIdentitiesFromJson,
  storeIdentitiesJson,
  storeIdentitiesOf,
  storeIdentitiesQuery,
} from "../account";
import type { StoreGroup } from "./store-shards";
import { channelProfiles } from "./tables";

/** A store as the other side of a connection sees it: its channel profile's names and logo, else its own. */
export const StoreFaceSchema = z
  .object({
    app_id: z.number().int(),
    name_en: z.string(),
    name_ar: z.string(),
    logo: z.string().nullable(),
  })
  .openapi("SalesChannelStore");
export type StoreFace = z.infer<typeof StoreFaceSchema>;

type ProfileRow = typeof channelProfiles.$inferSelect;

/** The profile's names and logo where it sets them, the store's own elsewhere. */
export function faceOf(appId: number, profile: ProfileRow | undefined, identity: StoreIdentity | undefined): StoreFace {
  return {
    app_id: appId,
    name_en: profile?.nameEn ?? identity?.nameEn ?? "",
    name_ar: profile?.nameAr ?? identity?.nameAr ?? "",
    logo: profile?.logo ?? identity?.logo ?? null,
  };
}

/**
 * The reads of several stores' faces, for a batch that reads more (`statements`, in its order), and
 * the faces from their rows (`of`).
 */
export function storeFacesQueries(db: Db, appIds: readonly number[]) {
  const ids = [...new Set(appIds)];
  const statements = [
    db.select().from(channelProfiles).where(inList(channelProfiles.appId, ids)),
    storeIdentitiesQuery(db, ids),
  ] as const;
  const of = (profiles: readonly ProfileRow[], identities: readonly StoreIdentity[]): Map<number, StoreFace> => {
    const byApp = storeIdentitiesOf(identities);
    return new Map(
      ids.map((id) => [
        id,
        faceOf(
          id,
          profiles.find((p) => p.appId === id),
          byApp.get(id),
        ),
      ]),
    );
  };
  return { statements, of };
}

/**
 * The faces of the stores a subquery names, as JSON parts of a statement that reads more (a list's
 * nested levels): no round trip of their own. `storeFacesFromJson` reads them.
 */
export const storeFacesJson = (appIds: SQL) => ({
  profiles: rowsJson(channelProfiles, sql`${channelProfiles.appId} IN (${appIds})`),
  identities: storeIdentitiesJson(appIds),
});

/** The faces of `appIds` from the parsed parts of `storeFacesJson`. */
export function storeFacesFromJson(
  appIds: readonly number[],
  parts: Record<keyof ReturnType<typeof storeFacesJson>, unknown>,
): Map<number, StoreFace> {
  const profiles = decodeRows(channelProfiles, parts.profiles);
  const identities = storeIdentitiesFromJson(parts.identities);
  return new Map(
    appIds.map((id) => [
      id,
      faceOf(
        id,
        profiles.find((p) => p.appId === id),
        identities.get(id),
      ),
    ]),
  );
}

/** The faces of one shard's stores (a group of `storesByShard`), in one batch there. */
export async function storeFacesOn(group: StoreGroup): Promise<Map<number, StoreFace>> {
  const reads = storeFacesQueries(group.db, group.appIds);
  const [profiles, identities] = await group.db.batch(reads.statements);
  return reads.of(profiles, identities);
}

/**
 * The faces of stores that may live on several shards: each read on its own store's shard (`groups`,
 * from `storesByShard`), the shards at once (one wait). A store the directory lacks gets the face of
 * no profile and no names.
 */
export async function storeFacesAcross(groups: readonly StoreGroup[]): Promise<Map<number, StoreFace>> {
  const maps = await Promise.all(groups.map(storeFacesOn));
  return new Map(maps.flatMap((m) => [...m]));
}
