import { toMajor } from "../../../core/money";
import { BP_PER_PERCENT, stateOf, type VoucherRow } from "../rules";

/**
 * What a voucher takes off a cart: pure arithmetic over the voucher's row and the cart's lines, in
 * integer minor units, shared by Get Voucher Discount (MV1) and the checkout engine.
 */

/** One line of the cart: `amountMinor` is what the line costs (unit price × qty, after item discounts). */
export type VoucherLine = {
  key: number;
  itemId: number;
  categoryIds: number[];
  amountMinor: number;
  /** The item a variant varies: a scope naming it takes its variants too. */
  parentItemId?: number | null;
};

export type VoucherQuote = {
  voucherId: number | null;
  code: string;
  titleEn: string | null;
  titleAr: string | null;
  discountOn: "total" | "items" | "delivery" | null;
  isSuccess: boolean;
  errorReason: string | null;
  /** Discount on the lines (total/items vouchers), allocated per line key; sums exactly to linesDiscountMinor. */
  lineDiscounts: Map<number, number>;
  linesDiscountMinor: number;
  /** Discount on the delivery fee (delivery vouchers), ≤ deliveryFeeMinor. */
  deliveryDiscountMinor: number;
  /** The lines in the order given, with their item: what the result's `items[]` shows. */
  items?: { key: number; itemId: number }[];
};

export type PriceInput = {
  code: string;
  customerId: number | null;
  lines: VoucherLine[];
  deliveryFeeMinor: number;
  at: string;
  /** The customer's uses of the voucher that were not released. */
  customerUses: number;
  /** False when the cart came as an amount only: a scoped voucher cannot be priced then. */
  itemsKnown?: boolean;
};

/** round(n × bp / 10000), half up, exact for any safe integer n. */
export function percentOf(n: number, bp: number): number {
  const scaled = BigInt(n) * BigInt(bp);
  const whole = BigInt(100 * BP_PER_PERCENT);
  return Number((scaled * 2n + whole) / (whole * 2n));
}

/**
 * Splits `total` over the lines in proportion to their amounts, by largest remainder: each line
 * gets the floor of its exact share, and the units left go one each to the lines with the largest
 * remainders (the earlier line on a tie), so the shares sum exactly to `total`.
 */
export function allocate(total: number, lines: { key: number; amountMinor: number }[]): Map<number, number> {
  const out = new Map<number, number>(lines.map((l) => [l.key, 0]));
  const base = lines.reduce((s, l) => s + BigInt(l.amountMinor), 0n);
  if (total <= 0 || base === 0n) return out;
  const t = BigInt(total);
  const shares = lines.map((l, i) => {
    const exact = t * BigInt(l.amountMinor);
    return { key: l.key, i, floor: exact / base, rem: exact % base };
  });
  let left = t - shares.reduce((s, x) => s + x.floor, 0n);
  const byRemainder = [...shares].sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1));
  for (const s of byRemainder) {
    if (left === 0n) break;
    s.floor += 1n;
    left -= 1n;
  }
  for (const s of shares) out.set(s.key, (out.get(s.key) ?? 0) + Number(s.floor));
  return out;
}

const inScope = (v: Pick<VoucherRow, "itemIds" | "categoryIds">, l: VoucherLine) =>
  v.itemIds.includes(l.itemId) ||
  (l.parentItemId != null && v.itemIds.includes(l.parentItemId)) ||
  l.categoryIds.some((c) => v.categoryIds.includes(c));

/** The quote of a voucher that does not apply, with the reason a customer can read. */
function refused(code: string, v: VoucherRow | undefined, lines: VoucherLine[], reason: string): VoucherQuote {
  return {
    voucherId: v?.id ?? null,
    code: v?.code ?? code,
    titleEn: v?.titleEn ?? null,
    titleAr: v?.titleAr ?? null,
    discountOn: v?.discountOn ?? null,
    isSuccess: false,
    errorReason: reason,
    lineDiscounts: new Map(lines.map((l) => [l.key, 0])),
    linesDiscountMinor: 0,
    deliveryDiscountMinor: 0,
    items: lines.map((l) => ({ key: l.key, itemId: l.itemId })),
  };
}

/** Why the voucher cannot be used now by this customer, or null when it can. */
function unusable(v: VoucherRow, input: PriceInput): string | null {
  switch (stateOf(v, input.at)) {
    case "disabled":
      return "This voucher is disabled.";
    case "expired":
      return "This voucher has expired.";
    case "exhausted":
      return "This voucher has been used up.";
    case "scheduled":
      return `This voucher is valid from ${v.startsAt}.`;
    case "active":
      break;
  }
  if (input.customerId !== null && v.perCustomerLimit !== null && input.customerUses >= v.perCustomerLimit) {
    return `This customer has already used this voucher ${input.customerUses} time(s), its limit.`;
  }
  return null;
}

/**
 * The voucher's discount on the cart. `total` takes off all the lines (a scope only says which
 * items the cart must hold), `items` only the lines in scope (every line when there is no scope),
 * `delivery` the delivery fee. A percentage is rounded half up on the whole discount, then capped
 * by `max_discount`; a fixed amount is capped by what it applies to.
 */
export function priceVoucher(v: VoucherRow | undefined, input: PriceInput): VoucherQuote {
  const { lines } = input;
  if (!v) return refused(input.code, v, lines, "No voucher with this code.");
  const reason = unusable(v, input);
  if (reason) return refused(input.code, v, lines, reason);

  const scoped = v.itemIds.length > 0 || v.categoryIds.length > 0;
  if (scoped && input.itemsKnown === false) {
    return refused(input.code, v, lines, "This voucher is for some items only: send the cart's items to price it.");
  }
  const eligible = scoped ? lines.filter((l) => inScope(v, l)) : lines;
  if (!eligible.length) return refused(input.code, v, lines, "None of the cart's items is eligible for this voucher.");

  const subtotal = lines.reduce((s, l) => s + l.amountMinor, 0);
  if (subtotal < v.minOrderMinor) {
    return refused(
      input.code,
      v,
      lines,
      `The cart must come to at least ${toMajor(v.minOrderMinor)} for this voucher; it comes to ${toMajor(subtotal)}.`,
    );
  }

  const target = v.discountOn === "items" ? eligible : lines;
  const base = v.discountOn === "delivery" ? input.deliveryFeeMinor : target.reduce((s, l) => s + l.amountMinor, 0);
  if (v.discountOn === "delivery" && base <= 0) {
    return refused(input.code, v, lines, "This voucher takes off the delivery fee, and there is none.");
  }
  let discount = v.kind === "percentage" ? percentOf(base, v.value) : v.value;
  if (v.maxDiscountMinor !== null) discount = Math.min(discount, v.maxDiscountMinor);
  discount = Math.min(discount, base);

  const onLines = v.discountOn !== "delivery";
  const lineDiscounts = new Map(lines.map((l) => [l.key, 0]));
  if (onLines) for (const [key, d] of allocate(discount, target)) lineDiscounts.set(key, d);
  return {
    voucherId: v.id,
    code: v.code,
    titleEn: v.titleEn,
    titleAr: v.titleAr,
    discountOn: v.discountOn,
    isSuccess: true,
    errorReason: null,
    lineDiscounts,
    linesDiscountMinor: onLines ? discount : 0,
    deliveryDiscountMinor: onLines ? 0 : discount,
    items: lines.map((l) => ({ key: l.key, itemId: l.itemId })),
  };
}
