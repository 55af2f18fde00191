import { and, eq, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { liveInWindowSql, majorOrNull, shownValue, underLimitsSql, type VoucherRow } from "../rules";
import { VOUCHER_DISCOUNT_ON, vouchers } from "../tables";
import type { FeaturedVoucher } from "./schemas";

const view = (v: VoucherRow): FeaturedVoucher => ({
  id: v.id,
  code: v.code,
  title_en: v.titleEn,
  title_ar: v.titleAr,
  kind: v.kind,
  value: shownValue(v),
  discount_on: v.discountOn,
  min_order_amount: toMajor(v.minOrderMinor),
  max_discount_amount: majorOrNull(v.maxDiscountMinor),
  ends_at: v.endsAt,
});

export const FEATURED_VOUCHER_LIST: ListSpec = {
  fields: {
    discount_on: { column: vouchers.discountOn, kind: "string", values: VOUCHER_DISCOUNT_ON },
    ends_at: { column: vouchers.endsAt, kind: "datetime", nullable: true },
    ordering: { column: vouchers.ordering, kind: "integer" },
  },
  defaultOrder: "ordering",
  idColumn: vouchers.id,
};

/**
 * The store's featured vouchers this customer can use now: enabled, in their window, not used up,
 * and under the customer's own limit.
 */
export async function listFeaturedVouchers(
  ctx: ServiceContext,
  customerId: number,
  q: ListQuery,
): Promise<Page<FeaturedVoucher>> {
  const usable = and(
    live(vouchers, ctx.appId),
    eq(vouchers.isFeatured, true),
    liveInWindowSql(nowIso()),
    underLimitsSql(customerId),
  ) as SQL;
  return mapPage(await listPage(ctx.db, q, { table: vouchers, scope: () => usable }), view);
}
