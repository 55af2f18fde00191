import type { ServiceContext } from "../../core/context";
import type { Db } from "../../db/client";
import { groupByShard, storeEntry, storeShard } from "../../db/shards";
import { connectedProviderAppIds } from "./connections";

/**
 * The stores of a connection live on shards of their own (docs/shards.md): what a request reads of
 * another store it reads on that store's shard, and never on any other. These group the stores a
 * read names by shard, with the request's own session for its own store's shard (so that it reads
 * its own writes).
 */
export type StoreGroup = { db: Db; appIds: number[] };

/**
 * `appIds` grouped by the shard that holds them, each group with its shard's database. The shards
 * come from the directory's rows an isolate holds (src/db/shards.ts): a service resolves them before
 * its reads, so that a cold isolate's look-up is a wait of its own, never one a read waits behind.
 */
export async function storesByShard(env: Env, ctx: ServiceContext, appIds: readonly number[]): Promise<StoreGroup[]> {
  const ids = [...new Set(appIds)];
  if (!ids.length) return [];
  const [own, groups] = await Promise.all([storeEntry(env, ctx.appId), groupByShard(env, ids, (id) => id)]);
  return groups.map((g) => ({ db: g.shard === own?.shard ? ctx.db : g.db, appIds: g.items }));
}

/** The database of one store's shard (the request's own for its own store); null for a store the directory lacks. */
export async function storeShardDb(env: Env, ctx: ServiceContext, appId: number): Promise<Db | null> {
  if (appId === ctx.appId) return ctx.db;
  const [own, other] = await Promise.all([storeEntry(env, ctx.appId), storeShard(env, appId)]);
  if (!other) return null;
  return other.shard === own?.shard ? ctx.db : other.db;
}

/** A shard a channel's view reads: its database, and the channel's active providers there. */
export type ChannelShard = { db: Db; own: boolean; providerAppIds: number[] };

/**
 * The shards a channel store's view of what it sold reads (MX3, MX4, CA15): those of its active
 * providers (from the directory), and its own with `own` (a provider's view of what it received),
 * its own first, then in the shards' order. Never any other shard.
 */
export async function channelShards(env: Env, ctx: ServiceContext, opts: { own: boolean }): Promise<ChannelShard[]> {
  const providers = await connectedProviderAppIds(env, ctx.appId);
  const groups = await storesByShard(env, ctx, providers);
  const shards = groups.map((g) => ({ db: g.db, own: g.db === ctx.db, providerAppIds: g.appIds }));
  if (opts.own && !shards.some((s) => s.own)) shards.push({ db: ctx.db, own: true, providerAppIds: [] });
  return [...shards.filter((s) => s.own), ...shards.filter((s) => !s.own)];
}
