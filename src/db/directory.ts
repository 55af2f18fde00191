import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { nowIso } from "../core/time";
import { createDb, type Db } from "./client";
import { directoryApps, directoryOrganizations } from "./directory-schema";
import { directoryOf, forgetHeldStore, homeShard } from "./shards";

/**
 * Step 1's writes to the directory (docs/shards.md): a store's and an organization's directory rows,
 * written beside the shard's batch (before it for a new store's id, after it for the rest) until the
 * relay of step 2 carries them. The platform's routers call these; nothing else writes the directory.
 */
const directory = (env: Env): Db => createDb(directoryOf(env));

/** An organization the platform's shard created, under the same id. */
export async function registerOrganization(env: Env, org: { id: number; name: string; createdAt: string }) {
  await directory(env).insert(directoryOrganizations).values(org).onConflictDoNothing();
}

/**
 * A new store's directory row, on the platform's shard until placement (step 3): its id, unique
 * across shards. 404 `organization_not_found` when the directory lacks the organization.
 */
export async function registerStore(
  env: Env,
  input: { organization_id: number; name_en: string; name_ar: string },
): Promise<{ id: number; shard: string }> {
  const shard = homeShard(env);
  const db = directory(env);
  const o = directoryOrganizations;
  const row = await db
    .insert(directoryApps)
    .select(
      db
        .select({
          id: sql<number>`NULL`.as("id"),
          orgId: o.id,
          nameEn: sql<string>`${input.name_en}`.as("name_en"),
          nameAr: sql<string>`${input.name_ar}`.as("name_ar"),
          shard: sql<string>`${shard}`.as("shard"),
          createdAt: sql<string>`${nowIso()}`.as("created_at"),
          suspendedAt: sql<null>`NULL`.as("suspended_at"),
          suspensionReason: sql<null>`NULL`.as("suspension_reason"),
          provisionedAt: sql<null>`NULL`.as("provisioned_at"),
        })
        .from(o)
        .where(eq(o.id, input.organization_id)),
    )
    .returning({ id: directoryApps.id })
    .get();
  if (!row) throw ApiError.notFound("organization_not_found", `Organization ${input.organization_id}`);
  return { id: row.id, shard };
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
  await directory(env).update(directoryApps).set({ provisionedAt: nowIso() }).where(eq(directoryApps.id, id));
}

/** The store's status as its shard now has it: what every request checks (core/tenancy.ts). */
export async function storeSuspended(
  env: Env,
  id: number,
  to: { suspendedAt: string; reason: string } | null,
): Promise<void> {
  await directory(env)
    .update(directoryApps)
    .set({ suspendedAt: to?.suspendedAt ?? null, suspensionReason: to?.reason ?? null })
    .where(eq(directoryApps.id, id));
  forgetHeldStore(id);
}
