import { createDb, type Db } from "./client";
import { directoryOf } from "./shards";

/**
 * The directory as the sales channels module reads and writes it: its connections and their events'
 * deliveries (src/db/channel-directory-schema.ts), which both stores of a connection read whatever
 * their shards (docs/shards.md, "Sales channels across shards").
 */
export function channelDirectory(env: Env): Db {
  return createDb(directoryOf(env));
}
