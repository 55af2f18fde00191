import { createDb } from "./client";
import { platformAuditEvents } from "./directory-schema";
import { directoryOf, shardOf } from "./shards";

/** Rows copied per statement: a page of the shard's platform rows and one directory batch each. */
const PAGE = 100;

type ShardAuditRow = {
  id: number;
  app_id: number | null;
  actor_type: "api_key" | "platform";
  actor_id: number | null;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  before: string | null;
  after: string | null;
  created_at: string;
};

/**
 * Copies a shard's platform audit rows (`actor_type = 'platform'`) that the directory lacks into the
 * directory's `platform_audit_events`, in the shard's id order. Each row is written on its store's
 * shard in its change's own batch, so it is never lost; this copy makes the platform's trail one
 * database's list. Run after every platform write (for its shard, after the response) and by the
 * scheduled `copy-platform-audit` task on every shard, which catches up on a copy an isolate never
 * finished. A row copied twice is one row (unique on shard and source id).
 */
export async function copyPlatformAudit(env: Env, shard: string): Promise<{ copied: number }> {
  const directory = createDb(directoryOf(env));
  const from = shardOf(env, shard);
  let copied = 0;
  for (;;) {
    const last = await directoryOf(env)
      .prepare("SELECT coalesce(max(source_id), 0) AS id FROM platform_audit_events WHERE shard = ?")
      .bind(shard)
      .first<{ id: number }>();
    const { results } = await from
      .prepare("SELECT * FROM audit_events WHERE actor_type = 'platform' AND id > ? ORDER BY id LIMIT ?")
      .bind(last?.id ?? 0, PAGE)
      .all<ShardAuditRow>();
    if (!results.length) return { copied };
    // One statement per row: D1 binds at most 100 parameters to a statement.
    const [first, ...rest] = results.map((r) =>
      directory
        .insert(platformAuditEvents)
        .values({
          appId: r.app_id,
          actorType: r.actor_type,
          actorId: r.actor_id,
          action: r.action,
          resourceType: r.resource_type,
          resourceId: r.resource_id,
          requestId: r.request_id,
          before: r.before === null ? null : JSON.parse(r.before),
          after: r.after === null ? null : JSON.parse(r.after),
          createdAt: r.created_at,
          shard,
          sourceId: r.id,
        })
        .onConflictDoNothing(),
    );
    await directory.batch([first!, ...rest]);
    copied += results.length;
    if (results.length < PAGE) return { copied };
  }
}
