import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { getLocation } from "../../customers";
import { voucherResultView } from "../../vouchers";
import { findCart, priceCart } from "../carts/service";
import type { Order } from "../orders/schemas";
import { type LinkContext, loadOrders, payLink } from "../orders/views";
import { enabledProviderGroups } from "../payment-methods/service";
import type { Quote } from "../pricing/quote";
import { recurringPurchaseStep } from "../recurring/create";
import { subscriptionsStep } from "../subscriptions/plan";
import { placeOrder } from "./place";
import type { Checkout, CheckoutResult } from "./schemas";

/** The FOUND checkout body around a placed order. */
export async function checkoutResult(
  ctx: ServiceContext,
  q: Quote,
  order: Order,
  opts: { priceUpdated: boolean; links: LinkContext; input?: Checkout },
): Promise<CheckoutResult> {
  return {
    cart_price_updated: opts.priceUpdated,
    vouchers: q.voucher
      ? [voucherResultView(q.voucher, { linesMinor: q.subTotalMinor, deliveryFeeMinor: q.shippingMinor })]
      : [],
    ...pickTotals(order),
    cashback_amount: 0,
    payment_methods: await enabledProviderGroups(ctx.db, ctx.appId),
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
 * that the total moved since the customer last saw it.
 */
export async function checkoutCart(
  ctx: ServiceContext,
  customerId: number,
  cartId: number,
  input: Checkout,
  links: LinkContext,
): Promise<CheckoutResult> {
  const { cart, lines } = await findCart(ctx, cartId, customerId);
  if (cart.status !== "open")
    throw ApiError.conflict("cart_checked_out", `Cart ${cartId} was already checked out.`, { order_id: cart.orderId });
  if (lines.length === 0) throw ApiError.conflict("cart_empty", `Cart ${cartId} has no lines.`);
  const { quote: q, problems } = await priceCart(ctx, cart, lines);
  for (const line of lines) {
    const problem = problems.get(line.id);
    if (problem) throw ApiError.conflict("item_unavailable", problem, { item_id: line.itemId });
  }
  const location = cart.locationId ? await getLocation(ctx, customerId, cart.locationId).catch(() => null) : null;
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
  const orderId = await placeOrder(
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
      location: location as Record<string, unknown> | null,
      customFields: cart.customFields ?? null,
    },
    [...(recurring ? [recurring] : []), subscriptionsStep(ctx, q.lines, customerId)],
  );
  const order = (await loadOrders(ctx, [orderId], links)).get(orderId)!;
  return checkoutResult(ctx, q, order, {
    priceUpdated: q.totalWithRedeemMinor !== cart.quotedTotalMinor,
    links,
    input,
  });
}
