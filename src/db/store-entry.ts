/** A store's directory row as a request needs it: its shard and whether it is suspended (db/shards.ts). */
export type StoreEntry = { id: number; shard: string; suspendedAt: string | null };
