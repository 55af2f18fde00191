import type { ServiceContext } from "../../../core/context";
import type { CheckoutResult, LinkContext } from "../../orders";
import { initialCredits } from "../rules";
import { type Buyer, type ResolvedMealCart, resolveMealCart } from "./cart";
import { checkChannel, placeMeal, requireVoucher } from "./place";
import { mealPriceView, priceMealWith, readMealPricing } from "./pricing";
import type { MealCart, MealPrice, PlaceMealOrder } from "./schemas";

/**
 * What the calculators take into account: Apply Voucher the voucher, Redeem the wallet (always),
 * Get Discount and Place Order the voucher and, when the body asks (`is_redeeming`), the wallet.
 */
export type Discounts = { voucher: boolean; wallet: "always" | "asked" | "never" };

/** The cart and its price in ONE round trip: the cart's reads and the pricing's go together. */
async function priced(ctx: ServiceContext, buyer: Buyer, body: MealCart, d: Discounts) {
  checkChannel(buyer, body.channel_app_id);
  const voucher = d.voucher ? body.voucher : undefined;
  const [cart, facts] = await Promise.all([
    resolveMealCart(ctx, buyer, body),
    readMealPricing(ctx, buyer.customerId, voucher),
  ]);
  const { quote, balance, inputs } = priceMealWith(facts, {
    customerId: buyer.customerId,
    lines: cart.lines,
    deliveryFeeMinor: cart.deliveryFeeMinor,
    voucher,
    isRedeeming: d.wallet === "always" || (d.wallet === "asked" && body.is_redeeming),
  });
  return { cart, quote, balance, inputs };
}

const priceContext = (cart: ResolvedMealCart) => ({
  planVersionId: cart.p.version.id,
  subscriptionId: null,
  startDate: cart.startDate,
  endDate: cart.endDate,
  deliveryDates: cart.deliveries.map((d) => d.date),
  isPickup: cart.isPickup,
  originalPriceMinor: cart.p.version.originalPriceMinor,
  discountPercentage: cart.p.version.discountPercentage,
});

/** CA16-CA18: the order's price breakdown, with the discounts the calculator applies. */
export async function mealCartPrice(
  ctx: ServiceContext,
  buyer: Buyer,
  body: MealCart,
  d: Discounts,
): Promise<MealPrice> {
  const { cart, quote, balance } = await priced(ctx, buyer, body, d);
  return mealPriceView(quote, balance, priceContext(cart));
}

/** CA19 Place Order: a pending order (or paid at once) whose payment starts the meal subscription. */
export async function placeMealOrder(
  ctx: ServiceContext,
  buyer: Buyer,
  body: PlaceMealOrder,
  links: LinkContext,
): Promise<CheckoutResult> {
  const { cart, quote, inputs } = await priced(ctx, buyer, body, { voucher: true, wallet: "asked" });
  requireVoucher(quote, body.voucher);
  const { p } = cart;
  return placeMeal(
    ctx,
    buyer,
    quote,
    {
      type: "subscription",
      restaurantId: p.restaurant.id,
      planId: p.plan.id,
      planVersionId: p.version.id,
      startDate: cart.startDate,
      endDate: cart.endDate,
      isPickup: cart.isPickup,
      pickupBranchId: cart.pickupBranchId,
      deliveryWindowId: cart.deliveryWindowId,
      primaryLocationId: cart.primaryLocationId,
      secondaryLocationId: cart.secondaryLocationId,
      cityId: buyer.cityId,
      location: cart.location,
      notes: cart.notes,
      ...initialCredits(p.version),
      selections: cart.deliveries,
    },
    body,
    links,
    inputs,
  );
}
