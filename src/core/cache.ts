import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { AppEnv } from "../env";
import { nowMs } from "./clock";
import { executionCtxOf } from "./context";
import { base64url } from "./crypto";
import { HeldFor } from "./held";
import { logTaskFailure } from "./logging";

/**
 * Cache-aside in Workers KV for public reads, with HTTP revalidation.
 *
 * An entry is keyed by the request (origin, path and sorted query) and stamped with the tenant's
 * cache generation. A write to what those reads show replaces the generation with a new random
 * value (`invalidatesPublicCache`), so every older entry is a miss from then on, without listing
 * keys. The generation is random rather than a counter: two concurrent writers that each read
 * n and wrote n + 1 would leave an entry filled between their writes looking current.
 *
 * Bodies are kept gzipped, and served so to clients that take gzip. In front of KV sits a small
 * LRU in the isolate's memory, checked against the same generation.
 *
 * The generation is held in the isolate for at most a second (`GENERATION_HOLD_MS`), so that a
 * hit reads nothing from KV. KV is eventually consistent: the isolate that wrote sees the new
 * generation at once, the rest of that location within a second; other locations may serve an
 * entry of the old generation for up to KV's 60 s cache, and a client's own HTTP cache may keep a
 * response for `max-age`. docs/interface-decisions.md states the bound.
 */

export const CACHE_CONTROL = "public, max-age=60";
/** How long an entry may live in KV at most; a stale generation makes it unreachable sooner. */
const ENTRY_TTL_SECONDS = 3600;
const KV_MIN_TTL_SECONDS = 60;

type EntryMeta = { gen: string; etag: string; until?: number };

/**
 * Part of every entry's key: a release that changes what an entry holds changes it, so that it
 * never reads entries an older release wrote (they expire on their own).
 */
const ENTRY_FORMAT = "cache-v2";

const generationKey = (appId: number) => `gen:${appId}`;

