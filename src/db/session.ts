import type { MiddlewareHandler } from "hono";
import { merchantTokenEntry, TOKEN_PREFIX } from "../core/auth";
import { ApiError } from "../core/errors";
import type { AppEnv } from "../env";
import { BOOKMARK_HEADER, observedDb } from "./client";
import { heldStoreEntry, homeShard, type StoreEntry, shardNames, shardOf, storeEntry } from "./shards";

/** A bookmark names its shard: `SHARD_2:<D1 bookmark>` (a bookmark of one shard means nothing to another). */
const BOOKMARK = /^(SHARD_\d+):([0-9a-f]{8}(?:-[0-9a-f]{8,})+)$/i;
const APP_ID = /^[1-9]\d{0,15}$/;

/**
 * The store's shard, from `app-id` through the directory (held per isolate, core/tenancy's knownApp
 * reads the same entry); a signed link (pay link, invoice PDF) names its store in its `app_id` query
 * parameter instead, checked with its signature afterwards. A malformed or unknown store gets the
 * first shard, where the checks that follow answer it (400, 404) as they did with one database.
 */
async function shardOfRequest(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<string> {
  const raw = (c.req.header("app-id") ?? c.req.query("app_id"))?.trim();
  const appId = raw && APP_ID.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null;
  if (appId === null) return homeShard(c.env);
  // The store's directory row as this request reads it, once: core/tenancy's store check awaits it.
  const entryOnce = (read: Promise<StoreEntry | null>) => {
    read.catch(() => undefined);
    c.set("storeEntry", read);
    return read;
  };
  const held = heldStoreEntry(appId);
  if (held !== undefined) {
    entryOnce(Promise.resolve(held));
    return held?.shard ?? homeShard(c.env);
  }
  const bearer = /^bearer (\S+)$/i.exec(c.req.header("authorization")?.trim() ?? "")?.[1];
  // A merchant key's directory row names its store's shard: one read for the key and the store.
  if (bearer?.startsWith(TOKEN_PREFIX)) {
    const key = await merchantTokenEntry(c.env, bearer);
    // Another store's key is refused before any statement reaches a shard.
    if (key) return key.appId === appId ? key.shard : homeShard(c.env);
  }
  // A customer's access token names its store's shard: the request starts there at once, and the
  // directory's row is read beside its first statements (core/tenancy's store check compares them).
  const claimed = bearer ? claimedShard(bearer, appId, shardNames(c.env)) : undefined;
  const entry = entryOnce(storeEntry(c.env, appId));
  if (claimed) return claimed;
  return (await entry)?.shard ?? homeShard(c.env);
}

/**
 * The `shard` claim of a customer access token of store `appId`, read without checking the token's
 * signature: it only chooses where the request starts. The token is checked by the one auth path
 * before any answer, and no write runs before the store check confirms the shard (core/admission.ts),
 * so a forged claim reads nothing it could see and writes nothing.
 */
function claimedShard(bearer: string, appId: number, bound: readonly string[]): string | undefined {
  const payload = bearer.split(".")[1];
  if (!payload || bearer.split(".").length !== 3) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    return claims.app_id === appId && typeof claims.shard === "string" && bound.includes(claims.shard)
      ? claims.shard
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One D1 session per request, on its store's shard, chosen once here: every statement of the
 * request goes to it. It resumes from the client's bookmark when sent (so that a client reads its own
 * writes even from a read replica), else reads may use any replica and writes go to the primary. The
 * session's bookmark goes back in the response, with its shard's name.
 */
export const dbSession = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  const parsed = sent === undefined ? undefined : BOOKMARK.exec(sent.trim());
  if (sent !== undefined && !parsed) {
    throw new ApiError(
      400,
      "invalid_header",
      `The \`${BOOKMARK_HEADER}\` header must be a bookmark this API returned.`,
      { errors: { [BOOKMARK_HEADER]: ["Malformed bookmark."] } },
    );
  }
  const shard = await shardOfRequest(c);
  // A bookmark of another shard (the client moved to another store) constrains nothing here.
  const bookmark = parsed && parsed[1] === shard ? parsed[2] : undefined;
  const readOnly = c.req.method === "GET" || c.req.method === "HEAD";
  c.set("shard", shard);
  const session = shardOf(c.env, shard).withSession(bookmark ?? (readOnly ? "first-unconstrained" : "first-primary"));
  c.set("db", observedDb(session));
  await next();
  const latest = session.getBookmark();
  if (latest) c.header(BOOKMARK_HEADER, `${shard}:${latest}`);
};
