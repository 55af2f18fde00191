import { eq, type SQL, sql } from "drizzle-orm";
import { createDb } from "./client";
import { directoryApps, platformAuditEvents, shards } from "./directory-schema";
import { directoryOf, shardNames } from "./shards";

/**
 * Where a new store goes (docs/shards.md, "Placement"): among the bound shards that take new stores,
 * the one with the smallest measured size, then the fewest stores, then the lowest name. Size decides
 * because the 10 GB cap is the first limit a shard meets (docs/capacity.md); the count breaks ties
 * while sizes are small and equal (a fresh deploy, or between two measurements). A shard with no row
 * yet (bound since the last measurement) counts as empty and open. As a subquery of the directory's
 * INSERT, so that placing a store costs no round trip of its own.
 */
export function placedShard(bound: readonly string[]): SQL {
  const names = sql.join(
    bound.map((name) => sql`(${name})`),
    sql`, `,
  );
  return sql`WITH bound(name) AS (VALUES ${names})
    SELECT bound.name FROM bound LEFT JOIN ${shards} ON ${shards.name} = bound.name
    WHERE coalesce(${shards.acceptsStores}, 1) = 1
    ORDER BY coalesce(${shards.sizeBytes}, 0),
      (SELECT count(*) FROM ${directoryApps} WHERE ${directoryApps.shard} = bound.name), bound.name
    LIMIT 1`;
}

export type ShardState = {
  name: string;
  size_bytes: number;
  stores: number;
  accepts_stores: boolean;
  measured_at: string | null;
};

/** Every bound shard with its last measurement and its store count now (the directory's). */
export async function shardStates(env: Env): Promise<ShardState[]> {
  const db = createDb(directoryOf(env));
  const [rows, counts] = await db.batch([
    db.select().from(shards),
    db
      .select({ shard: directoryApps.shard, stores: sql<number>`count(*)` })
      .from(directoryApps)
      .groupBy(directoryApps.shard),
  ]);
  return shardNames(env).map((name) => {
    const row = rows.find((r) => r.name === name);
    return {
      name,
      size_bytes: row?.sizeBytes ?? 0,
      stores: counts.find((c) => c.shard === name)?.stores ?? 0,
      accepts_stores: row?.acceptsStores ?? true,
      measured_at: row?.measuredAt ?? null,
    };
  });
}

/**
 * Opens or closes a shard to new stores (a pinned store may still go to a closed one), with its row in
 * the platform's audit trail, in one directory batch.
 */
export async function setShardAcceptsStores(
  env: Env,
  name: string,
  accepts: boolean,
  audit: { requestId: string; before: boolean },
): Promise<void> {
  const db = createDb(directoryOf(env));
  await db.batch([
    db
      .insert(shards)
      .values({ name, acceptsStores: accepts })
      .onConflictDoUpdate({ target: shards.name, set: { acceptsStores: accepts } }),
    db.insert(platformAuditEvents).values({
      appId: null,
      actorType: "platform",
      action: "shard.updated",
      resourceType: "shard",
      resourceId: name,
      requestId: audit.requestId,
      before: { name, accepts_stores: audit.before },
      after: { name, accepts_stores: accepts },
    }),
  ]);
}

/**
 * Records a shard's size as D1 reports it (`meta.size_after`: the database's bytes after a statement)
 * and its store count: the scheduled `measure-shard` task, run on each shard, so that placement sees
 * sizes at most one run old.
 */
export async function measureShard(env: Env, name: string, d1: D1Database, at: string) {
  const result = await d1.prepare("SELECT 1").run();
  const sizeBytes = Number(result.meta.size_after ?? 0);
  const stores = sql`(SELECT count(*) FROM ${directoryApps} WHERE ${eq(directoryApps.shard, name)})`;
  await createDb(directoryOf(env))
    .insert(shards)
    .values({ name, sizeBytes, stores, measuredAt: at })
    .onConflictDoUpdate({ target: shards.name, set: { sizeBytes, stores, measuredAt: at } });
  return { size_bytes: sizeBytes };
}
