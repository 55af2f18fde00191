import { sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { readLocation } from "../../customers";
import { readCatalogueFacts } from "../../items";
import { findVoucherOfCode, voucherResultView } from "../../vouchers";
import { findCart } from "../carts/details";
import { priceCartWith, pricingOf } from "../carts/pricing";
import type { Order } from "../orders/schemas";
import { type LinkContext, payLink } from "../orders/views";
import { enabledProviderGroups, providerGroupsOf } from "../payment-methods/service";
import type { Quote } from "../pricing/quote";
import { recurringPurchaseStep } from "../recurring/create";
import { subscriptionsStep } from "../subscriptions/plan";
import type { CheckoutConfigRow } from "./config";
import { placeOrderShown, readOrderInputs } from "./place";
import type { Checkout, CheckoutResult } from "./schemas";

/** The FOUND checkout body around a placed order. */
export async function checkoutResult(
  ctx: ServiceContext,
  q: Quote,
  order: Order,
  opts: { priceUpdated: boolean; links: LinkContext; input?: Checkout; config?: CheckoutConfigRow },
): Promise<CheckoutResult> {
  return {
    cart_price_updated: opts.priceUpdated,
    vouchers: q.voucher
      ? [voucherResultView(q.voucher, { linesMinor: q.subTotalMinor, deliveryFeeMinor: q.shippingMinor })]
      : [],
    ...pickTotals(order),
    cashback_amount: 0,
    payment_methods: opts.config ? providerGroupsOf(opts.config) : await enabledProviderGroups(ctx.db, ctx.appId),
    payment_url: order.payment_url
      ? await payLink(opts.links, ctx.appId, order.id, {
          successUrl: opts.input?.success_url,
          errorUrl: opts.input?.error_url,
          lang: opts.input?.lang,
        })
      : null,
    order,
  };
}

function pickTotals(o: Order) {
  return {
    sub_total_amount: o.sub_total_amount,
    shipping_amount: o.shipping_amount,
    setup_amount: o.setup_amount,
    net_amount: o.net_amount,
    sub_total_discounts_amount: o.sub_total_discounts_amount,
    shipping_discounts_amount: o.shipping_discounts_amount,
    total_discounts_amount: o.total_discounts_amount,
    total_amount: o.total_amount,
    wallet_redeem_amount: o.wallet_redeem_amount,
    total_amount_with_redeem: o.total_amount_with_redeem,
    total_amount_excluding_tax: o.total_amount_excluding_tax,
    tax_amount: o.tax_amount,
    tax_percentage: o.tax_percentage,
    currency: o.currency,
  };
}

/**
 * CA14 Checkout: re-prices the cart now, refuses lines that can no longer be ordered, and places the
 * order in one guarded batch (stock, voucher, wallet, cart). `cart_price_updated` tells the client
 * that the total moved since the customer last saw it. Two round trips: every read at once (what
 * depends on the cart, its items, voucher and location, by subqueries on it), then the batch, which
 * reads the placed order back.
 */
export async function checkoutCart(
  ctx: ServiceContext,
  customerId: number,
  cartId: number,
  input: Checkout,
  links: LinkContext,
): Promise<CheckoutResult> {
  const ofCart = (column: string) =>
    sql`(SELECT ${sql.raw(column)} FROM carts WHERE id = ${cartId} AND app_id = ${ctx.appId})`;
  const [{ cart, lines }, catalogue, voucherOf, cartLocation, inputs] = await Promise.all([
    findCart(ctx, cartId, customerId),
    readCatalogueFacts(ctx, sql`(SELECT item_id FROM cart_items WHERE cart_id = ${cartId} AND app_id = ${ctx.appId})`),
    findVoucherOfCode(ctx, ofCart("voucher_code"), customerId),
    readLocation(ctx, customerId, ofCart("location_id")).catch(() => null),
    readOrderInputs(ctx, customerId),
  ]);
  if (cart.status !== "open")
    throw ApiError.conflict("cart_checked_out", `Cart ${cartId} was already checked out.`, { order_id: cart.orderId });
  if (lines.length === 0) throw ApiError.conflict("cart_empty", `Cart ${cartId} has no lines.`);
  const facts = {
    items: catalogue(lines.map((l) => l.itemId)).priced,
    voucher: cart.voucherCode ? await voucherOf(cart.voucherCode) : undefined,
  };
  const { quote: q, problems } = priceCartWith(cart, lines, facts, pricingOf(inputs.settings, inputs.config));
  for (const line of lines) {
    const problem = problems.get(line.id);
    if (problem) throw ApiError.conflict("item_unavailable", problem, { item_id: line.itemId });
  }
  const location = cart.locationId ? cartLocation : null;
  const recurring =
    cart.isRecurring && cart.duration !== null && cart.durationUnit !== null
      ? recurringPurchaseStep(ctx, {
          customerId,
          cartId,
          duration: cart.duration,
          durationUnit: cart.durationUnit,
          provider: input.payment_provider,
          cartProvider: cart.cartProvider,
        })
      : null;
  const order = await placeOrderShown(
    ctx,
    q,
    {
      kind: "purchase",
      customerId,
      cartId,
      provider: input.payment_provider,
      paymentMethod: input.payment_method ?? null,
      cartProvider: cart.cartProvider,
      notes: cart.notes,
      receiver: cart.receiver ?? null,
      buyer: cart.buyer ?? null,
      location: location as Record<string, unknown> | null,
      customFields: cart.customFields ?? null,
    },
    [...(recurring ? [recurring] : []), subscriptionsStep(ctx, q.lines, customerId)],
    inputs,
    links,
  );
  return checkoutResult(ctx, q, order, {
    priceUpdated: q.totalWithRedeemMinor !== cart.quotedTotalMinor,
    links,
    input,
    config: inputs.config,
  });
}
