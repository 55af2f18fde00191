import type { ServiceContext } from "../../../core/context";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import {
  type OrderInputs,
  pricingOf,
  type Quote,
  quoteServiceLinesOf,
  readOrderInputs,
  type ServiceLineInput,
} from "../../orders";
import { type FoundVoucher, findVoucher, voucherResultView } from "../../vouchers";
import type { MealPrice } from "./schemas";

/**
 * The one pricing of meals commerce: the calculators (CA16-CA18, the add-ons cart) and the orders
 * (Place Order, Add-On Order, Renew) all price through `priceMealWith`, which prices the lines with the
 * orders module's `quoteServiceLines` (voucher, VAT per line, delivery fee, wallet), so a meal
 * order is charged exactly what its calculator showed.
 */

/** round(n × bp / 10000), half up, in integers (a percentage with two decimals is `bp` = % × 100). */
const percentOfMinor = (n: number, bp: number) => Math.floor((2 * n * bp + 10_000) / 20_000);

/** A plan version's price after its own `discount_percentage` (which never applies to the delivery fee). */
export function versionPriceMinor(v: { originalPriceMinor: number; discountPercentage: number }): number {
  const bp = Math.round(v.discountPercentage * 100);
  return v.originalPriceMinor - percentOfMinor(v.originalPriceMinor, Math.min(Math.max(bp, 0), 10_000));
}

/** A menu product's unit price after its own discount (add-ons). */
export const productPriceMinor = (p: { priceMinor: number; discountPercentage: number }) =>
  versionPriceMinor({ originalPriceMinor: p.priceMinor, discountPercentage: p.discountPercentage });

export type MealPriceInput = {
  customerId: number;
  lines: ServiceLineInput[];
  deliveryFeeMinor: number;
  voucher: string | undefined;
  isRedeeming: boolean;
};

/** What a meal price reads, in ONE round trip: the store's rules, the customer's cashback, the voucher. */
export type MealPricingFacts = { inputs: OrderInputs; voucher: FoundVoucher };

export async function readMealPricing(
  ctx: ServiceContext,
  customerId: number,
  voucher: string | undefined,
): Promise<MealPricingFacts> {
  const [inputs, found] = await Promise.all([
    readOrderInputs(ctx, customerId),
    voucher ? findVoucher(ctx, voucher, customerId) : undefined,
  ]);
  return { inputs, voucher: found };
}

/**
 * The quote and the customer's cashback balance, from the facts read beside the cart
 * (`readMealPricing`): no query. `inputs` are what placing the order needs (read already).
 */
export function priceMealWith(
  facts: MealPricingFacts,
  input: MealPriceInput,
): { quote: Quote; balance: number; inputs: OrderInputs } {
  const { inputs } = facts;
  const pricing = pricingOf(inputs.settings, inputs.config);
  const balance = input.isRedeeming ? inputs.cashbackMinor : 0;
  const quote = quoteServiceLinesOf(facts.voucher, {
    lines: input.lines,
    customerId: input.customerId,
    voucherCode: input.voucher ?? null,
    walletRedeemMinor: balance,
    shippingMinor: input.deliveryFeeMinor,
    currency: pricing.currency,
    vatBp: pricing.vatBp,
    walletRedeemEnabled: pricing.walletRedeemEnabled,
    at: nowIso(),
  });
  return { quote, balance, inputs };
}

export type PriceContext = {
  planVersionId: number | null;
  subscriptionId: number | null;
  startDate: string | null;
  endDate: string | null;
  deliveryDates: string[];
  isPickup: boolean;
  originalPriceMinor: number;
  discountPercentage: number;
};

/** The price breakdown of a quote, as the calculators answer it. */
export function mealPriceView(q: Quote, balance: number, c: PriceContext): MealPrice {
  const voucher = q.voucher;
  const discounts = q.subTotalDiscountsMinor + q.shippingDiscountsMinor;
  return {
    plan_version_id: c.planVersionId,
    subscription_id: c.subscriptionId,
    start_date: c.startDate,
    end_date: c.endDate,
    delivery_dates: c.deliveryDates,
    is_pickup: c.isPickup,
    original_price: toMajor(c.originalPriceMinor),
    discount_percentage: c.discountPercentage,
    lines: (q.serviceLines ?? []).map((l) => ({
      name_en: l.nameEn,
      name_ar: l.nameAr,
      qty: l.qty,
      unit_price: toMajor(l.unitPriceMinor),
      amount: toMajor(l.amountMinor),
      voucher_discount_amount: toMajor(l.voucherDiscountMinor),
      total_amount: toMajor(l.totalMinor),
      tax_amount: toMajor(l.taxMinor),
    })),
    cart_amount: toMajor(q.subTotalMinor),
    delivery_fee: toMajor(q.shippingMinor),
    voucher: voucher
      ? voucherResultView(voucher, { linesMinor: q.subTotalMinor, deliveryFeeMinor: q.shippingMinor })
      : null,
    voucher_code: voucher?.isSuccess ? voucher.code : null,
    cart_amount_voucher_discounts: toMajor(q.subTotalDiscountsMinor),
    delivery_fee_voucher_discounts: toMajor(q.shippingDiscountsMinor),
    total_discounts: toMajor(discounts),
    total_amount: toMajor(q.totalMinor),
    wallet_balance: toMajor(balance),
    wallet_discounts: toMajor(q.walletRedeemMinor),
    total_amount_with_redeem: toMajor(q.totalWithRedeemMinor),
    total_amount_excluding_tax: toMajor(q.totalExcludingTaxMinor),
    tax_amount: toMajor(q.taxMinor),
    tax_percentage: q.vatBp / 100,
    currency: q.currency,
  };
}
