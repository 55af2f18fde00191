import { and, eq, lt, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { clientOf, createDb, type Db, sendsWrite } from "../db/client";
import type { AppEnv } from "../env";
import { beforeAdmission } from "./admission";
import { executionCtxOf } from "./context";
import { sha256Hex } from "./crypto";
import { ApiError, type ErrorCode } from "./errors";
import { idempotencyKeys } from "./idempotency-table";
import { logTaskFailure } from "./logging";
import { z } from "./openapi";
import { nowIso } from "./time";

/**
 * `Idempotency-Key` for writes that move money or stock (Stripe's model): the first request with a
 * key runs; a retry with the same key, method, path and body gets the first answer again (status,
 * `content-type`, `location`, body, plus `Idempotent-Replayed: true`) for 24 hours. Keys are per
 * store and per principal, so two tokens never see each other's answers.
 *
 * - the same key with another body or path: 409 `idempotency_key_reused`;
 * - the same key while the first request still runs: 409 `idempotency_key_in_flight`, `Retry-After: 1`;
 * - answers that say "try again" (5xx, 429, 409 `conflict`/`concurrent_update`) are not kept: the
 *   key is released so that a retry runs; every other 4xx is the answer and is replayed;
 * - every write the request sends to D1 carries the key's outcome in its own batch: a guard that the
 *   claim is still this request's, and the key marked `committed`. A Worker that dies between the
 *   commit and the stored response leaves the key committed, never free: a retry is refused (409
 *   `idempotency_key_response_lost`) instead of running the write again; and a request whose claim
 *   was taken over after its lease cannot commit at all.
 *
 * The key is optional: without it the write runs as before.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** How long an answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim holds while its request runs: a Worker that dies mid-request leaves the key
 * `in_flight`, and after this the key is free again rather than blocked for a day.
 */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;

/** 1 to 255 printable ASCII characters (a UUID fits; so does any client's own scheme). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The codes the middleware answers with, for the route factories to declare. */
export const IDEMPOTENCY_ERRORS = {
  409: ["idempotency_key_reused", "idempotency_key_in_flight", "idempotency_key_response_lost"],
} as const satisfies Record<number, readonly ErrorCode[]>;

/** The header as the document shows it on an operation that takes it. */
export const idempotencyHeaderSchema = z
  .string()
  .regex(KEY, "At most 255 printable ASCII characters.")
  .optional()
  .openapi({
    description:
      "A key of your choice (a UUID is best), 1–255 printable ASCII characters: a retry with the same key " +
      "and the same body gets the first response again (with `Idempotent-Replayed: true`) for 24 hours " +
      "instead of running twice. Another body under the same key is 409 `idempotency_key_reused`; the same " +
      "key while the first request runs is 409 `idempotency_key_in_flight` (retry after `Retry-After`). " +
      "Keys are per token (or customer). Optional: without it the write runs every time.",
    example: "5f0c9a4e-3f8b-4d36-9d61-2b8f0e7a1c55",
  });

/** The answers that tell the client to retry: keeping them would replay "retry" forever. */
const RETRY_CODES: ReadonlySet<ErrorCode> = new Set(["conflict", "concurrent_update", "rate_limited"]);

function retryable(c: Context<AppEnv>): boolean {
  const status = c.res.status;
  if (status >= 500 || status === 429) return true;
  return c.error instanceof ApiError && RETRY_CODES.has(c.error.code);
}

/** Response headers worth replaying; the rest (request id, bookmark) belong to each response. */
const KEPT_HEADERS = ["content-type", "location"];

type Claim = { id: number } | { row: typeof idempotencyKeys.$inferSelect | undefined };
type ClaimValues = Omit<typeof idempotencyKeys.$inferInsert, "state" | "expiresAt">;

/** Inserts the claim, or takes over an expired row; one statement, so that two racing requests cannot both win. */
async function claim(db: Db, values: ClaimValues, now: string): Promise<Claim> {
  const expiresAt = new Date(Date.parse(now) + IN_FLIGHT_LEASE_MS).toISOString();
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ ...values, state: "in_flight", expiresAt, createdAt: now })
    .onConflictDoUpdate({
      target: [idempotencyKeys.appId, idempotencyKeys.principal, idempotencyKeys.key],
      set: {
        method: values.method,
        path: values.path,
        bodyHash: values.bodyHash,
        state: "in_flight",
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: now,
        expiresAt,
      },
      setWhere: lt(idempotencyKeys.expiresAt, now),
    })
    .returning({ id: idempotencyKeys.id });
  if (claimed[0]) return { id: claimed[0].id };
  const row = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.appId, values.appId),
        eq(idempotencyKeys.principal, values.principal),
        eq(idempotencyKeys.key, values.key),
      ),
    )
    .get();
  return { row };
}

function invalidKey(): ApiError {
  return new ApiError(400, "invalid_header", `The \`${IDEMPOTENCY_HEADER}\` header is malformed.`, {
    errors: { [IDEMPOTENCY_HEADER]: ["Must be 1 to 255 printable ASCII characters."] },
  });
}

