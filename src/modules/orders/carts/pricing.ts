import type { ServiceContext } from "../../../core/context";
import { todayIn } from "../../../core/time";
import { readStoreSettings, type StoreSettings } from "../../account";
import { type CheckoutConfigRow, readCheckoutConfig } from "../checkout/config";
import { type LineInput, lineProblem, type QuoteFacts, quoteOf, readQuoteFacts } from "../pricing/quote";
import type { cartItems, carts } from "../tables";

type CartRow = typeof carts.$inferSelect;
type LineRow = typeof cartItems.$inferSelect;

/** What a cart is priced in: the store's currency, VAT, calendar, and whether carts may spend cashback. */
export type PricingContext = ReturnType<typeof pricingOf>;

/** The pricing context of settings and a checkout configuration already read. */
export const pricingOf = (s: StoreSettings, config: CheckoutConfigRow) => ({
  currency: s.currency,
  vatBp: s.vatPercentageBp,
  timeZone: s.timezone,
  walletRedeemEnabled: config.isWalletRedeemEnabled,
});

/** The store's pricing context: its currency, VAT, calendar, and whether carts may spend cashback. */
export async function pricingContext(ctx: ServiceContext): Promise<PricingContext> {
  const [s, config] = await Promise.all([readStoreSettings(ctx.db, ctx.appId), readCheckoutConfig(ctx.db, ctx.appId)]);
  return pricingOf(s, config);
}

export const lineInputs = (lines: LineRow[]): LineInput[] =>
  lines.map((l) => ({
    key: l.id,
    itemId: l.itemId,
    qty: l.qty,
    modifierValueIds: l.modifierValueIds,
    bundleSelections: l.bundleSelections,
  }));

/**
 * Prices a cart now, in one round trip (its items, its voucher and the store's context read
 * together). Lines that cannot be ordered any more (an item deleted or out of its dates) are left
 * out of the totals and flagged, so that a cart can always be shown; checkout refuses them.
 */
export async function priceCart(ctx: ServiceContext, cart: CartRow, lines: LineRow[]) {
  const inputs = lineInputs(lines);
  const [facts, pricing] = await Promise.all([
    readQuoteFacts(ctx, { lines: inputs, voucherCode: cart.voucherCode, customerId: cart.customerId }),
    pricingContext(ctx),
  ]);
  return priceCartWith(cart, lines, facts, pricing);
}

/** `priceCart` from facts and a context read beside the cart (checkout reads all in one round trip): no query. */
export function priceCartWith(cart: CartRow, lines: LineRow[], facts: QuoteFacts, pricing: PricingContext) {
  const inputs = lineInputs(lines);
  const today = todayIn(pricing.timeZone);
  const problems = new Map(inputs.map((l) => [l.key, lineProblem(l, facts.items.get(l.itemId), today)]));
  const orderable = inputs.filter((l) => problems.get(l.key) === null);
  const q = quoteOf(facts, {
    lines: orderable,
    customerId: cart.customerId,
    voucherCode: cart.voucherCode,
    walletRedeemMinor: cart.walletRedeemMinor,
    ...pricing,
  });
  return { quote: q, problems };
}
