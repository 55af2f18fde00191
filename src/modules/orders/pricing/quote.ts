import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { nowIso, todayIn } from "../../../core/time";
import { itemsForPricing, type PricedItem } from "../../items";
import { type FoundVoucher, findVoucher, priceFoundVoucher, type VoucherQuote } from "../../vouchers";
import type { BundleSelection } from "../tables";
import { vatSplit } from "./vat";

/** A line as a cart or a phone order holds it. */
export type LineInput = {
  key: number;
  itemId: number;
  qty: number;
  modifierValueIds: number[];
  bundleSelections: BundleSelection[];
};

export type QuotedLine = LineInput & {
  item: PricedItem;
  unitPriceMinor: number;
  amountMinor: number;
  voucherDiscountMinor: number;
  totalMinor: number;
  taxPercentageBp: number;
  taxMinor: number;
  totalExcludingTaxMinor: number;
};

export type Quote = {
  currency: string;
  vatBp: number;
  lines: QuotedLine[];
  subTotalMinor: number;
  shippingMinor: number;
  setupMinor: number;
  subTotalDiscountsMinor: number;
  shippingDiscountsMinor: number;
  /** Net less discounts: what is owed before the wallet. */
  totalMinor: number;
  walletRedeemMinor: number;
  totalWithRedeemMinor: number;
  taxMinor: number;
  totalExcludingTaxMinor: number;
  voucher: VoucherQuote | null;
  /** Lines that are not catalogue items (`quoteServiceLines`); absent on a catalogue quote. */
  serviceLines?: QuotedServiceLine[];
};

export type QuoteInput = {
  lines: LineInput[];
  customerId: number | null;
  voucherCode: string | null;
  /** Cashback the customer asks to spend; capped by the total (the balance is checked at checkout). */
  walletRedeemMinor: number;
  currency: string;
  vatBp: number;
  /** The delivery fee (couriers come with shipping; until then 0). */
  shippingMinor?: number;
  at?: string;
  /** The store's time zone: an item's serving dates are the store's days. */
  timeZone?: string;
  /** Whether the store lets carts spend cashback (Checkout Config); when not, no redemption is priced. */
  walletRedeemEnabled?: boolean;
};

/** Why a line cannot be ordered now, or null. */
export function lineProblem(line: LineInput, item: PricedItem | undefined, today: string): string | null {
  if (!item?.isLive) return `Item ${line.itemId} is not in the store's catalogue.`;
  if (item.isPlanOnly) return `Item ${line.itemId} is sold only in meal plans.`;
  if (today < item.servedFromDate || today > item.servedToDate)
    return `Item ${line.itemId} is served from ${item.servedFromDate} to ${item.servedToDate}.`;
  const bad = line.modifierValueIds.find((v) => !item.modifierValueIds.has(v));
  if (bad !== undefined) return `Modifier value ${bad} is not one of item ${line.itemId}'s modifiers.`;
  const chosen = new Map(line.bundleSelections.map((s) => [s.bundle_category_id, s.item_ids]));
  for (const id of chosen.keys())
    if (!item.bundleCategories.some((b) => b.id === id))
      return `Bundle category ${id} is not one of item ${line.itemId}'s bundle categories.`;
  for (const b of item.bundleCategories) {
    const ids = chosen.get(b.id) ?? [];
    const min = b.isOptional ? 0 : Math.max(1, b.min);
    if (ids.length < min || ids.length > b.max)
      return `Bundle category ${b.id} of item ${line.itemId} takes ${min} to ${b.max} selections; ${ids.length} given.`;
    const outside = ids.find((x) => !b.memberIds.has(x));
    if (outside !== undefined) return `Item ${outside} is not a choice of bundle category ${b.id}.`;
  }
  return null;
}

/** What a quote reads: the lines' items and the voucher of the code (none without a code). */
export type QuoteFacts = { items: Map<number, PricedItem>; voucher: FoundVoucher };

/** A quote's reads in ONE round trip: the items and the voucher do not wait for each other. */
export async function readQuoteFacts(
  ctx: ServiceContext,
  input: Pick<QuoteInput, "lines" | "voucherCode" | "customerId">,
): Promise<QuoteFacts> {
  const [items, voucher] = await Promise.all([
    itemsForPricing(
      ctx,
      input.lines.map((l) => l.itemId),
    ),
    input.voucherCode ? findVoucher(ctx, input.voucherCode, input.customerId) : undefined,
  ]);
  return { items, voucher };
}

/**
 * Prices lines as of now: the items' prices after their own discounts, the voucher (allocated to
 * the lines it covers, so each line's VAT split is exact), the delivery fee, the wallet. Totals are
 * sums of the lines. A line that cannot be ordered is a 400 naming its position (`field`).
 */
export async function quote(ctx: ServiceContext, input: QuoteInput, field = "items"): Promise<Quote> {
  return quoteOf(await readQuoteFacts(ctx, input), input, field);
}

