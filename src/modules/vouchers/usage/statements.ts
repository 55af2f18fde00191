import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { eventPayloadSql, newEventId } from "../../../core/events/outbox";
import { abortUnless } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import { liveInWindowSql, underLimitsSql } from "../rules";
import { vouchers, voucherUsages } from "../tables";

/**
 * The statements that record and release a voucher's uses, for a caller's D1 batch (checkout,
 * cancelling an order, Update Voucher Usage). A use is a row per voucher and order; `usage_count`
 * moves with the rows in the same batch, so it always equals the unreleased uses.
 */

/** The live voucher `voucherId` of the store meets `condition` (a guard's EXISTS). */
const voucherWhere = (ctx: ServiceContext, voucherId: number, condition: SQL | undefined): SQL =>
  sql`EXISTS (SELECT 1 FROM ${vouchers} WHERE ${and(eq(vouchers.id, voucherId), live(vouchers, ctx.appId), condition)})`;

/** The order's unreleased uses (at most one per voucher), of the store. */
const unreleasedOf = (ctx: ServiceContext, orderId: number | SQL, voucherId?: number) =>
  and(
    eq(voucherUsages.appId, ctx.appId),
    sql`${voucherUsages.orderId} = ${orderId}`,
    voucherId === undefined ? undefined : eq(voucherUsages.voucherId, voucherId),
    isNull(voucherUsages.releasedAt),
  );

/**
 * The guard of a new use: the voucher is live, enabled, in its window (unless `anyTime`) and under
 * both limits, the customer's counted over their unreleased uses; with `orderId`, the order does
 * not hold a use of it already (so that two requests for one order count once). D1 runs one batch
 * at a time, so concurrent uses of the last one are decided here: one batch passes, the others
 * roll back.
 */
export function usableGuard(
  ctx: ServiceContext,
  input: { voucherId: number; customerId: number | null; at: string; anyTime?: boolean; orderId?: number },
): BatchItem<"sqlite"> {
  const window = input.anyTime ? undefined : liveInWindowSql(input.at);
  const usable = voucherWhere(ctx, input.voucherId, and(window, underLimitsSql(input.customerId)));
  const fresh =
    input.orderId === undefined
      ? undefined
      : sql`NOT EXISTS (SELECT 1 FROM ${voucherUsages} WHERE ${unreleasedOf(ctx, input.orderId, input.voucherId)})`;
  return abortUnless(ctx.db, and(fresh, usable) as SQL, "voucher_usable");
}

/** One more use of the voucher: `usage_count` + 1. */
export const bumpUsage = (ctx: ServiceContext, voucherId: number): BatchItem<"sqlite"> =>
  ctx.db
    .update(vouchers)
    .set({ usageCount: sql`${vouchers.usageCount} + 1` })
    .where(and(eq(vouchers.id, voucherId), eq(vouchers.appId, ctx.appId)));

/**
 * Batch statements for checkout: abort the batch unless the voucher is live, in its window and
 * under both limits; then insert the use and bump `usage_count`. `orderId` is SQL: the order
 * inserted earlier in the same batch, by its plan's handle (`order.id`). Events are the
 * caller's: `voucherUsedEventsSql(ctx, { orderId, action: "use", at })` with the same `at`.
 */
export function useVoucherStatements(
  ctx: ServiceContext,
  input: { voucherId: number; customerId: number | null; orderId: SQL; at?: string },
): BatchItem<"sqlite">[] {
  const at = input.at ?? nowIso();
  return [
    usableGuard(ctx, { voucherId: input.voucherId, customerId: input.customerId, at }),
    ctx.db.insert(voucherUsages).values({
      appId: ctx.appId,
      voucherId: input.voucherId,
      customerId: input.customerId,
      orderId: input.orderId,
      createdAt: at,
    }),
    bumpUsage(ctx, input.voucherId),
  ];
}

/**
 * Releases the order's unreleased uses (the order was cancelled or expired): `usage_count` − 1 for
 * each voucher, then `released_at` = `at`. A no-op when there is none, so it is safe to run twice.
 * Events are the caller's: `voucherUsedEventsSql(ctx, { orderId, action: "release", at })`.
 */
export function releaseVoucherStatements(
  ctx: ServiceContext,
  orderId: number,
  at = nowIso(),
  voucherId?: number,
): BatchItem<"sqlite">[] {
  const uses = unreleasedOf(ctx, orderId, voucherId);
  return [
    ctx.db
      .update(vouchers)
      .set({ usageCount: sql`${vouchers.usageCount} - 1` })
      .where(
        and(
          eq(vouchers.appId, ctx.appId),
          sql`${vouchers.id} IN (SELECT ${voucherUsages.voucherId} FROM ${voucherUsages} WHERE ${uses})`,
        ),
      ),
    ctx.db.update(voucherUsages).set({ releasedAt: at }).where(uses),
  ];
}

/**
 * The `voucher.used` events of an order's uses, as `emit()`'s derived-events form (a SELECT of
 * `id, app_id, type, payload`; join it with others through `unionEvents`): for `use`, the order's
 * unreleased uses made at `at`; for `release`, those released at `at`. Put it after the statements
 * above in the same batch: `usage_count` is read as they left it. One event per use row, each with
 * its own id.
 */
export function voucherUsedEventsSql(
  ctx: ServiceContext,
  input: { orderId: number | SQL; action: "use" | "release"; at: string; voucherId?: number },
): SQL {
  // evt_ + 24 random hex + the use's id in 8 hex: as long as `newEventId()`'s, unique per row.
  const prefix = newEventId().slice(0, 28);
  const type = "voucher.used";
  const id = sql`(${prefix} || printf('%08x', u.id))`;
  const data = sql`json_object('id', v.id, 'code', v.code, 'order_id', u.order_id, 'customer_id', u.customer_id,
    'action', ${input.action}, 'usage_count', v.usage_count)`;
  const which =
    input.action === "use"
      ? sql`u.released_at IS NULL AND u.created_at = ${input.at}`
      : sql`u.released_at = ${input.at}`;
  const voucher = input.voucherId === undefined ? sql`` : sql` AND u.voucher_id = ${input.voucherId}`;
  return sql`SELECT ${id} AS id, u.app_id AS app_id, ${type} AS type,
      ${eventPayloadSql(type, id, sql`u.app_id`, data)} AS payload
    FROM voucher_usages u JOIN vouchers v ON v.id = u.voucher_id
    WHERE u.app_id = ${ctx.appId} AND u.order_id = ${input.orderId} AND ${which}${voucher}`;
}
