import { and, eq, isNull, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { MINOR_PER_MAJOR, toMajor } from "../../core/money";
import { vouchers, voucherUsages } from "./tables";

/**
 * What every part of vouchers agrees on: the computed state, the conditions of a usable voucher
 * as SQL (the featured list and the guarded use read them alike), and how `value` is shown.
 */

export type VoucherRow = typeof vouchers.$inferSelect;

export const VOUCHER_STATES = ["active", "scheduled", "expired", "exhausted", "disabled"] as const;
export type VoucherState = (typeof VOUCHER_STATES)[number];

/** Basis points per percent: 12.5% is 1250. */
export const BP_PER_PERCENT = 100;

/**
 * The state a client sees, first match wins: `disabled` (the merchant's switch), `expired` (past
 * `ends_at`; the window is [starts_at, ends_at)), `exhausted` (uses reached `usage_limit`),
 * `scheduled` (before `starts_at`), else `active`.
 */
export function stateOf(
  v: Pick<VoucherRow, "status" | "startsAt" | "endsAt" | "usageLimit" | "usageCount">,
  at: string,
): VoucherState {
  if (v.status === "disabled") return "disabled";
  if (v.endsAt !== null && v.endsAt <= at) return "expired";
  if (v.usageLimit !== null && v.usageCount >= v.usageLimit) return "exhausted";
  if (v.startsAt !== null && v.startsAt > at) return "scheduled";
  return "active";
}

/** `value` as the API shows it: a percentage (12.5) or money in major units. */
export const shownValue = (v: Pick<VoucherRow, "kind" | "value">): number =>
  v.kind === "percentage" ? v.value / BP_PER_PERCENT : toMajor(v.value);

/** The customer's uses of the voucher `voucherId` (SQL) that were not released. */
export const customerUsesSql = (voucherId: SQLWrapper | number, customerId: SQLWrapper | number): SQL =>
  sql`(SELECT count(*) FROM ${voucherUsages} WHERE ${voucherUsages.voucherId} = ${voucherId}
    AND ${voucherUsages.customerId} = ${customerId} AND ${voucherUsages.releasedAt} IS NULL)`;

/** Enabled and inside its window at `at`. */
export const liveInWindowSql = (at: string): SQL =>
  and(
    eq(vouchers.status, "active"),
    or(isNull(vouchers.startsAt), sql`${vouchers.startsAt} <= ${at}`),
    or(isNull(vouchers.endsAt), sql`${vouchers.endsAt} > ${at}`),
  ) as SQL;

/**
 * Under both limits for one more use: the uses in all, and the customer's own (not counted for a
 * guest, who has no uses to count). Reads the row of `vouchers` in scope of the statement.
 */
export const underLimitsSql = (customerId: number | null): SQL =>
  and(
    or(isNull(vouchers.usageLimit), sql`${vouchers.usageCount} < ${vouchers.usageLimit}`),
    customerId === null
      ? undefined
      : or(
          isNull(vouchers.perCustomerLimit),
          sql`${customerUsesSql(vouchers.id, customerId)} < ${vouchers.perCustomerLimit}`,
        ),
  ) as SQL;

/** Percent (at most 2 decimals, 0 < p ≤ 100) → basis points; null when it is not one. */
export function basisPointsOf(percent: number): number | null {
  const scaled = percent * BP_PER_PERCENT;
  const bp = Math.round(scaled);
  if (Math.abs(scaled - bp) > Math.max(Math.abs(scaled), 1) * Number.EPSILON * 4) return null;
  return bp >= 1 && bp <= 100 * BP_PER_PERCENT ? bp : null;
}

/** Major units shown for minor units, null kept. */
export const majorOrNull = (minor: number | null): number | null => (minor === null ? null : minor / MINOR_PER_MAJOR);