/** `quote` from the facts `readQuoteFacts` read (or a caller read beside its own): no query. */
export function quoteOf(facts: QuoteFacts, input: QuoteInput, field = "items"): Quote {
  const at = input.at ?? new Date().toISOString();
  const today = input.timeZone ? todayIn(input.timeZone, new Date(at)) : at.slice(0, 10);
  const items = facts.items;
  const errors: Record<string, string[]> = {};
  input.lines.forEach((line, i) => {
    const problem = lineProblem(line, items.get(line.itemId), today);
    if (problem) errors[`${field}.${i}`] = [problem];
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors, "Some lines cannot be ordered; see `errors`.");

  const priced = input.lines.map((line) => {
    const item = items.get(line.itemId)!;
    return { line, item, amountMinor: item.unitPriceMinor * line.qty };
  });
  const shippingMinor = input.shippingMinor ?? 0;
  const voucher = input.voucherCode
    ? priceFoundVoucher(facts.voucher, {
        code: input.voucherCode,
        customerId: input.customerId,
        lines: priced.map((p) => ({
          key: p.line.key,
          itemId: p.item.id,
          parentItemId: p.item.parentId,
          categoryIds: p.item.categoryIds,
          amountMinor: p.amountMinor,
        })),
        deliveryFeeMinor: shippingMinor,
        at,
      })
    : null;
  const { lines, totals } = priceTotals(
    priced.map(({ line, item, amountMinor }) => ({ ...line, item, unitPriceMinor: item.unitPriceMinor, amountMinor })),
    voucher,
    { ...input, shippingMinor },
  );
  return { ...totals, lines };
}

/**
 * A line that is not a catalogue item: a meal plan's term, a meal add-on. Its seller priced it (the
 * unit price, VAT included); it holds no stock and no voucher scope can name it.
 */
export type ServiceLineInput = {
  key: number;
  nameEn: string;
  nameAr: string;
  sku: string | null;
  qty: number;
  unitPriceMinor: number;
};

export type QuotedServiceLine = ServiceLineInput & {
  amountMinor: number;
  voucherDiscountMinor: number;
  totalMinor: number;
  taxPercentageBp: number;
  taxMinor: number;
  totalExcludingTaxMinor: number;
};

export type ServiceQuoteInput = Omit<QuoteInput, "lines" | "timeZone"> & { lines: ServiceLineInput[] };

/**
 * Prices service lines as `quote` prices catalogue lines: the voucher (a code scoped to items or
 * categories finds none of them eligible), the delivery fee, VAT per line, the wallet. The quote's
 * `lines` are empty; `serviceLines` carry them, and `placeOrder` writes them as order lines. The
 * voucher is the one the caller read (`findVoucher`) beside its other reads: no query here.
 */
export function quoteServiceLinesOf(found: FoundVoucher, input: ServiceQuoteInput): Quote {
  const shippingMinor = input.shippingMinor ?? 0;
  const priced = input.lines.map((l) => ({ ...l, amountMinor: l.unitPriceMinor * l.qty }));
  // Item id 0 is no item: a voucher scoped to items never matches a service line.
  const voucher = input.voucherCode
    ? priceFoundVoucher(found, {
        code: input.voucherCode,
        customerId: input.customerId,
        lines: priced.map((l) => ({ key: l.key, itemId: 0, categoryIds: [], amountMinor: l.amountMinor })),
        deliveryFeeMinor: shippingMinor,
        at: input.at ?? nowIso(),
      })
    : null;
  const { lines, totals } = priceTotals(priced, voucher, { ...input, shippingMinor });
  return { ...totals, lines: [], serviceLines: lines };
}

type Totals = Omit<Quote, "lines" | "serviceLines">;

/**
 * The part of a quote after each line's amount is known: the voucher's discount allocated to the
 * lines (so each line's VAT split is exact), the delivery fee and its VAT, the wallet capped by the
 * total. Totals are sums of the lines.
 */
function priceTotals<L extends { key: number; amountMinor: number }>(
  priced: L[],
  voucher: VoucherQuote | null,
  input: Pick<QuoteInput, "currency" | "vatBp" | "walletRedeemMinor" | "walletRedeemEnabled"> & {
    shippingMinor: number;
  },
): {
  lines: (L & Omit<QuotedServiceLine, keyof ServiceLineInput | "amountMinor">)[];
  totals: Totals;
} {
  const applied = voucher?.isSuccess ? voucher : null;
  const shippingMinor = input.shippingMinor;
  const lines = priced.map((line) => {
    const voucherDiscountMinor = Math.min(line.amountMinor, applied?.lineDiscounts.get(line.key) ?? 0);
    const totalMinor = line.amountMinor - voucherDiscountMinor;
    const { excludingTaxMinor, taxMinor } = vatSplit(totalMinor, input.vatBp);
    return {
      ...line,
      voucherDiscountMinor,
      totalMinor,
      taxPercentageBp: input.vatBp,
      taxMinor,
      totalExcludingTaxMinor: excludingTaxMinor,
    };
  });
  const subTotalMinor = lines.reduce((s, l) => s + l.amountMinor, 0);
  const subTotalDiscountsMinor = lines.reduce((s, l) => s + l.voucherDiscountMinor, 0);
  const shippingDiscountsMinor = Math.min(shippingMinor, applied?.deliveryDiscountMinor ?? 0);
  const totalMinor = subTotalMinor + shippingMinor - subTotalDiscountsMinor - shippingDiscountsMinor;
  const asked = input.walletRedeemEnabled === false ? 0 : input.walletRedeemMinor;
  const walletRedeemMinor = Math.max(0, Math.min(asked, totalMinor));
  const shippingTax = vatSplit(shippingMinor - shippingDiscountsMinor, input.vatBp);
  const taxMinor = lines.reduce((s, l) => s + l.taxMinor, 0) + shippingTax.taxMinor;
  return {
    lines,
    totals: {
      currency: input.currency,
      vatBp: input.vatBp,
      subTotalMinor,
      shippingMinor,
      setupMinor: 0,
      subTotalDiscountsMinor,
      shippingDiscountsMinor,
      totalMinor,
      walletRedeemMinor,
      totalWithRedeemMinor: totalMinor - walletRedeemMinor,
      taxMinor,
      totalExcludingTaxMinor: totalMinor - taxMinor,
      voucher,
    },
  };
}
