import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { nowIso } from "../core/time";
import { createDb, type Db } from "./client";
import { directoryApps, directoryMerchantApiTokens, directoryOrganizations } from "./directory-schema";
import { placedShard } from "./placement";
import { directoryOf, forgetHeldStore, shardNames } from "./shards";

/**
 * Step 1's writes to the directory (docs/shards.md): a store's and an organization's directory rows,
 * written beside the shard's batch (before it for a new store's id, after it for the rest) until the
 * relay of step 2 carries them. The platform's routers call these; nothing else writes the directory.
 */
const directory = (env: Env): Db => createDb(directoryOf(env));

/** An organization as both databases hold it (the shard copies the directory's row). */
export type DirectoryOrganization = typeof directoryOrganizations.$inferSelect;

/** An organization the platform's shard created, under the same id. */
export async function registerOrganization(env: Env, org: DirectoryOrganization) {
  await directory(env).insert(directoryOrganizations).values(org).onConflictDoNothing();
}

/**
 * A new store's directory row, on the shard placement chooses (`placedShard`) or the one the platform
 * pinned it to, with its organization as the shard must copy it (the shard's `apps` row refers to it):
 * one directory round trip. Its id is unique across shards. 404 `organization_not_found` when the
 * directory lacks the organization; 404 `shard_not_found` for a pin to no bound shard.
 */
export async function registerStore(
  env: Env,
  input: { organization_id: number; name_en: string; name_ar: string; shard?: string | undefined },
): Promise<{ id: number; shard: string; organization: DirectoryOrganization }> {
  const bound = shardNames(env);
  if (input.shard !== undefined && !bound.includes(input.shard))
    throw new ApiError(404, "shard_not_found", `No shard is named ${input.shard}; the shards are ${bound.join(", ")}.`);
  const db = directory(env);
  const shard = input.shard === undefined ? placedShard(bound) : sql`SELECT ${input.shard}`;
  const now = nowIso();
  // Raw SQL for the insert: Drizzle's insert-select wants the generated `status` column selected too.
  // The organization's read goes beside it (one round trip): the shard copies it with the store.
  const [created, organization] = await Promise.all([
    db.all<{ id: number; shard: string }>(sql`INSERT INTO ${directoryApps}
        (org_id, name_en, name_ar, shard, created_at, modified_at)
      SELECT id, ${input.name_en}, ${input.name_ar}, (${shard}), ${now}, ${now}
      FROM ${directoryOrganizations} WHERE id = ${input.organization_id}
      RETURNING id, shard`),
    db.select().from(directoryOrganizations).where(eq(directoryOrganizations.id, input.organization_id)),
  ]);
  const row = created[0];
  if (!row || !organization[0])
    throw ApiError.notFound("organization_not_found", `Organization ${input.organization_id}`);
  return { id: row.id, shard: row.shard, organization: organization[0] };
}

/** Takes back a store whose shard refused its rows; never one that was provisioned. */
export async function unregisterStore(env: Env, id: number): Promise<void> {
  const a = directoryApps;
  await directory(env)
    .delete(a)
    .where(and(eq(a.id, id), sql`${a.provisionedAt} IS NULL`));
  forgetHeldStore(id);
}

/** The store's rows are in its shard: it serves requests. */
export async function storeProvisioned(env: Env, id: number): Promise<void> {
  const now = nowIso();
  await directory(env)
    .update(directoryApps)
    .set({ provisionedAt: now, modifiedAt: now })
    .where(eq(directoryApps.id, id));
}

/**
 * The store's status as its shard now has it: what every request checks (core/tenancy.ts). `at` is
 * the shard's `modified_at` for the change, so that both copies show one time.
 */
export async function storeSuspended(
  env: Env,
  id: number,
  to: { suspendedAt: string; reason: string } | null,
  at: string,
): Promise<void> {
  // From the status the shard's guarded batch leaves, sent beside it: a refused batch finds it moot.
  const a = directoryApps;
  const from = to ? isNull(a.suspendedAt) : sql`${a.suspendedAt} IS NOT NULL`;
  await directory(env)
    .update(a)
    .set({ suspendedAt: to?.suspendedAt ?? null, suspensionReason: to?.reason ?? null, modifiedAt: at })
    .where(and(eq(a.id, id), from));
  forgetHeldStore(id);
}

/** A merchant key's row as the shards keep it (core/auth.ts `merchantApiTokens`). */
export type TokenRow = {
  id: number;
  appId: number;
  name: string;
  tokenHash: string;
  tokenPrefix: string;
  permissions: string[];
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  createdBy: number | null;
  lastFour: string | null;
  lastUsedAt: string | null;
  replacedBy: number | null;
};

