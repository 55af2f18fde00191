import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { customerUsesSql } from "../rules";
import { vouchers } from "../tables";
import { priceVoucher, type VoucherLine, type VoucherQuote } from "./price";
import type { GetVoucherDiscount, VoucherResult } from "./schemas";

/** The FOUND voucher result (as MV1 answers it, and as the checkout result's `vouchers[]` shows it). */
export function voucherResultView(
  quote: VoucherQuote,
  totals: { linesMinor: number; deliveryFeeMinor: number },
): VoucherResult {
  const discount = quote.linesDiscountMinor + quote.deliveryDiscountMinor;
  const items = quote.items ?? [...quote.lineDiscounts.keys()].map((key) => ({ key, itemId: key }));
  return {
    id: quote.voucherId,
    code: quote.code,
    title: quote.titleEn,
    title_en: quote.titleEn,
    title_ar: quote.titleAr,
    discount_on: quote.discountOn,
    is_success: quote.isSuccess,
    item_direct_discount_overridden: false,
    error_reason: quote.errorReason,
    cashback_amount: 0,
    amount: toMajor(discount),
    delivery_fee_amount: toMajor(quote.deliveryDiscountMinor),
    total_amount: toMajor(totals.linesMinor + totals.deliveryFeeMinor - discount),
    items: items.map((l) => ({ item_id: l.itemId, discount_amount: toMajor(quote.lineDiscounts.get(l.key) ?? 0) })),
  };
}

/** Codes are stored in upper case; what a customer typed is matched the same way. */
export const normalCode = (code: string) => code.trim().toUpperCase();

/**
 * The live voucher of the store with this code, and the customer's unreleased uses of it. The code
 * may be SQL (a cart's code, read in the same round trip as the cart): SQLite upper-cases only
 * ASCII, so `voucherOfCode` checks the match against `normalCode` before it trusts it.
 */
const voucherByCode = (ctx: ServiceContext, code: string | SQL, customerId: number | SQL | null) =>
  ctx.db
    .select({
      voucher: vouchers,
      customerUses: (customerId === null
        ? sql<number>`0`
        : sql<number>`${customerUsesSql(vouchers.id, customerId)}`
      ).as("customer_uses"),
    })
    .from(vouchers)
    .where(
      and(
        live(vouchers, ctx.appId),
        typeof code === "string" ? eq(vouchers.code, normalCode(code)) : sql`${vouchers.code} = upper(trim(${code}))`,
      ),
    )
    .limit(1);

/** What a voucher quote reads: the voucher of a code and the customer's uses of it (undefined: no such voucher). */
export type FoundVoucher = { voucher: typeof vouchers.$inferSelect; customerUses: number } | undefined;

/**
 * Reads the voucher of `code` (one query), to price later with `priceFoundVoucher`; the customer
 * whose uses count is an id, a subquery's (a cart's customer) or none.
 */
export async function findVoucher(
  ctx: ServiceContext,
  code: string,
  customerId: number | SQL | null,
): Promise<FoundVoucher> {
  const [row] = await voucherByCode(ctx, code, customerId);
  return row;
}

/** A code whose SQL match (`upper(trim(...))`) is `normalCode`'s: no voucher there is none at all. */
const SQL_MATCHES_NORMAL = /^[\x20-\x7e]*$/;

/**
 * Reads the voucher of the code `codeSql` selects (a cart's), in the round trip of the cart itself;
 * the answer takes the code read beside it, and reads again in the rare case the SQL match differs
 * from `normalCode`'s: a code of other than printable ASCII (SQLite upper-cases and trims only that).
 */
export async function findVoucherOfCode(
  ctx: ServiceContext,
  codeSql: SQL,
  customerId: number | SQL | null,
): Promise<(code: string) => Promise<FoundVoucher>> {
  const [row] = await voucherByCode(ctx, codeSql, customerId);
  return async (code) =>
    row?.voucher.code === normalCode(code) || (!row && SQL_MATCHES_NORMAL.test(code))
      ? row
      : findVoucher(ctx, code, customerId);
}

