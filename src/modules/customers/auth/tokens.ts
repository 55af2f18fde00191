import { and, eq, type SQL, sql } from "drizzle-orm";
import { signCustomerToken } from "../../../core/auth";
import { insertSelect } from "../../../core/batch-plan";
import { randomToken, sha256Hex } from "../../../core/crypto";
import { ApiError } from "../../../core/errors";
import type { Db } from "../../../db/client";
import { refreshTokens } from "../tables";

/**
 * The customer app's tokens. The access token is a JWT of 15 minutes (core/auth.ts verifies it);
 * the refresh token is opaque (`crt_` + 32 random bytes), kept as its SHA-256, lives 30 days and
 * is replaced on every use. All the refresh tokens one login led to share a family: a replaced
 * token used again means two holders, so the whole family is revoked.
 */

export const ACCESS_TOKEN_TTL_S = 900;
export const REFRESH_TOKEN_TTL_S = 30 * 86_400;
export const REFRESH_TOKEN_PREFIX = "crt_";

export type TokenPair = {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_expires_in: number;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** A new refresh token, in clear (returned once) and as stored. */
export async function newRefreshToken(): Promise<{ token: string; hash: string }> {
  const token = randomToken(REFRESH_TOKEN_PREFIX);
  return { token, hash: await sha256Hex(token) };
}

export const newFamilyId = () => crypto.randomUUID();

/**
 * The INSERT of a refresh token row, where `when` holds (a login's conditions, checked in its batch);
 * `customerId` may be SQL (the customer the same batch creates). Its RETURNING says whether it wrote.
 */
export function refreshTokenInsert(
  db: Db,
  row: { appId: number; customerId: number | SQL; familyId: string; hash: string; now: number },
  when: SQL,
) {
  return insertSelect(
    db,
    refreshTokens,
    {
      appId: row.appId,
      customerId: row.customerId,
      familyId: row.familyId,
      tokenHash: row.hash,
      expiresAt: iso(row.now + REFRESH_TOKEN_TTL_S * 1000),
      createdAt: iso(row.now),
    },
    sql`WHERE ${when}`,
    { returning: true },
  );
}

/** The pair a login or a refresh answers with, around a refresh token already stored. */
export async function tokenPair(
  secret: string,
  who: { appId: number; customerId: number; shard: string },
  refreshToken: string,
  now: number,
): Promise<TokenPair> {
  const iat = Math.floor(now / 1000);
  const access = await signCustomerToken(secret, {
    sub: String(who.customerId),
    app_id: who.appId,
    kind: "customer",
    iat,
    exp: iat + ACCESS_TOKEN_TTL_S,
    shard: who.shard,
  });
  return {
    access_token: access,
    refresh_token: refreshToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_expires_in: REFRESH_TOKEN_TTL_S,
  };
}

export const invalidRefreshToken = () =>
  new ApiError(401, "invalid_refresh_token", "The refresh token is unknown, expired or revoked; log in again.");

/**
 * Replaces a live refresh token by a new one of its family, in ONE batch (one transaction): the
 * new row is copied from the old one only while it is live, and the old one is marked replaced
 * under the same condition, so that of two concurrent refreshes exactly one wins, and the
 * loser's reuse (below) runs after the winner's new token exists and revokes it too. Anyone
 * presenting an already replaced token revokes the family (401 `refresh_token_reused`).
 */
export async function rotateRefreshToken(
  db: Db,
  appId: number,
  token: string,
  now: number,
): Promise<{ customerId: number; familyId: string; token: string }> {
  const hash = await sha256Hex(token);
  const next = await newRefreshToken();
  const mine = and(eq(refreshTokens.appId, appId), eq(refreshTokens.tokenHash, hash));
  const isLive = and(
    mine,
    sql`${refreshTokens.rotatedAt} IS NULL`,
    sql`${refreshTokens.revokedAt} IS NULL`,
    sql`${refreshTokens.expiresAt} > ${iso(now)}`,
  );
  const [, spent] = await db.batch([
    insertSelect(
      db,
      refreshTokens,
      {
        appId: sql`app_id`,
        customerId: sql`customer_id`,
        familyId: sql`family_id`,
        tokenHash: next.hash,
        expiresAt: iso(now + REFRESH_TOKEN_TTL_S * 1000),
        createdAt: iso(now),
      },
      sql`FROM ${refreshTokens} WHERE ${isLive}`,
    ),
    db
      .update(refreshTokens)
      .set({ rotatedAt: iso(now) })
      .where(isLive)
      .returning({ customerId: refreshTokens.customerId, familyId: refreshTokens.familyId }),
  ]);
  if (spent[0]) return { ...spent[0], token: next.token };
  const row = await db
    .select({ familyId: refreshTokens.familyId, rotatedAt: refreshTokens.rotatedAt })
    .from(refreshTokens)
    .where(mine)
    .get();
  if (row?.rotatedAt) {
    await revokeFamily(db, appId, row.familyId, now);
    throw new ApiError(
      401,
      "refresh_token_reused",
      "This refresh token was already used: every session of this login is revoked. Log in again.",
    );
  }
  throw invalidRefreshToken();
}

/** Revokes every token of a family (a reuse, a logout). */
export async function revokeFamily(db: Db, appId: number, familyId: string, now = Date.now()): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: iso(now) })
    .where(
      and(
        eq(refreshTokens.appId, appId),
        eq(refreshTokens.familyId, familyId),
        sql`${refreshTokens.revokedAt} IS NULL`,
      ),
    );
}

/** Revokes the family of a refresh token, whatever its state; false if the store has no such token. */
export async function revokeFamilyOf(db: Db, appId: number, token: string): Promise<boolean> {
  const row = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.appId, appId), eq(refreshTokens.tokenHash, await sha256Hex(token))))
    .get();
  if (row) await revokeFamily(db, appId, row.familyId);
  return Boolean(row);
}

/**
 * The statement revoking every session of a customer (Delete Customer Account, a block): to put
 * in the batch of the change that ends them.
 */
export function revokeCustomerSessions(db: Db, appId: number, customerId: number, now = Date.now()) {
  return db
    .update(refreshTokens)
    .set({ revokedAt: iso(now) })
    .where(
      and(
        eq(refreshTokens.appId, appId),
        eq(refreshTokens.customerId, customerId),
        sql`${refreshTokens.revokedAt} IS NULL`,
      ),
    );
}
