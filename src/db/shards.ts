import { eq } from "drizzle-orm";
import { HeldFor } from "../core/held";
import { createDb, type Db } from "./client";
import { directoryApps } from "./directory-schema";
import type { StoreEntry } from "./store-entry";

/**
 * The databases (docs/shards.md): the directory, and the shards that hold the stores' rows. Only
 * src/db/ names a binding; everything else asks these functions.
 */
type Bindings = Record<string, unknown>;
const SHARD = /^SHARD_(\d+)$/;

/** The directory's database: organizations, stores and their shards, API keys. */
export function directoryOf(env: Env): D1Database {
  return env.DIRECTORY;
}

/** A shard's database by its binding's name (`SHARD_1`). */
export function shardOf(env: Env, name: string): D1Database {
  const d1 = SHARD.test(name) ? (env as unknown as Bindings)[name] : undefined;
  if (!d1) throw new Error(`No shard binding named ${name} (wrangler.toml declares them)`);
  return d1 as D1Database;
}

/** The shard bindings present, in their numbers' order. */
export function shardNames(env: Env): string[] {
  return Object.keys(env)
    .filter((k) => SHARD.test(k))
    .sort((a, b) => Number(SHARD.exec(a)![1]) - Number(SHARD.exec(b)![1]));
}

/**
 * The shard of the platform's own rows until they move to the directory (step 2 of docs/shards.md):
 * organizations, and the platform's audit trail. The first shard, as the single database was.
 */
export function homeShard(env: Env): string {
  const first = shardNames(env)[0];
  if (!first) throw new Error("No SHARD_* binding (wrangler.toml declares them)");
  return first;
}

export type { StoreEntry };

/**
 * How long an isolate holds a store's directory row. A second, as the tokens' TOKEN_HOLD_MS (core/
 * tenancy.ts): a move's pause lasts at least this long, and a suspension shows within it.
 */
const HOLD_MS = 1000;
const heldStores = new HeldFor<number, StoreEntry | null>(HOLD_MS);

/** Forgets what this isolate held of a store (its suspension or its shard changed here). */
export function forgetHeldStore(appId: number): void {
  heldStores.delete(appId);
}

/** Reads of the directory under way, so that two asking at once share one round trip. */
const readingStores = new Map<number, Promise<StoreEntry | null>>();

/** A store's directory row as this isolate holds it now, without reading: undefined if not held. */
export function heldStoreEntry(appId: number): StoreEntry | null | undefined {
  return heldStores.get(appId, Date.now());
}

/** A store's directory row (its shard and status), held per isolate; null for no such store. */
export async function storeEntry(env: Env, appId: number): Promise<StoreEntry | null> {
  const now = Date.now();
  const held = heldStores.get(appId, now);
  if (held !== undefined) return held;
  const reading = readingStores.get(appId);
  if (reading) return reading;
  const read = (async () => {
    const directory = createDb(directoryOf(env));
    const row = await directory
      .select({ id: directoryApps.id, shard: directoryApps.shard, suspendedAt: directoryApps.suspendedAt })
      .from(directoryApps)
      .where(eq(directoryApps.id, appId))
      .get();
    // Held from its answer: a read slower than the hold would otherwise be forgotten before its use.
    heldStores.set(appId, row ?? null, Date.now());
    return row ?? null;
  })();
  readingStores.set(appId, read);
  try {
    return await read;
  } finally {
    readingStores.delete(appId);
  }
}

/** The database of a store's shard: for the queue consumers and jobs, which carry the store's id. */
export async function storeDb(env: Env, appId: number): Promise<Db> {
  const entry = await storeEntry(env, appId);
  if (!entry) throw new Error(`Store ${appId} is not in the directory`);
  return createDb(shardOf(env, entry.shard));
}

/** Each shard's binding, for the scheduled work that visits every store (docs/shards.md). */
export function everyShardBinding(env: Env): { name: string; d1: D1Database }[] {
  return shardNames(env).map((name) => ({ name, d1: shardOf(env, name) }));
}

/**
 * Items (a queue batch's messages) grouped by their store's shard, each group with its shard's
 * database. A store the directory does not know goes with the first shard's, which finds none of its
 * rows, as the single database did.
 */
export async function groupByShard<T>(
  env: Env,
  items: readonly T[],
  appIdOf: (item: T) => number,
): Promise<{ shard: string; db: Db; items: T[] }[]> {
  const ids = [...new Set(items.map(appIdOf))];
  const entries = await Promise.all(ids.map((id) => storeEntry(env, id)));
  const shardOfId = new Map(ids.map((id, i) => [id, entries[i]?.shard ?? homeShard(env)]));
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const shard = shardOfId.get(appIdOf(item))!;
    groups.set(shard, [...(groups.get(shard) ?? []), item]);
  }
  return [...groups].map(([shard, list]) => ({ shard, db: createDb(shardOf(env, shard)), items: list }));
}

/** The shard of a store a platform operation names (its path's id): null for a store the directory lacks. */
export async function storeShard(env: Env, appId: number): Promise<{ db: Db; shard: string } | null> {
  const entry = await storeEntry(env, appId);
  return entry && { db: createDb(shardOf(env, entry.shard)), shard: entry.shard };
}
