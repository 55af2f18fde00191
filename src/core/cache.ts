import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { AppEnv } from "../env";
import { base64url } from "./crypto";

/**
 * Cache-aside in Workers KV for public reads, with HTTP revalidation.
 *
 * An entry is keyed by the request (origin, path and sorted query) and stamped with the tenant's
 * cache generation. A write to what those reads show replaces the generation with a new random
 * value (`invalidatesPublicCache`), so every older entry is a miss from then on, without listing
 * keys. The generation is random rather than a counter: two concurrent writers that each read
 * n and wrote n + 1 would leave an entry filled between their writes looking current.
 *
 * KV is eventually consistent: the location that wrote sees the new generation at once; other
 * locations may serve an entry of the old generation for up to KV's 60 s cache, and a client's
 * own HTTP cache may keep a response for `max-age`. docs/interface-decisions.md states the bound.
 */

export const CACHE_CONTROL = "public, max-age=60";
/** How long an entry may live in KV at most; a stale generation makes it unreachable sooner. */
const ENTRY_TTL_SECONDS = 3600;
const KV_MIN_TTL_SECONDS = 60;

type EntryMeta = { gen: string; etag: string; until?: number };

const generationKey = (appId: number) => `gen:${appId}`;

async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** The request, normalised: the same query in another order is the same entry. */
function requestKey(url: URL): string {
  const params = [...url.searchParams].sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return `${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison, and `*` matches any current entity. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === bare);
}

export type Loaded = {
  body: unknown;
  /** Epoch ms after which the body is wrong even without a write (it depends on today's date). */
  until?: number;
};

/** The entry of `key`, if it is of the tenant's current generation and still valid; else loads and stores it. */
async function readThrough(c: Context<AppEnv>, key: string, load: () => Promise<Loaded>): Promise<{ body: string; etag: string; hit: boolean }> {
  const kv = c.env.CACHE;
  const appId = c.get("appId");
  const entryKey = `meals:${appId}:${await sha256(key)}`;
  // Both reads at once: the entry carries the generation it was filled under.
  const [gen, entry] = await Promise.all([kv.get(generationKey(appId)), kv.getWithMetadata<EntryMeta>(entryKey, "text")]);
  const current = gen ?? "0";
  const meta = entry.metadata;
  if (entry.value !== null && meta && meta.gen === current && (meta.until === undefined || Date.now() < meta.until)) {
    return { body: entry.value, etag: meta.etag, hit: true };
  }

  const loaded = await load();
  const body = JSON.stringify(loaded.body);
  const etag = `"${(await sha256(body)).slice(0, 27)}"`;
  const metadata: EntryMeta = { gen: current, etag, ...(loaded.until !== undefined && { until: loaded.until }) };
  const ttl = loaded.until === undefined ? ENTRY_TTL_SECONDS : Math.ceil((loaded.until - Date.now()) / 1000);
  c.executionCtx.waitUntil(kv.put(entryKey, body, { metadata, expirationTtl: Math.min(ENTRY_TTL_SECONDS, Math.max(KV_MIN_TTL_SECONDS, ttl)) }));
  return { body, etag, hit: false };
}

/**
 * The body is the loader's, already serialised: typed as the route's 200 JSON so that route
 * handlers can return it (a 304 is the same representation, not modified).
 */
type CachedResponse = Response & TypedResponse<never, 200, "json">;

/**
 * Serves a public GET from KV, or loads, stores and serves it. Validate the request before: only
 * 200 bodies are stored, and a loader's error (404, 400) passes through uncached.
 */
export async function cachedJson(c: Context<AppEnv>, load: () => Promise<Loaded>): Promise<CachedResponse> {
  const { body, etag, hit } = await readThrough(c, requestKey(new URL(c.req.url)), load);
  const headers = { ETag: etag, "Cache-Control": CACHE_CONTROL, Vary: "app-id", "X-Cache": hit ? "HIT" : "MISS" };
  if (matchesIfNoneMatch(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers) as unknown as CachedResponse;
  return c.body(body, 200, { ...headers, "Content-Type": "application/json" }) as unknown as CachedResponse;
}

/** A tenant's data set that several requests compute from (such as the providers with their zones), cached the same way. */
export async function cachedData<T>(c: Context<AppEnv>, name: string, load: () => Promise<T>): Promise<T> {
  const { body } = await readThrough(c, `data:${name}`, async () => ({ body: await load() }));
  return JSON.parse(body) as T;
}

/** Makes every cached public read of the tenant a miss from now on. */
export async function invalidateTenantCache(kv: KVNamespace, appId: number): Promise<void> {
  await kv.put(generationKey(appId), crypto.randomUUID());
}

/**
 * For the routers whose writes change cached public reads: after a successful write, the tenant's
 * generation is replaced before the response goes out, so the writer's next read is fresh.
 */
export const invalidatesPublicCache = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 300) await invalidateTenantCache(c.env.CACHE, c.get("appId"));
};
