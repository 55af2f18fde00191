/**
 * The bench's stores and keys as the shards want them (docs/shards.md): a store's directory row beside
 * its rows on its shard, and merchant keys in the directory (where the token check reads them) with
 * their copy on the store's shard.
 */
import { randomToken, sha256Hex } from "../../src/core/crypto";
import { TOKEN_PREFIX } from "../../src/core/permissions";
import { executeLocal, lit, queryLocal } from "../d1";
import { SHARD_OF_STORE } from "../seed-shards";

/** The shard the bench's stores are written on (its SQL goes to `executeLocal`'s default database). */
export const BENCH_SHARD = "SHARD_1";

/** A store's shard in the bench's database: the seed's demo stores where the seed put them, the bench's on BENCH_SHARD. */
export const benchShardOf = (app: number): string => SHARD_OF_STORE[app] ?? BENCH_SHARD;

/**
 * A bench store's directory row (docs/shards.md), beside its rows that the bench writes on
 * BENCH_SHARD: requests find their store's shard there. Of organization 1, as the seed's store 1.
 */
export function registerBenchStore(app: number, name: string): void {
  const now = lit(new Date().toISOString());
  executeLocal(
    `INSERT OR IGNORE INTO apps (id, org_id, name_en, name_ar, shard, created_at, provisioned_at)
      VALUES (${app}, 1, ${lit(name)}, ${lit(name)}, ${lit(BENCH_SHARD)}, ${now}, ${now});`,
    "DIRECTORY",
  );
}

/**
 * A merchant API token of store `app` with `permissions`, written to local D1 (the directory, where
 * the token check reads it, and the store's shard, whose key lists and audit rows name it); its headers.
 */
export async function merchantHeaders(app: number, permissions: string[], extra: Record<string, string> = {}) {
  const token = randomToken(TOKEN_PREFIX);
  const id = Number(
    queryLocal<{ id: number }>(
      `INSERT INTO merchant_api_tokens (app_id, name, token_hash, token_prefix, permissions, created_at)
        VALUES (${app}, 'bench', ${lit(await sha256Hex(token))}, ${lit(token.slice(0, 10))}, ${lit(permissions)},
          ${lit(new Date().toISOString())}) RETURNING id;`,
      "DIRECTORY",
    )[0]!.id,
  );
  executeLocal(
    `INSERT INTO merchant_api_tokens (id, app_id, name, token_hash, token_prefix, permissions, created_at)
      VALUES (${id}, ${app}, 'bench', ${lit(await sha256Hex(token))}, ${lit(token.slice(0, 10))}, ${lit(permissions)},
        ${lit(new Date().toISOString())});`,
    benchShardOf(app),
  );
  return { authorization: `Bearer ${token}`, "app-id": String(app), ...extra };
}