async function sha256(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** The request, normalised: the same query in another order is the same entry. */
function requestKey(url: URL): string {
  const params = [...url.searchParams].sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return `${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

/**
 * The gzip representation has its own strong ETag (`"…-gzip"`), as RFC 9110 asks of strong
 * validators; either names the same entity in If-None-Match.
 */
const GZIP_SUFFIX = '-gzip"';
const gzipEtag = (etag: string) => etag.replace(/"$/, GZIP_SUFFIX);
const entityOf = (tag: string) => tag.trim().replace(/^W\//, "").replace(GZIP_SUFFIX, '"');

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison, and `*` matches any current entity. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const entity = entityOf(etag);
  return header.split(",").some((t) => entityOf(t) === entity);
}

/** True when the client takes gzip (`Accept-Encoding: gzip` or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.split(";").map((x) => x.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
  );
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
  );
}

export type Loaded = {
  body: unknown;
  /** Epoch ms after which the body is wrong even without a write (it depends on today's date). */
  until?: number;
};

/**
 * A cached body. KV keeps it gzipped (JSON shrinks about 15x, so the reads and the bytes sent are
 * small); clients that take gzip get those bytes as they are, and the plain bytes are made once
 * per isolate for the others.
 */
type Held = EntryMeta & { gzipped: Uint8Array; plain?: Uint8Array };

/**
 * An L1 in the isolate's memory in front of KV, least recently used first out. An entry here is
 * served only under the generation read from KV on the same request, so it is never staler than
 * KV; it saves reading the body from KV on every hit.
 */
const MEMORY_BUDGET_BYTES = 16 * 1024 * 1024;
const memory = new Map<string, Held>();
let memoryBytes = 0;
const sizeOf = (h: Held) => h.gzipped.byteLength + (h.plain?.byteLength ?? 0);

function recall(key: string): Held | undefined {
  const held = memory.get(key);
  if (held) {
    memory.delete(key);
    memory.set(key, held);
  }
  return held;
}

function remember(key: string, held: Held): void {
  const old = memory.get(key);
  if (old) {
    memory.delete(key);
    memoryBytes -= sizeOf(old);
  }
  if (sizeOf(held) > MEMORY_BUDGET_BYTES / 4) return;
  memory.set(key, held);
  memoryBytes += sizeOf(held);
  for (const [k, v] of memory) {
    if (memoryBytes <= MEMORY_BUDGET_BYTES) break;
    memory.delete(k);
    memoryBytes -= sizeOf(v);
  }
}

/** The plain bytes of an entry, made once and kept with it. */
async function plainOf(held: Held): Promise<Uint8Array> {
  if (!held.plain) {
    held.plain = await gunzip(held.gzipped);
    memoryBytes += held.plain.byteLength;
  }
  return held.plain;
}

/**
 * The tenant's generation as this isolate last read it, for at most GENERATION_HOLD_MS: a cached
 * read then costs no KV read at all. A write in this isolate replaces it at once
 * (`invalidateTenantCache`); another isolate of the same location sees it within a second, other
 * locations within KV's own propagation.
 */
export const GENERATION_HOLD_MS = 1000;
const generations = new HeldFor<number, string | null>(GENERATION_HOLD_MS);

async function generationOf(kv: KVNamespace, appId: number): Promise<string | null> {
  const now = Date.now();
  const held = generations.get(appId, now);
  if (held !== undefined) return held;
  const gen = await kv.get(generationKey(appId));
  generations.set(appId, gen, now);
  return gen;
}

/** `until` is on the clock the loaders read today from (core/clock.ts): the entry is checked against it too. */
const fresh = (meta: EntryMeta, gen: string) => meta.gen === gen && (meta.until === undefined || nowMs() < meta.until);

/** The loader's body, serialised once, with its ETag and gzipped bytes. */
async function serialised(load: () => Promise<Loaded>, gen = "0"): Promise<Held> {
  const loaded = await load();
  const plain = new TextEncoder().encode(JSON.stringify(loaded.body));
  const etag = `"${(await sha256(plain)).slice(0, 27)}"`;
  return { gen, etag, ...(loaded.until !== undefined && { until: loaded.until }), gzipped: await gzip(plain), plain };
}

/** The entry of `key`, if it is of the tenant's current generation and still valid; else loads and stores it. */
async function readThrough(
  c: Context<AppEnv>,
  key: string,
  load: () => Promise<Loaded>,
): Promise<{ held: Held; hit: boolean }> {
  const kv = c.env.CACHE;
  const appId = c.get("appId");
  // Only the benchmark's own entry sets this (per request): what a read costs without its cache.
  if ((c.env as { CACHE_BYPASS?: unknown }).CACHE_BYPASS === true) return { held: await serialised(load), hit: false };
  const memoryKey = `${appId} ${key}`;
  const held = recall(memoryKey);
  const heldGen = held ? ((await generationOf(kv, appId)) ?? "0") : null;
  if (held && fresh(held, heldGen!)) return { held, hit: true };
  // KV keys are at most 512 bytes: the request is hashed.
  const entryKey = `${ENTRY_FORMAT}:${appId}:${await sha256(key)}`;
  // Without a generation yet, both reads at once: the entry carries the generation it was filled under.
  const [g, entry] = await Promise.all([
    heldGen ?? generationOf(kv, appId),
    kv.getWithMetadata<EntryMeta>(entryKey, "arrayBuffer"),
  ]);
  const gen = g ?? "0";
  if (entry.value !== null && entry.metadata && fresh(entry.metadata, gen)) {
    const found: Held = { ...entry.metadata, gzipped: new Uint8Array(entry.value) };
    remember(memoryKey, found);
    return { held: found, hit: true };
  }

  const filled = await serialised(load, gen);
  const metadata: EntryMeta = { gen, etag: filled.etag, ...(filled.until !== undefined && { until: filled.until }) };
  const ttl = filled.until === undefined ? ENTRY_TTL_SECONDS : Math.ceil((filled.until - nowMs()) / 1000);
  remember(memoryKey, filled);
  c.executionCtx.waitUntil(
    kv.put(entryKey, filled.gzipped, {
      metadata,
      expirationTtl: Math.min(ENTRY_TTL_SECONDS, Math.max(KV_MIN_TTL_SECONDS, ttl)),
    }),
  );
  return { held: filled, hit: false };
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
  const { held, hit } = await readThrough(c, requestKey(new URL(c.req.url)), load);
  // Cloudflare (and wrangler dev) rewrite Accept-Encoding to "br, gzip" for every request; what
  // the client itself sent is in `cf.clientAcceptEncoding`.
  const cf = c.req.raw.cf as IncomingRequestCfProperties | undefined;
  const gz = acceptsGzip(cf?.clientAcceptEncoding ?? c.req.header("accept-encoding"));
  const headers: Record<string, string> = {
    ETag: gz ? gzipEtag(held.etag) : held.etag,
    "Cache-Control": CACHE_CONTROL,
    Vary: "app-id, Accept-Encoding",
    "X-Cache": hit ? "HIT" : "MISS",
  };
  if (matchesIfNoneMatch(c.req.header("if-none-match"), held.etag))
    return new Response(null, { status: 304, headers }) as CachedResponse;
  headers["Content-Type"] = "application/json";
  if (!gz) return new Response(await plainOf(held), { status: 200, headers }) as CachedResponse;
  // Already encoded: the runtime sends the bytes as they are.
  return new Response(held.gzipped, {
    status: 200,
    headers: { ...headers, "Content-Encoding": "gzip" },
    encodeBody: "manual",
  }) as CachedResponse;
}

/**
 * A tenant's data set that several requests compute from (such as the providers with their zones), cached the same
 * way.
 */
export async function cachedData<T>(c: Context<AppEnv>, name: string, load: () => Promise<T>): Promise<T> {
  const { held } = await readThrough(c, `data:${name}`, async () => ({ body: await load() }));
  return JSON.parse(new TextDecoder().decode(await plainOf(held))) as T;
}

/** KV takes one write a second to a key: a refused generation is written again after that second. */
export const GENERATION_RETRY_MS = 1100;
const GENERATION_TRIES = 3;

/**
 * Makes every cached public read of the tenant a miss from now on. Called after a committed write,
 * it never fails that write's answer: this isolate sees the new generation at once, and KV's copy
 * is written now or, when KV refuses it (one write a second to a key: a busy store's checkouts),
 * again after that second, deferred with `defer` when given, until it lands or the tries are spent
 * (logged; entries then live out their TTL).
 */
export async function invalidateTenantCache(
  kv: KVNamespace,
  appId: number,
  defer?: (work: Promise<unknown>) => void,
): Promise<void> {
  const gen = crypto.randomUUID();
  generations.set(appId, gen);
  const write = () => kv.put(generationKey(appId), gen);
  try {
    return await write();
  } catch {
    // Tried again below, after KV's second.
  }
  const again = async () => {
    let refusal: unknown;
    for (let tries = 1; tries < GENERATION_TRIES; tries++) {
      await new Promise((r) => setTimeout(r, GENERATION_RETRY_MS));
      try {
        return await write();
      } catch (error) {
        refusal = error;
      }
    }
    logTaskFailure("invalidate public cache", refusal, { app_id: appId });
  };
  if (defer) defer(again());
  else await again();
}

/**
 * For the routers whose writes change cached public reads: after a successful write, the tenant's
 * generation is replaced before the response goes out, so the writer's next read is fresh.
 */
export const invalidatesPublicCache = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 300)
    await invalidateTenantCache(c.env.CACHE, c.get("appId"), (work) => executionCtxOf(c)?.waitUntil(work));
};
