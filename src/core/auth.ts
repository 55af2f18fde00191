import { and, eq } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex } from "./crypto";
import { ApiError } from "./errors";
import { PERMISSIONS, type Permission, TOKEN_PREFIX } from "./permissions";
import { apps, readTenant } from "./tenancy";
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
  },
  (t) => [uniqueIndex("merchant_api_tokens_hash_uq").on(t.tokenHash), index("merchant_api_tokens_app_idx").on(t.appId)],
);

export type Principal = { kind: "merchant"; tokenId: number; appId: number; permissions: ReadonlySet<Permission> };

/** Creates a merchant token and returns it in clear, once. */
export async function mintMerchantToken(
  db: Db,
  input: { appId: number; name: string; permissions: Permission[]; expiresAt?: string | null },
): Promise<{ id: number; token: string }> {
  const token = randomToken(TOKEN_PREFIX);
  const [row] = await db
    .insert(merchantApiTokens)
    .values({
      appId: input.appId,
      name: input.name,
      tokenHash: await sha256Hex(token),
      tokenPrefix: token.slice(0, 10),
      permissions: input.permissions,
      expiresAt: input.expiresAt ?? null,
      createdAt: nowIso(),
    })
    .returning({ id: merchantApiTokens.id });
  return { id: row!.id, token };
}

export async function revokeMerchantToken(db: Db, appId: number, id: number): Promise<void> {
  await db
    .update(merchantApiTokens)
    .set({ revokedAt: nowIso() })
    .where(and(eq(merchantApiTokens.id, id), eq(merchantApiTokens.appId, appId)));
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/]{8,512}=*)$/;

/**
 * The one auth path for merchant operations: bearer token → tenant → permission → rate limit.
 * The order decides the status: no token 401, bad `app-id` (or, with `org`, `org-id`) 400,
 * unknown/expired/revoked 401, other tenant or an org that does not own the app 403, missing
 * permission 403 naming it, over the ceiling 429.
 */
export function requirePermission(permission: Permission, opts: { org?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) throw ApiError.unauthorized("Send `Authorization: Bearer <token>` with a merchant API token.");
    const m = BEARER.exec(header.trim());
    if (!m) throw ApiError.unauthorized("The Authorization header must be `Bearer <token>`.", "malformed_token");
    const appId = readTenant(c);
    const orgId = c.get("orgId");
    if (opts.org && orgId === null) {
      throw new ApiError(
        400,
        "missing_org_id",
        "The `org-id` header is required: send the id of the organization that owns the store.",
        {
          errors: { "org-id": ["Required."] },
        },
      );
    }

    const row = await c
      .get("db")
      .select({
        id: merchantApiTokens.id,
        appId: merchantApiTokens.appId,
        permissions: merchantApiTokens.permissions,
        expiresAt: merchantApiTokens.expiresAt,
        revokedAt: merchantApiTokens.revokedAt,
        orgId: apps.orgId,
      })
      .from(merchantApiTokens)
      .innerJoin(apps, eq(apps.id, merchantApiTokens.appId))
      .where(eq(merchantApiTokens.tokenHash, await sha256Hex(m[1]!)))
      .get();
    if (!row) throw ApiError.unauthorized("The token is not valid.", "invalid_token");
    if (row.revokedAt) throw ApiError.unauthorized("The token has been revoked.", "token_revoked");
    if (row.expiresAt && row.expiresAt <= nowIso())
      throw ApiError.unauthorized("The token has expired.", "token_expired");
    if (row.appId !== appId) {
      throw ApiError.forbidden("This token belongs to another store than the `app-id` header names.", "wrong_tenant");
    }
    if (opts.org && row.orgId !== orgId) {
      throw ApiError.forbidden(
        "The organization in `org-id` does not own the store in `app-id`.",
        "wrong_organization",
      );
    }
    const permissions = new Set(row.permissions);
    if (!permissions.has(permission)) {
      throw ApiError.forbidden(
        `This operation needs the \`${permission}\` permission, which the token lacks.`,
        "missing_permission",
        {
          permission,
        },
      );
    }
    const { success } = await c.env.TOKEN_LIMITER.limit({ key: `token:${row.id}` });
    if (!success) {
      throw new ApiError(429, "rate_limited", "This token has made too many requests; retry in a minute.", {
        headers: { "Retry-After": "60" },
      });
    }
    c.set("principal", { kind: "merchant", tokenId: row.id, appId, permissions });
    await next();
  };
}