/**
 * The directory's side of the merchant keys (step 1 of docs/shards.md): the token check reads the
 * directory's row, the store's shard keeps a copy under the same id for its lists, audit rows and
 * events. A new key's id is the directory's (unique across shards), taken before the shard's batch
 * and given back if the batch refuses; a change to a key is copied after the shard's batch.
 */
export type TokenDirectory = {
  register(row: Omit<TokenRow, "id">): Promise<number>;
  unregister(id: number): Promise<void>;
  copy(rows: readonly TokenRow[]): Promise<void>;
  /**
   * Revokes key `id` of store `appId` if it is not revoked yet; sent beside the shard's batch, which
   * makes the same change under the same condition (a refused batch finds it already made or moot).
   */
  revoke(appId: number, id: number, at: string): Promise<void>;
  /** The rotated key's end and successor, beside the shard's batch, under the shard's own condition. */
  rotated(appId: number, id: number, to: { expiresAt: string; replacedBy: number; now: string }): Promise<void>;
};

export function tokenDirectory(env: Env): TokenDirectory {
  const t = directoryMerchantApiTokens;
  const values = (r: Omit<TokenRow, "id">) => ({ ...r, permissions: JSON.stringify(r.permissions) });
  return {
    async register(row) {
      const v = values(row);
      // Only for a store the directory has: 404 `store_not_found` otherwise, as the shard's guard says.
      const created = await directoryOf(env)
        .prepare(
          "INSERT INTO merchant_api_tokens (app_id, name, token_hash, token_prefix, permissions, expires_at, " +
            "revoked_at, created_at, created_by, last_four, last_used_at, replaced_by) " +
            "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM apps WHERE id = ?) RETURNING id",
        )
        .bind(
          v.appId,
          v.name,
          v.tokenHash,
          v.tokenPrefix,
          v.permissions,
          v.expiresAt,
          v.revokedAt,
          v.createdAt,
          v.createdBy,
          v.lastFour,
          v.lastUsedAt,
          v.replacedBy,
          v.appId,
        )
        .first<{ id: number }>();
      if (!created) throw ApiError.notFound("store_not_found", `Store ${row.appId}`);
      return created.id;
    },
    async unregister(id) {
      await directory(env).delete(t).where(eq(t.id, id));
    },
    async copy(rows) {
      if (!rows.length) return;
      const db = directory(env);
      const [first, ...rest] = rows.map((r) =>
        db
          .insert(t)
          .values({ ...values(r), id: r.id })
          .onConflictDoUpdate({
            target: t.id,
            set: { expiresAt: r.expiresAt, revokedAt: r.revokedAt, lastUsedAt: r.lastUsedAt, replacedBy: r.replacedBy },
          }),
      );
      await db.batch([first!, ...rest]);
    },
    async revoke(appId, id, at) {
      await directory(env)
        .update(t)
        .set({ revokedAt: at })
        .where(and(eq(t.id, id), eq(t.appId, appId), isNull(t.revokedAt)));
    },
    async rotated(appId, id, to) {
      await directory(env)
        .update(t)
        .set({ expiresAt: to.expiresAt, replacedBy: to.replacedBy })
        .where(
          and(
            eq(t.id, id),
            eq(t.appId, appId),
            isNull(t.revokedAt),
            isNull(t.replacedBy),
            or(isNull(t.expiresAt), gt(t.expiresAt, to.now)),
          ),
        );
    },
  };
}

/** The directory's key, its store, and the store's shard, by the key's hash: what the token check reads. */
export async function tokenByHash(env: Env, hash: string) {
  const t = directoryMerchantApiTokens;
  const a = directoryApps;
  const row = await directory(env)
    .select({
      id: t.id,
      appId: t.appId,
      permissions: t.permissions,
      expiresAt: t.expiresAt,
      revokedAt: t.revokedAt,
      orgId: a.orgId,
      appSuspendedAt: a.suspendedAt,
      shard: a.shard,
    })
    .from(t)
    .innerJoin(a, eq(a.id, t.appId))
    .where(eq(t.tokenHash, hash))
    .get();
  return row && { ...row, permissions: JSON.parse(row.permissions) as string[] };
}

/** A key's last use, beside the shard's copy (written after a response, at most once a minute). */
export async function tokenUsed(env: Env, id: number, at: string): Promise<void> {
  await directory(env)
    .update(directoryMerchantApiTokens)
    .set({ lastUsedAt: at })
    .where(eq(directoryMerchantApiTokens.id, id));
}
