import { env } from "cloudflare:workers";
import { mintMerchantToken, PERMISSIONS, type Permission } from "../../src/core/auth";
import { tokenDirectory } from "../../src/db/directory";
import { db, shardFor } from "./factories";

/** An audit row as stored, `before` and `after` parsed, and the row's whole text (to look for secrets in). */
export type StoredAudit = {
  id: number;
  app_id: number | null;
  actor_type: string;
  actor_id: number | null;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
  text: string;
};

/** The store's audit rows, oldest first; `action` narrows them by its prefix (`webhook.`). */
export async function auditRowsOf(appId: number, actionPrefix = ""): Promise<StoredAudit[]> {
  const { results } = await shardFor(appId)
    .prepare("SELECT * FROM audit_events WHERE app_id = ? AND action LIKE ? || '%' ORDER BY id")
    .bind(appId, actionPrefix)
    .all<Record<string, unknown>>();
  return results.map((r) => ({
    ...(r as unknown as StoredAudit),
    before: r.before === null ? null : JSON.parse(r.before as string),
    after: r.after === null ? null : JSON.parse(r.after as string),
    text: JSON.stringify(r),
  }));
}

/** A merchant key and its id (the audit trail's `actor_id`). */
export async function keyFor(appId: number, permissions: Permission[] = [...PERMISSIONS]) {
  const { id, token } = await mintMerchantToken(
    db(appId),
    { appId, name: "audit test", permissions, expiresAt: null },
    tokenDirectory(env),
  );
  return { id, token };
}