/** The answer to a request whose claim found the key held: the first answer again, or a 409 (thrown). */
function answerOfHeld(
  row: typeof idempotencyKeys.$inferSelect | undefined,
  values: ClaimValues,
  now: string,
): Response {
  if (row && (row.method !== values.method || row.path !== values.path || row.bodyHash !== values.bodyHash)) {
    throw ApiError.conflict(
      "idempotency_key_reused",
      "This Idempotency-Key was used with another request (another body or path); use a new key for a new request.",
    );
  }
  if (row?.state === "committed" && Date.parse(row.createdAt) + IN_FLIGHT_LEASE_MS < Date.parse(now)) {
    throw ApiError.conflict(
      "idempotency_key_response_lost",
      "The request with this Idempotency-Key made its change, but its response was lost; it will not run " +
        "again. Read the resource to see the result.",
    );
  }
  if (row?.state !== "done") {
    throw ApiError.conflict(
      "idempotency_key_in_flight",
      "A request with this Idempotency-Key is still running; retry in a second to get its response.",
      { headers: { "Retry-After": "1" } },
    );
  }
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set(REPLAYED_HEADER, "true");
  return new Response(row.responseBody, { status: row.responseStatus ?? 200, headers });
}

/** The claim, in two rounds at most: the row seen may be released (deleted) between the claim and the read. */
async function claimKey(db: Db, values: ClaimValues, now: string): Promise<Claim> {
  const claimed = await claim(db, values, now);
  return "row" in claimed && !claimed.row ? claim(db, values, now) : claimed;
}

/**
 * When the key is claimed: `before` the handler runs (every keyed route), or `with-first-read`, sent
 * beside the handler's first reads so that the key costs no round trip of its own. The handler's
 * writes wait for the claim and are never sent unless it is this request's; a claim that finds the
 * key held answers as `before` would (the first answer again, or a 409), whatever the handler made
 * of its reads. Only for a handler that does nothing outside D1 (a provider's call, a queue's send)
 * before its first write, since only D1 writes wait for the claim.
 */
export type ClaimTiming = "before" | "with-first-read";

/**
 * The middleware, after auth (it keys on the principal). Route factories add it with
 * `idempotent: true` (or `"with-first-read"`); the route then declares the header and the 409 codes.
 */
export const idempotent =
  (timing: ClaimTiming = "before"): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!KEY.test(key)) throw invalidKey();
    const principal = c.get("principal");
    const db = c.get("db");
    const path = c.req.path.endsWith("/") ? c.req.path : `${c.req.path}/`;
    // Hono caches the text, so the route's JSON validator still reads the body after this.
    const values: ClaimValues = {
      appId: c.get("appId"),
      principal:
        principal.kind === "merchant"
          ? `merchant:${principal.tokenId}`
          : principal.kind === "customer"
            ? `customer:${principal.customerId}`
            : "platform",
      key,
      method: c.req.method,
      path,
      bodyHash: await sha256Hex(await c.req.text()),
    };
    const now = nowIso();
    // The claim goes out beside the customer's admission (core/admission), and is released if refused.
    const keys = beforeAdmission(db);
    // `with-first-read`: sent with the handler's first statement, so that neither comes back before
    // the other goes out (one round trip for both, whatever the machine's pace), or after the
    // handler if it sent none.
    let claiming: Promise<Claim> | undefined;
    const claimNow = (): Promise<Claim> => {
      if (!claiming) {
        claiming = claimKey(keys, values, now);
        // Awaited below, after the handler; a write may never ask for it.
        claiming.catch(() => undefined);
      }
      return claiming;
    };
    if (timing === "before") {
      const claimed = await claimNow();
      if ("row" in claimed) return answerOfHeld(claimed.row, values, now);
    }
    // Writes wait for this: the claim's id, or null when the key is held by another request.
    const claimId = () => claimNow().then((claimed) => ("id" in claimed ? claimed.id : null));
    const outcome = claimOutcome(db, claimId, now);
    c.set("db", outcome.db);
    let failure: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      failure = { error };
    } finally {
      outcome.settle();
      c.set("db", db);
    }
    // A refused customer gets the refusal, never a stored answer nor one kept for replay.
    const refusal = await c.get("admission")?.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    if (refusal) failure = refusal;
    const claimed = await claimNow();
    if ("row" in claimed) {
      if (refusal) throw refusal.error;
      // The handler ran beside the claim and wrote nothing: its response gives way to the key's,
      // none of its headers kept (unset first, else Hono merges them into the next response).
      c.res = undefined;
      c.res = answerOfHeld(claimed.row, values, now);
      return;
    }
    await settleKeyed(c, keys, values, claimed.id, now, failure);
  };

/**
 * After the handler of a request holding the key: the key released when the request failed or its
 * answer says "try again", else the answer stored for replay, after the response.
 */