export type VoucherQuoteInput = {
  code: string;
  customerId: number | null;
  lines: VoucherLine[];
  deliveryFeeMinor: number;
  at?: string;
};

/** The voucher's discount on a cart, from the voucher `findVoucher` read: no query. */
export function priceFoundVoucher(found: FoundVoucher, input: VoucherQuoteInput): VoucherQuote {
  return priceVoucher(found?.voucher, {
    ...input,
    code: normalCode(input.code),
    at: input.at ?? nowIso(),
    customerUses: found?.customerUses ?? 0,
  });
}

/**
 * The voucher's discount on a cart, as of `at` (now by default): one query. A code that does not
 * apply is a quote with `isSuccess: false` and the reason, never an error.
 */
export async function quoteVoucher(ctx: ServiceContext, input: VoucherQuoteInput): Promise<VoucherQuote> {
  return priceFoundVoucher(await findVoucher(ctx, input.code, input.customerId), input);
}

/**
 * The catalogue facts a quote needs of the items sent (items belong to the items module; read by
 * table name): each live item of the store, its parent, and its categories (a variant's are its
 * parent's).
 */
const itemFacts = (ctx: ServiceContext, ids: number[]) =>
  ctx.db
    .select({
      id: sql<number>`i.id`,
      parentId: sql<number | null>`i.parent_id`,
      categoryIds: sql<string>`(SELECT json_group_array(DISTINCT l.category_id) FROM item_category_links l
        WHERE l.item_id = i.id OR l.item_id = i.parent_id)`,
    })
    .from(sql`items i`)
    .where(sql`${liveRow(ctx.appId, "i")} AND i.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);

/** Whether the customer is a live one of the store (customers belong to the customers module: read by table name). */
const customerExists = (ctx: ServiceContext, customerId: number) =>
  ctx.db
    .select({ found: sql<number>`1` })
    .from(sql`customers`)
    .where(sql`id = ${customerId} AND ${liveRow(ctx.appId)}`);

/**
 * Get Voucher Discount (MV1): what the code takes off the cart described, in one round trip. The
 * items must be the store's (a 400 names those that are not); the customer, when given, too (404).
 */
export async function getVoucherDiscount(ctx: ServiceContext, body: GetVoucherDiscount): Promise<VoucherResult> {
  const customerId = body.customer_id ?? null;
  const itemIds = [...new Set((body.items ?? []).map((l) => l.item_id))];
  const [found, facts, customer] = await ctx.db.batch([
    voucherByCode(ctx, body.code, customerId),
    itemFacts(ctx, itemIds),
    customerExists(ctx, customerId ?? 0),
  ]);
  if (customerId !== null && !customer.length) throw ApiError.notFound("customer_not_found", `Customer ${customerId}`);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const errors: FieldErrors = {};
  (body.items ?? []).forEach((l, i) => {
    if (!byId.has(l.item_id)) errors[`items.${i}.item_id`] = [`Item ${l.item_id} is not in the store.`];
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors);

  const lines: VoucherLine[] = body.items
    ? body.items.map((l, key) => {
        const f = byId.get(l.item_id)!;
        return {
          key,
          itemId: l.item_id,
          parentItemId: f.parentId,
          categoryIds: JSON.parse(f.categoryIds) as number[],
          amountMinor: l.price * l.qty,
        };
      })
    : [{ key: 0, itemId: 0, categoryIds: [], amountMinor: body.cart_amount ?? 0 }];
  const deliveryFeeMinor = body.delivery_fee ?? 0;
  const quote = priceVoucher(found[0]?.voucher, {
    code: normalCode(body.code),
    customerId,
    lines,
    deliveryFeeMinor,
    at: nowIso(),
    customerUses: found[0]?.customerUses ?? 0,
    itemsKnown: body.items !== undefined,
  });
  const linesMinor = lines.reduce((s, l) => s + l.amountMinor, 0);
  const result = voucherResultView(quote, { linesMinor, deliveryFeeMinor });
  // An amount alone has no lines to show.
  return body.items ? result : { ...result, items: [] };
}
