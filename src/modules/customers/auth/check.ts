import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ApiError, type ErrorCode } from "../../../core/errors";
import { abortUnless } from "../../../core/guards";
import type { Db } from "../../../db/client";
import { type CodeScope, checkWait, consumeCode, newestCode, type StoredCode, sendWait, spendTry } from "./codes";
import { hashCode, OTP_MAX_ATTEMPTS, sameHash, type TestNumbers } from "./otp";

/**
 * A code checked in two D1 round trips: the code read (the caller batches it with its own reads),
 * then ONE batch that spends the code's try and, for a good code, uses it up with the caller's own
 * writes. The comparison runs between the two, in constant time, on the row read. The batch sends
 * the same statements whether the code is good or not (only a bound flag differs, read by the
 * statements after the try's guard), so a refused try costs the same either way and tells nothing
 * of the code: concurrent guesses still get no more answers than the code has tries.
 */
export type CodeCheck = { scope: CodeScope; row: StoredCode; good: boolean; now: number; hourly: boolean };

const iso = (ms: number) => new Date(ms).toISOString();

export const tooMany = (code: ErrorCode, detail: string, seconds: number) =>
  new ApiError(429, code, detail, { headers: { "Retry-After": String(seconds) } });

export const expired = () =>
  new ApiError(
    400,
    "otp_expired",
    "No live code for this number: it expired, was used, or a newer one was sent. Request a new code.",
  );

/** The newest code read, which must be live (else 400 `otp_expired`), compared with the one typed. */
export async function compareCode(
  deps: { secret: string; tests: TestNumbers },
  scope: CodeScope,
  row: StoredCode | undefined,
  otp: string,
): Promise<CodeCheck> {
  const now = Date.now();
  if (!row || row.consumedAt || row.expiresAt <= iso(now)) throw expired();
  const good = sameHash(await hashCode(deps.secret, scope, otp), row.codeHash);
  return { scope, row, good, now, hourly: !deps.tests.has(scope.phone) };
}

/** SQL that holds for a good code only: the condition of the batch's writes that act on one. */
export const whenGood = (c: CodeCheck): SQL => sql`${c.good ? 1 : 0} = 1`;

/**
 * The try's statements, first in the batch: the try spent (its RETURNING has the tries used), the
 * batch aborted unless it was (`triesRefusal` says why), the code used up if good.
 */
export function tryStatements(db: Db, c: CodeCheck): [BatchItem<"sqlite">, BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [
    spendTry(db, c.scope, c.row.id, c.now, { hourly: c.hourly }),
    abortUnless(db, sql`changes() = 1`, "otp try"),
    consumeCode(db, c.row.id, c.now, whenGood(c)),
  ];
}

/** The answer to a wrong code whose try was spent: 400 `invalid_otp` with the tries left. */
export function wrongCode(used: number): ApiError {
  const left = OTP_MAX_ATTEMPTS - used;
  return new ApiError(
    400,
    "invalid_otp",
    left > 0
      ? `The code is wrong; ${left} tries left.`
      : "The code is wrong and has no tries left; request a new code.",
    { attempts_left: left },
  );
}

/**
 * Why the try was refused, read after it (another request may have used the code meanwhile): no
 * live code, its 5 tries spent, or the number's checks of the hour.
 */
export async function triesRefusal(db: Db, c: CodeCheck): Promise<ApiError> {
  const { scope: s, row, now } = c;
  const fresh = await newestCode(db, s);
  if (!fresh || fresh.id !== row.id || fresh.consumedAt || fresh.expiresAt <= iso(now)) return expired();
  if (fresh.attempts >= OTP_MAX_ATTEMPTS) {
    return tooMany(
      "otp_attempts_exceeded",
      "This code had 5 tries and is dead; request a new code (after `Retry-After` seconds).",
      (await sendWait(db, s, now))?.seconds ?? 1,
    );
  }
  return tooMany(
    "otp_attempts_exceeded",
    "Too many codes were tried for this number in the last hour; retry after `Retry-After` seconds.",
    (await checkWait(db, s, now)) ?? 1,
  );
}