async function settleKeyed(
  c: Context<AppEnv>,
  db: Db,
  values: ClaimValues,
  id: number,
  now: string,
  failure: { error: unknown } | undefined,
): Promise<void> {
  // The claim's own row: after its lease another request may have taken the key over.
  const mine = and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.createdAt, now));
  // A key whose write committed is never released: a retry would run the write again.
  const release = () => db.delete(idempotencyKeys).where(and(mine, eq(idempotencyKeys.state, "in_flight")));
  if (failure) {
    await release();
    throw failure.error;
  }
  if (retryable(c)) {
    await release();
    return;
  }
  const res = c.res;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = res.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const store = db
    .update(idempotencyKeys)
    .set({
      state: "done",
      responseStatus: res.status,
      responseHeaders: headers,
      responseBody: res.status === 204 ? null : await res.clone().text(),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS).toISOString(),
    })
    .where(mine);
  // Stored after the response, not before it: the answer waits for D1 once less. A retry that comes
  // before the store lands is told the request is in flight (retry in a second); a store that never
  // lands leaves the key committed, as a Worker dying after the write does: never run twice.
  const stored = store.then(
    () => undefined,
    (error) => logTaskFailure("store idempotent response", error, { app_id: values.appId }),
  );
  // Without an execution context (a test's app.request()) the store runs on its own.
  executionCtxOf(c)?.waitUntil(stored);
}

/**
 * The request's db, with the claim's outcome added to each write it sends while the request runs:
 * before the write, in the same batch (one D1 transaction), a guard that the claim is still this
 * request's and the key marked `committed`. A write sent alone goes as a batch of three, still one
 * round trip. After `settle()` (the response is decided) writes pass through: work deferred past the
 * response (publishing events) must not depend on the key.
 */
function claimOutcome(
  db: Db,
  claimId: () => Promise<number | null>,
  createdAt: string,
): { db: Db; settle: () => void } {
  const session = clientOf(db);
  let settled = false;
  // A claim sent beside the handler's reads may still be on its way: a write waits for it, and is
  // never sent when the key is another request's (the middleware then answers as that key says).
  const outcome = async () => {
    const id = await claimId();
    if (id === null)
      throw ApiError.conflict("idempotency_key_in_flight", "Another request holds this Idempotency-Key.");
    return outcomeOf(id);
  };
  const outcomeOf = (id: number) => [
    session
      .prepare(
        "INSERT INTO batch_guards SELECT 'idempotency-claim' WHERE NOT EXISTS " +
          "(SELECT 1 FROM idempotency_keys WHERE id = ? AND created_at = ?)",
      )
      .bind(id, createdAt),
    session
      .prepare(
        "UPDATE idempotency_keys SET state = 'committed', expires_at = ? WHERE id = ? AND created_at = ? AND state = 'in_flight'",
      )
      .bind(new Date(Date.now() + IDEMPOTENCY_TTL_MS).toISOString(), id, createdAt),
  ];
  const alone = (stmt: D1PreparedStatement) => async () => (await session.batch([...(await outcome()), stmt]))[2]!;
  // A batch of reads only (one round trip for several reads) commits nothing: only a batch with a
  // write carries the outcome, else a request refused after its reads would leave the key committed.
  const writes = new WeakSet<D1PreparedStatement>();
  const write = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => write(target.bind(...values));
        if (!settled && (prop === "run" || prop === "all")) return alone(target);
        if (!settled && prop === "first")
          return async (column?: string) => {
            const row = (await alone(target)()).results[0] as Record<string, unknown> | undefined;
            return row === undefined ? null : column === undefined ? row : row[column];
          };
        if (!settled && prop === "raw")
          return async (opts?: { columnNames?: boolean }) => {
            const rows = (await alone(target)()).results as Record<string, unknown>[];
            const values = rows.map((r) => Object.values(r));
            return opts?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    writes.add(proxy);
    return proxy;
  };
  const wrapped = new Proxy(session, {
    get(target, prop) {
      // The handler's first statement sends the claim (a no-op once sent).
      if (prop === "prepare")
        return (q: string) => {
          if (!settled) claimId().catch(() => undefined);
          return sendsWrite(q) ? write(target.prepare(q)) : target.prepare(q);
        };
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) =>
          settled || !statements.some((s) => writes.has(s))
            ? target.batch(statements)
            : (await target.batch([...(await outcome()), ...statements])).slice(2);
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return {
    db: createDb(wrapped),
    settle: () => {
      settled = true;
    },
  };
}

/** Deletes keys past their 24 hours, a bounded number per run (the scheduled handler calls it). */
export async function purgeExpiredIdempotencyKeys(db: Db, limit = 1000): Promise<void> {
  await db.run(
    sql`DELETE FROM idempotency_keys WHERE id IN
      (SELECT id FROM idempotency_keys WHERE expires_at < ${nowIso()} LIMIT ${limit})`,
  );
}
