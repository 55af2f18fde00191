import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { otpCodes } from "../tables";
import {
  OTP_CHECK_WINDOW_S,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_CHECKS_PER_HOUR,
  OTP_MAX_SENDS,
  OTP_RESEND_AFTER_S,
  OTP_SEND_WINDOW_S,
  OTP_TTL_S,
  REGISTER_BUDGET_WINDOW_S,
} from "./otp";

/**
 * The `otp_codes` rows: one per code sent (or, for a number the answer must not reveal, per code
 * not sent), counted for the per-number limits. Only the newest code of a number and purpose is
 * live: a new code replaces the previous one. Every limit is checked in the statement that spends
 * it, so that concurrent requests cannot overrun it.
 */

export type CodeScope = { appId: number; phone: string; purpose: "login" | "register" };

const iso = (ms: number) => new Date(ms).toISOString();
const secondsUntil = (ms: number, now: number) => Math.max(1, Math.ceil((ms - now) / 1000));

/** The rows of the number that count for the send limits, as a SQL condition. */
const sentSince = (s: CodeScope, since: string) =>
  sql`${otpCodes.appId} = ${s.appId} AND ${otpCodes.phone} = ${s.phone} AND ${otpCodes.createdAt} > ${since}`;

/** The store's registration codes of the budget's window, as a SQL condition. */
const registeredSince = (appId: number, since: string) =>
  sql`${otpCodes.appId} = ${appId} AND ${otpCodes.purpose} = 'register' AND ${otpCodes.createdAt} > ${since}`;

/**
 * Stores a new code unless the number is over its send limits (5 in 10 minutes, one a minute) or,
 * for a registration, the store over its budget of registration codes (`budget` in 10 minutes);
 * `unlimited` for test numbers. Returns whether it was stored. One statement: the counts and the
 * insert cannot interleave with another request's. Every number counts the same, registered or
 * not (a code nobody can match is stored for those), so that a refusal reveals nothing.
 */
export async function storeCode(
  db: Db,
  s: CodeScope,
  row: {
    codeHash: string;
    payload: Record<string, unknown> | null;
    ip: string | null;
    now: number;
    unlimited: boolean;
    /** Registration codes the store sends in 10 minutes. */
    budget: number;
  },
): Promise<boolean> {
  const { now } = row;
  const storeBudget =
    s.purpose === "register"
      ? sql`(SELECT count(*) FROM ${otpCodes}
          WHERE ${registeredSince(s.appId, iso(now - REGISTER_BUDGET_WINDOW_S * 1000))}) < ${row.budget}`
      : sql`1`;
  const guard = row.unlimited
    ? sql`1`
    : sql`(SELECT count(*) FROM ${otpCodes}
        WHERE ${sentSince(s, iso(now - OTP_SEND_WINDOW_S * 1000))}) < ${OTP_MAX_SENDS}
        AND NOT EXISTS (SELECT 1 FROM ${otpCodes} WHERE ${sentSince(s, iso(now - OTP_RESEND_AFTER_S * 1000))})
        AND ${storeBudget}`;
  const result = await db.run(
    sql`INSERT INTO ${otpCodes} (app_id, phone, purpose, code_hash, attempts, payload, ip, expires_at, created_at)
        SELECT ${s.appId}, ${s.phone}, ${s.purpose}, ${row.codeHash}, 0,
               ${row.payload ? JSON.stringify(row.payload) : null}, ${row.ip},
               ${iso(now + OTP_TTL_S * 1000)}, ${iso(now)}
        WHERE ${guard}`,
  );
  return (result.meta.changes ?? 0) > 0;
}

export type SendWait = {
  code: "otp_send_limit_reached" | "otp_resend_too_soon" | "register_budget_reached";
  seconds: number;
};

