import { and, eq, isNull } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Context, MiddlewareHandler } from "hono";
import { sign, verify } from "hono/jwt";
import { JwtTokenExpired } from "hono/utils/jwt/types";
import type { Db } from "../db/client";
import { type TokenDirectory, tokenByHash, tokenUsed } from "../db/directory";
import type { AppEnv } from "../env";
import { writesAfterAdmission } from "./admission";
import { executionCtxOf } from "./context";
import { randomToken, sha256Hex } from "./crypto";
import { ApiError } from "./errors";
import { HeldFor } from "./held";
import { PERMISSIONS, type Permission, TOKEN_PREFIX } from "./permissions";
import type { CustomerPrincipal, MerchantPrincipal, Principal } from "./principal";
import { enforceRateLimit, RATE_LIMITS } from "./rate-limit";
import { addedModifiedAt } from "./sql";
import { requireGoodStanding } from "./standing";
import { appSuspended, apps, readTenant, TOKEN_HOLD_MS } from "./tenancy";
import { nowIso } from "./time";

export { PERMISSIONS, type Permission, TOKEN_PREFIX };

/**
 * Merchant API tokens: stored as a SHA-256 hash (the token itself is shown once), with the
 * permissions it grants, an optional expiry and a revocation time.
 */
export const merchantApiTokens = sqliteTable(
  "merchant_api_tokens",
  {
    id: integer("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    tokenPrefix: text("token_prefix").notNull(),
    permissions: text("permissions", { mode: "json" }).$type<Permission[]>().notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
    /** The key that created this one; null when the platform (or the local CLI) issued it. */
    createdBy: integer("created_by"),
    /** The secret's last four characters, to tell keys apart in a list (the secret is never kept). */
    lastFour: text("last_four"),
    /** Written after a response, at most once a minute per key and isolate. */
    lastUsedAt: text("last_used_at"),
    /** The key a rotation replaced this one with. */
    replacedBy: integer("replaced_by"),
    /** The shard's copy only (List API Keys syncs on it), set by every writer; constant default (migration 0025). */
    modifiedAt: addedModifiedAt(),
  },
  (t) => [uniqueIndex("merchant_api_tokens_hash_uq").on(t.tokenHash), index("merchant_api_tokens_app_idx").on(t.appId)],
);

export type { CustomerPrincipal, MerchantPrincipal, Principal };

/**
 * Creates a merchant token and returns it in clear, once: its id and row in the directory, its copy
 * in the store's shard (`db`) under the same id (docs/shards.md, step 1).
 */
export async function mintMerchantToken(
  db: Db,
  input: { appId: number; name: string; permissions: Permission[]; expiresAt?: string | null },
  directory: TokenDirectory,
): Promise<{ id: number; token: string }> {
  const token = randomToken(TOKEN_PREFIX);
  const row = {
    appId: input.appId,
    name: input.name,
    tokenHash: await sha256Hex(token),
    tokenPrefix: token.slice(0, 10),
    lastFour: token.slice(-4),
    permissions: input.permissions,
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
    createdAt: nowIso(),
    createdBy: null,
    lastUsedAt: null,
    replacedBy: null,
  };
  const id = await directory.register(row);
  await db.insert(merchantApiTokens).values({ ...row, id, modifiedAt: row.createdAt });
  return { id, token };
}

/** Forgets the tokens this isolate held: a revocation, a rotation or a store's suspension shows here at once. */
export function forgetHeldTokens(): void {
  heldTokens.clear();
}

/** The statement that revokes a token (one not revoked yet), for a batch; the caller forgets the held tokens. */
export const revokeMerchantTokenStatement = (db: Db, appId: number, id: number, at = nowIso()) =>
  db
    .update(merchantApiTokens)
    .set({ revokedAt: at, modifiedAt: at })
    .where(and(eq(merchantApiTokens.id, id), eq(merchantApiTokens.appId, appId), isNull(merchantApiTokens.revokedAt)));

export async function revokeMerchantToken(db: Db, appId: number, id: number, directory: TokenDirectory): Promise<void> {
  heldTokens.clear();
  const [row] = await revokeMerchantTokenStatement(db, appId, id).returning();
  if (row) await directory.copy([row]);
}

/** The tokens whose `last_used_at` this isolate wrote in the last minute. */
const lastUsedWritten = new HeldFor<number, true>(60_000);

/**
 * Writes the token's `last_used_at` after a served request's response (it adds no wait), at most once
 * a minute per token and isolate.
 */
function noteTokenUsed(c: Context<AppEnv>, tokenId: number): void {
  const now = Date.now();
  if (lastUsedWritten.get(tokenId, now)) return;
  const ctx = executionCtxOf(c);
  if (!ctx) return;
  lastUsedWritten.set(tokenId, true, now);
  const at = new Date(now).toISOString();
  // modified_at too: List API Keys shows last_used_at, so a mirror of it must see it move.
  const write = c
    .get("db")
    .update(merchantApiTokens)
    .set({ lastUsedAt: at, modifiedAt: at })
    .where(eq(merchantApiTokens.id, tokenId));
  // The shard's copy (List API Keys reads it) and the directory's row.
  const both = Promise.all([write, tokenUsed(c.env, tokenId, at)]);
  ctx.waitUntil(both.catch(() => lastUsedWritten.delete(tokenId)));
}

// RFC 9110 §11.1: the scheme is case-insensitive.
const BEARER = /^bearer ([A-Za-z0-9_\-.~+/]{8,2048}=*)$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The claims of a customer access token (a JWT signed with the `CUSTOMER_JWT_SECRET` secret). */
export type CustomerClaims = {
  sub: string;
  app_id: number;
  kind: "customer";
  iat: number;
  exp: number;
  /** The store's shard when the token was issued: where its requests start (db/session.ts). */
  shard?: string;
};

/** Signs a customer access token; the customers module mints them at login and refresh. */
export async function signCustomerToken(secret: string, claims: CustomerClaims): Promise<string> {
  return sign(claims, secret, "HS256");
}

export {
  type CustomerStanding,
  checkCustomerStanding,
  forgetCustomerStanding,
  type StandingCheck,
} from "./standing";
/**
 * Merchant tokens as this isolate last read them, for at most TOKEN_HOLD_MS, so that a merchant
 * read is one D1 round trip (its own), not two. Revoking a token in this isolate forgets them at
 * once; elsewhere a revoked token is refused within a second. Expiry is checked on every request.
 */
export { TOKEN_HOLD_MS };

type TokenRow = {
  id: number;
  appId: number;
  permissions: Permission[];
  expiresAt: string | null;
  revokedAt: string | null;
  orgId: number;
  appSuspendedAt: string | null;
  /** The shard of the key's store (src/db/shards.ts). */
  shard: string;
};
const heldTokens = new HeldFor<string, TokenRow>(TOKEN_HOLD_MS);

/**
 * A merchant token's row in the directory, with its store's status and shard: one read, held per
 * isolate. The request's db session reads it first, to choose the store's shard (db/session.ts);
 * the token check then finds it held. Undefined for a token no store has.
 */
export async function merchantTokenEntry(env: Env, token: string): Promise<TokenRow | undefined> {
  const hash = await sha256Hex(token);
  const now = Date.now();
  const held = heldTokens.get(hash, now);
  if (held) return held;
  const row = await tokenByHash(env, hash);
  if (!row) return undefined;
  const entry = { ...row, permissions: row.permissions as Permission[] };
  // Held from its answer (as db/shards.ts's store entries): a slow read is still held when used.
  heldTokens.set(hash, entry, Date.now());
  return entry;
}

const tokenRow = (c: Context<AppEnv>, token: string) => merchantTokenEntry(c.env, token);

async function merchantPrincipal(c: Context<AppEnv>, token: string, appId: number): Promise<MerchantPrincipal> {
  const row = await tokenRow(c, token);
  if (!row) throw ApiError.unauthorized("The token is not valid.", "invalid_token");
  if (row.revokedAt) throw ApiError.unauthorized("The token has been revoked.", "token_revoked");
  if (row.expiresAt && row.expiresAt <= nowIso())
    throw ApiError.unauthorized("The token has expired.", "token_expired");
  if (row.appId !== appId) {
    throw ApiError.forbidden("This token belongs to another store than the `app-id` header names.", "wrong_tenant");
  }
  if (row.appSuspendedAt) throw appSuspended(appId);
  return {
    kind: "merchant",
    tokenId: row.id,
    appId,
    orgId: row.orgId,
    permissions: new Set(row.permissions),
    expiresAt: row.expiresAt,
  };
}

/**
 * Admits, on one route, the access token of a customer of ANOTHER store: a sales channel selling
 * this (provider) store's plans. It checks what core cannot know (an active connection between the
 * two stores) and answers this store's customer for them, or throws (403 with the route's code).
 */
export type ChannelAdmission = (
  c: Context<AppEnv>,
  token: { channelAppId: number; channelCustomerId: number },
) => Promise<number>;

async function customerPrincipal(
  c: Context<AppEnv>,
  token: string,
  appId: number,
  channel?: ChannelAdmission,
): Promise<CustomerPrincipal> {
  const secret = c.env.CUSTOMER_JWT_SECRET;
  if (!secret) throw new Error("CUSTOMER_JWT_SECRET is not set (see README, Secrets)");
  let claims: Record<string, unknown>;
  try {
    claims = await verify(token, secret, "HS256");
  } catch (error) {
    if (error instanceof JwtTokenExpired)
      throw ApiError.unauthorized("The access token has expired; refresh it.", "token_expired");
    throw ApiError.unauthorized("The token is not valid.", "invalid_token");
  }
  const customerId = Number(claims.sub);
  if (
    claims.kind !== "customer" ||
    !Number.isSafeInteger(customerId) ||
    customerId < 1 ||
    typeof claims.app_id !== "number"
  ) {
    throw ApiError.unauthorized("The token is not valid.", "invalid_token");
  }
  if (claims.app_id !== appId) {
    if (channel) {
      const ids = { appId: claims.app_id, customerId };
      const own = await channel(c, { channelAppId: ids.appId, channelCustomerId: ids.customerId });
      return { kind: "customer", customerId: own, appId, channel: ids };
    }
    throw ApiError.forbidden("This token belongs to another store than the `app-id` header names.", "wrong_tenant");
  }
  return { kind: "customer", customerId, appId };
}

/**
 * The one auth path: bearer token → tenant → principal (a merchant API token, or a customer's
 * access token, whose customer must still be live and not blocked) → rate limit. The order
 * decides the status: no token 401, bad `app-id` 400, unknown, expired or revoked token (a deleted
 * customer's included) 401, another store's token or a blocked customer 403, over the ceiling 429. What
 * the principal may do is the route's guard (`requirePermission`, `requireCustomer`).
 *
 * On customer routes the store's check (`knownAppBeside`) and the customer's standing are read
 * together, and awaited before any answer of this middleware's own, so a 404 or a suspension still
 * comes first. With `beside`, the handler runs beside them too (`writesAfterAdmission`): its reads
 * share their round trip, its writes wait for them, and a refusal replaces whatever it answered.
 */
export const authenticate =
  (opts: { channel?: ChannelAdmission; customers?: boolean; beside?: boolean } = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const storeCheck = c.get("storeCheck");
    let principal: MerchantPrincipal | CustomerPrincipal;
    let admission: Promise<void>;
    try {
      principal = await principalOf(c, opts.channel);
      // A customer's standing, on a customer route only: elsewhere a customer's token is refused
      // anyway (`wrong_principal`). The store's refusal comes before the customer's.
      const own = opts.customers && principal.kind === "customer" ? (principal.channel ?? principal) : undefined;
      const standing = own && requireGoodStanding(c, own.appId, own.customerId, own !== principal);
      standing?.catch(() => undefined);
      admission = (async () => {
        await storeCheck;
        await standing;
      })();
      admission.catch(() => undefined);
      const key =
        principal.kind === "merchant"
          ? `token:${principal.tokenId}`
          : `customer:${c.get("appId")}:${principal.customerId}`;
      const refusal = await enforceRateLimit(
        c,
        RATE_LIMITS.token,
        key,
        "Too many requests with this token; retry after `Retry-After` seconds.",
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      // A refusal wins over a 429.
      if (!opts.beside || refusal) await admission;
      if (refusal) throw refusal;
    } catch (error) {
      await storeCheck;
      throw error;
    }
    c.set("principal", principal);
    if (opts.beside) {
      const db = c.get("db");
      const gate = writesAfterAdmission(db, admission);
      c.set("db", gate.db);
      c.set("admission", admission);
      try {
        await next();
      } finally {
        gate.settle();
        c.set("db", db);
      }
      // Whatever the handler answered, a refused request gets the refusal.
      await admission;
    } else await next();
    // A refused request writes nothing, not even this.
    if (principal.kind === "merchant" && c.res.status < 400) noteTokenUsed(c, principal.tokenId);
  };

/** The bearer token's principal for the `app-id` store, or the 401/403 that refuses it. */
async function principalOf(
  c: Context<AppEnv>,
  channel: ChannelAdmission | undefined,
): Promise<MerchantPrincipal | CustomerPrincipal> {
  const header = c.req.header("authorization");
  if (!header) throw ApiError.unauthorized("Send `Authorization: Bearer <token>`.");
  const m = BEARER.exec(header.trim());
  if (!m) throw ApiError.unauthorized("The Authorization header must be `Bearer <token>`.", "malformed_token");
  const token = m[1]!;
  const appId = readTenant(c);
  if (token.startsWith(TOKEN_PREFIX)) return merchantPrincipal(c, token, appId);
  if (JWT_SHAPE.test(token)) return customerPrincipal(c, token, appId, channel);
  throw ApiError.unauthorized("The token is not valid.", "invalid_token");
}

/**
 * A merchant operation's guard: a merchant principal whose token has `permission`. With `org`,
 * the operation also takes `org-id`, which must name the organization that owns the store.
 */
export function requirePermission(permission: Permission, opts: { org?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    if (principal.kind !== "merchant") {
      throw ApiError.forbidden("This operation is for merchants: send a merchant API token.", "wrong_principal");
    }
    if (opts.org && c.get("orgId") === null) {
      throw new ApiError(
        400,
        "missing_org_id",
        "The `org-id` header is required: send the id of the organization that owns the store.",
        {
          errors: { "org-id": ["Required."] },
        },
      );
    }
    if (opts.org && principal.orgId !== c.get("orgId")) {
      throw ApiError.forbidden(
        "The organization in `org-id` does not own the store in `app-id`.",
        "wrong_organization",
      );
    }
    if (!principal.permissions.has(permission)) {
      throw ApiError.forbidden(
        `This operation needs the \`${permission}\` permission, which the token lacks.`,
        "missing_permission",
        {
          permission,
        },
      );
    }
    await next();
  };
}

/** A customer operation's guard: the customer's own access token. */
export const requireCustomer = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.get("principal").kind !== "customer") {
    throw ApiError.forbidden("This operation is for customers: send the customer's access token.", "wrong_principal");
  }
  await next();
};

/** The customer principal of a customer route (its guard has run). */
export function customerOf(c: Context<AppEnv>): CustomerPrincipal {
  const p = c.get("principal");
  if (p.kind !== "customer") throw new Error("customerOf() on a route without requireCustomer()");
  return p;
}
