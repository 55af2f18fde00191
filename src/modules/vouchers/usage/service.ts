import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit } from "../../../core/events/outbox";
import { isGuardAbort } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import { customerUsesSql } from "../rules";
import { vouchers, voucherUsages } from "../tables";
import type { UpdateVoucherUsage, VoucherUsage } from "./schemas";
import { bumpUsage, releaseVoucherStatements, usableGuard, voucherUsedEventsSql } from "./statements";

/** The voucher's counts as the response shows them, for a customer (an id, or a subquery's) or none. */
const countsOf = (ctx: ServiceContext, code: string, customerId: number | SQL | null) =>
  ctx.db
    .select({
      id: vouchers.id,
      usageCount: vouchers.usageCount,
      usageLimit: vouchers.usageLimit,
      perCustomerLimit: vouchers.perCustomerLimit,
      customerUses: (customerId === null
        ? sql<number | null>`NULL`
        : sql<number | null>`${customerUsesSql(vouchers.id, customerId)}`
      ).as("customer_uses"),
    })
    .from(vouchers)
    .where(and(live(vouchers, ctx.appId), eq(vouchers.code, code)))
    .limit(1);

type Counts = Awaited<ReturnType<typeof countsOf>>[number];

const view = (code: string, customerId: number | null, c: Counts): VoucherUsage => ({
  code,
  usage_count: c.usageCount,
  usage_limit: c.usageLimit,
  per_customer_limit: c.perCustomerLimit,
  customer_id: customerId,
  customer_usage_count: c.customerUses,
});

/** The order of the store, and whether the customer is one (orders and customers belong to other modules: read by table name). */
const orderOf = (ctx: ServiceContext, orderId: number) =>
  ctx.db
    .select({ id: sql<number>`id`, customerId: sql<number | null>`customer_id` })
    .from(sql`orders`)
    .where(sql`id = ${orderId} AND ${liveRow(ctx.appId)}`);
const customerExists = (ctx: ServiceContext, customerId: number) =>
  ctx.db
    .select({ found: sql<number>`1` })
    .from(sql`customers`)
    .where(sql`id = ${customerId} AND ${liveRow(ctx.appId)}`);
const useOf = (ctx: ServiceContext, voucherCode: string, orderId: number) =>
  ctx.db
    .select({ releasedAt: voucherUsages.releasedAt })
    .from(voucherUsages)
    .innerJoin(vouchers, eq(vouchers.id, voucherUsages.voucherId))
    .where(and(live(vouchers, ctx.appId), eq(vouchers.code, voucherCode), eq(voucherUsages.orderId, orderId)));

/**
 * Update Voucher Usage (MV2). `use` records the order's use under both limits (409
 * `voucher_usage_limit_reached` otherwise), once per order: a repeat answers the counts and
 * changes nothing. `release` gives the order's use back, a no-op when it holds none. Each change
 * emits `voucher.used` with its `action`. The merchant's own act: the voucher's status and window
 * are not checked here (Get Voucher Discount and checkout check them).
 */
export async function updateVoucherUsage(
  ctx: ServiceContext,
  code: string,
  body: UpdateVoucherUsage,
): Promise<VoucherUsage> {
  // The counts are read for the customer the answer names: the body's, else the order's.
  const orderCustomer = sql`(SELECT customer_id FROM orders WHERE id = ${body.order_id} AND ${liveRow(ctx.appId)})`;
  const [counts0, orders, customer, uses] = await ctx.db.batch([
    countsOf(ctx, code, body.customer_id ?? orderCustomer),
    orderOf(ctx, body.order_id),
    customerExists(ctx, body.customer_id ?? 0),
    useOf(ctx, code, body.order_id),
  ]);
  const voucher = counts0[0];
  if (!voucher) throw ApiError.notFound("voucher_not_found", `Voucher ${code}`);
  const order = orders[0];
  if (!order) throw ApiError.notFound("order_not_found", `Order ${body.order_id}`);
  if (body.customer_id !== undefined) {
    if (!customer.length) throw ApiError.notFound("customer_not_found", `Customer ${body.customer_id}`);
    if (order.customerId !== null && order.customerId !== body.customer_id)
      throw ApiError.validation({ customer_id: [`Order ${order.id} is customer ${order.customerId}'s.`] });
  }
  const customerId = body.customer_id ?? order.customerId;
  const inUse = uses.some((u) => u.releasedAt === null);
  const at = nowIso();

  // The answer of a change that changes nothing is the counts read above; a change's batch reads them back.
  const unchanged = () =>
    view(code, customerId, { ...voucher, customerUses: customerId === null ? null : voucher.customerUses });
  const answer = (results: unknown[], place: number) => {
    const [c] = results[place] as Counts[];
    if (!c) throw ApiError.notFound("voucher_not_found", `Voucher ${code}`);
    return view(code, customerId, c);
  };
  const after = [countsOf(ctx, code, customerId)];
  if (body.action === "release") {
    if (!inUse) return unchanged();
    const release = releaseVoucherStatements(ctx, order.id, at, voucher.id);
    const { results } = await emit(
      ctx.db,
      ctx.events,
      release,
      voucherUsedEventsSql(ctx, { orderId: order.id, action: "release", at, voucherId: voucher.id }),
      { after },
    );
    return answer(results, release.length);
  }
  if (inUse) return unchanged();
  const use = [
    usableGuard(ctx, { voucherId: voucher.id, customerId, at, anyTime: true, orderId: order.id }),
    // A use released before comes back: one row per voucher and order.
    ctx.db
      .insert(voucherUsages)
      .values({ appId: ctx.appId, voucherId: voucher.id, customerId, orderId: order.id, createdAt: at })
      .onConflictDoUpdate({
        target: [voucherUsages.voucherId, voucherUsages.orderId],
        set: { releasedAt: null, customerId, createdAt: at },
      }),
    bumpUsage(ctx, voucher.id),
  ];
  try {
    const { results } = await emit(
      ctx.db,
      ctx.events,
      use,
      voucherUsedEventsSql(ctx, { orderId: order.id, action: "use", at, voucherId: voucher.id }),
      { after },
    );
    return answer(results, use.length);
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    return refusedUse(ctx, code, order.id, customerId);
  }
}

/**
 * After the guard refused: a concurrent request for the same order that won is the same answer
 * (once per order); otherwise the limit that was reached, read again.
 */
async function refusedUse(
  ctx: ServiceContext,
  code: string,
  orderId: number,
  customerId: number | null,
): Promise<VoucherUsage> {
  const [counts, uses] = await ctx.db.batch([countsOf(ctx, code, customerId), useOf(ctx, code, orderId)]);
  const c = counts[0];
  if (!c) throw ApiError.notFound("voucher_not_found", `Voucher ${code}`);
  if (uses.some((u) => u.releasedAt === null)) return view(code, customerId, c);
  const overall = c.usageLimit !== null && c.usageCount >= c.usageLimit;
  // Not `code`: that is the problem's own member.
  const { code: _code, ...shown } = view(code, customerId, c);
  throw ApiError.conflict(
    "voucher_usage_limit_reached",
    overall
      ? `Voucher ${code} has reached its usage limit (${c.usageLimit}).`
      : `Customer ${customerId} has used voucher ${code} ${c.customerUses} time(s), its limit per customer.`,
    { ...shown, limit: overall ? "usage_limit" : "per_customer_limit" },
  );
}