/** Why the number may not be sent a code now, and for how many seconds; null if it may. */
export async function sendWait(db: Db, s: CodeScope, now: number): Promise<SendWait | null> {
  const row = await db
    .select({
      n: sql<number>`count(*)`,
      oldest: sql<string | null>`min(${otpCodes.createdAt})`,
      newest: sql<string | null>`max(${otpCodes.createdAt})`,
    })
    .from(otpCodes)
    .where(sentSince(s, iso(now - OTP_SEND_WINDOW_S * 1000)))
    .get();
  if (!row?.oldest || !row.newest) return null;
  if (row.n >= OTP_MAX_SENDS) {
    return {
      code: "otp_send_limit_reached",
      seconds: secondsUntil(Date.parse(row.oldest) + OTP_SEND_WINDOW_S * 1000, now),
    };
  }
  const cooldownEnds = Date.parse(row.newest) + OTP_RESEND_AFTER_S * 1000;
  return cooldownEnds > now ? { code: "otp_resend_too_soon", seconds: secondsUntil(cooldownEnds, now) } : null;
}

/** Seconds until the store is under its registration budget again; null if it is under it now. */
export async function budgetWait(db: Db, appId: number, budget: number, now: number): Promise<SendWait | null> {
  const row = await db
    .select({ n: sql<number>`count(*)`, oldest: sql<string | null>`min(${otpCodes.createdAt})` })
    .from(otpCodes)
    .where(registeredSince(appId, iso(now - REGISTER_BUDGET_WINDOW_S * 1000)))
    .get();
  if (!row?.oldest || row.n < budget) return null;
  const seconds = secondsUntil(Date.parse(row.oldest) + REGISTER_BUDGET_WINDOW_S * 1000, now);
  return { code: "register_budget_reached", seconds };
}

export type StoredCode = typeof otpCodes.$inferSelect;

/** The newest code of the number for this purpose: the only one that can be live (a query, to batch). */
export const newestCodeQuery = (db: Db, s: CodeScope) =>
  db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.appId, s.appId), eq(otpCodes.phone, s.phone), eq(otpCodes.purpose, s.purpose)))
    .orderBy(desc(otpCodes.id))
    .limit(1);

/** The newest code of the number for this purpose: the only one that can be live. */
export async function newestCode(db: Db, s: CodeScope): Promise<StoredCode | undefined> {
  return newestCodeQuery(db, s).get();
}

/** Checks of the number within the hour, as a SQL count. */
const checksThisHour = (s: CodeScope, now: number) =>
  sql`(SELECT coalesce(sum(attempts), 0) FROM ${otpCodes} WHERE ${sentSince(s, iso(now - OTP_CHECK_WINDOW_S * 1000))})`;

/**
 * Spends one try of a live code before its comparison is answered, in one guarded statement (the
 * code is unused, unexpired, under its 5 tries, and the number under 10 checks an hour), so that
 * concurrent guesses can never get more answers than tries. Returns the tries used, or no row.
 * Test numbers skip the hourly count: their code is fixed and known, there is nothing to guess.
 */
export function spendTry(db: Db, s: CodeScope, id: number, now: number, opts: { hourly: boolean }) {
  return db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(
      and(
        eq(otpCodes.id, id),
        sql`${otpCodes.attempts} < ${OTP_MAX_ATTEMPTS}`,
        sql`${otpCodes.consumedAt} IS NULL`,
        sql`${otpCodes.expiresAt} > ${iso(now)}`,
        opts.hourly ? sql`${checksThisHour(s, now)} < ${OTP_MAX_CHECKS_PER_HOUR}` : undefined,
      ),
    )
    .returning({ attempts: otpCodes.attempts });
}

/** Seconds until the number is under its hourly checks again; null if it is under them now. */
export async function checkWait(db: Db, s: CodeScope, now: number): Promise<number | null> {
  const row = await db
    .select({
      n: sql<number>`coalesce(sum(${otpCodes.attempts}), 0)`,
      oldest: sql<string | null>`min(${otpCodes.createdAt})`,
    })
    .from(otpCodes)
    .where(sql`${sentSince(s, iso(now - OTP_CHECK_WINDOW_S * 1000))} AND ${otpCodes.attempts} > 0`)
    .get();
  if (!row?.oldest || row.n < OTP_MAX_CHECKS_PER_HOUR) return null;
  return secondsUntil(Date.parse(row.oldest) + OTP_CHECK_WINDOW_S * 1000, now);
}

/** Uses the code up (single use) when `when` holds (a good code), if no other request used it first. */
export function consumeCode(db: Db, id: number, now: number, when: SQL) {
  return db
    .update(otpCodes)
    .set({ consumedAt: iso(now) })
    .where(and(eq(otpCodes.id, id), sql`${otpCodes.consumedAt} IS NULL`, when));
}
