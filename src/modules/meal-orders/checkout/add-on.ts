import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { ApiError, type FieldErrors } from "../../../core/errors";
import { inList } from "../../../core/sql";
import { mealProductsByIds, restaurantById } from "../../meals";
import type { CheckoutResult, LinkContext, ServiceLineInput } from "../../orders";
import { firstChangeableDate } from "../rules";
import { customerSubscriptionRead, subscriptionNotFound } from "../subscriptions/service";
import { mealSubscriptions, OPEN_SUBORDER_STATUSES, suborders } from "../tables";
import type { Buyer } from "./cart";
import { placeMeal, requireVoucher } from "./place";
import { mealPriceView, priceMealWith, productPriceMinor, readMealPricing } from "./pricing";
import type { AddOnCart, AddOnOrder } from "./schemas";

/**
 * Add-On Order (MM5): menu products of the subscription's restaurant for some of its suborders,
 * before the provider's cutoff. Priced by `priceMealWith` like every meal order; the products reach the
 * suborders' `add_ons` when the order is paid (checkout/paid.ts).
 */

/**
 * The add-ons checked and priced in ONE round trip: the subscription, its restaurant (by the
 * subscription's row, as a subquery), the products, the suborders and the prices' inputs at once.
 */
async function pricedAddOns(ctx: ServiceContext, customerId: number, body: AddOnCart) {
  const subscription = customerSubscriptionRead(ctx, body.subscription_id, customerId);
  const [sub, restaurant, products, rows, facts] = await Promise.all([
    subscription.row(),
    restaurantById(ctx, subscription.column(mealSubscriptions.restaurantId)),
    mealProductsByIds(
      ctx,
      body.add_ons.map((a) => a.product_id),
    ),
    // Its suborders are used only once the subscription is found to be the customer's.
    ctx.db
      .select()
      .from(suborders)
      .where(
        and(
          eq(suborders.subscriptionId, body.subscription_id),
          notDeleted(suborders),
          inList(
            suborders.id,
            body.add_ons.map((a) => a.suborder_id),
          ),
        ),
      ),
    readMealPricing(ctx, customerId, body.voucher),
  ]);
  if (!sub) throw subscriptionNotFound(body.subscription_id);
  if (sub.status !== "active")
    throw ApiError.conflict(
      "meal_subscription_not_active",
      `Meal subscription ${sub.id} is ${sub.status}: add-ons go to an active subscription's deliveries.`,
      { subscription_status: sub.status },
    );
  if (!restaurant) throw subscriptionNotFound(sub.id);
  const errors: FieldErrors = {};
  const first = firstChangeableDate(restaurant);
  const lines: ServiceLineInput[] = [];
  body.add_ons.forEach((a, i) => {
    const suborder = rows.find((s) => s.id === a.suborder_id);
    const product = products.find((p) => p.id === a.product_id && p.restaurantId === restaurant.id && p.inStock);
    if (!suborder || suborder.isFrozen || !OPEN_SUBORDER_STATUSES.includes(suborder.status))
      errors[`add_ons.${i}.suborder_id`] = [`Not a suborder of subscription ${sub.id} still to be delivered.`];
    if (!product)
      errors[`add_ons.${i}.product_id`] = [`Not a product of restaurant ${restaurant.id}'s menu that is in stock.`];
    if (!suborder || !product) return;
    lines.push({
      key: i,
      nameEn: `${product.nameEn} (${suborder.date})`,
      nameAr: `${product.nameAr} (${suborder.date})`,
      sku: `meal-product-${product.id}`,
      qty: a.qty,
      unitPriceMinor: productPriceMinor(product),
    });
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors, "Some add-ons cannot be ordered; see `errors`.");
  const late = rows.filter((s) => s.date < first).sort((a, b) => a.date.localeCompare(b.date))[0];
  if (late)
    throw ApiError.conflict(
      "suborder_past_cutoff",
      `Suborder ${late.id} of ${late.date} is past the provider's cutoff: the first date still open to changes is ${first}.`,
      { suborder_id: late.id, first_valid_date: first },
    );
  const dates = [...new Set(rows.map((s) => s.date))].sort();
  const priced = priceMealWith(facts, {
    customerId,
    lines,
    deliveryFeeMinor: 0,
    voucher: body.voucher,
    isRedeeming: body.is_redeeming,
  });
  return { sub, lines, dates, ...priced };
}

/** Redeemed Add-Ons Cart: the add-on order's price breakdown. */
export async function addOnCartPrice(ctx: ServiceContext, customerId: number, body: AddOnCart) {
  const { sub, dates, quote, balance } = await pricedAddOns(ctx, customerId, body);
  return mealPriceView(quote, balance, {
    planVersionId: sub.planVersionId,
    subscriptionId: sub.id,
    startDate: dates[0] ?? null,
    endDate: dates[dates.length - 1] ?? null,
    deliveryDates: dates,
    isPickup: sub.isPickup,
    originalPriceMinor: 0,
    discountPercentage: 0,
  });
}

/** Add-On Order: a pending order (type `add_on`) whose payment adds the products to the suborders. */
export async function placeAddOnOrder(
  ctx: ServiceContext,
  buyer: Buyer,
  body: AddOnOrder,
  links: LinkContext,
): Promise<CheckoutResult> {
  const { sub, dates, quote, inputs } = await pricedAddOns(ctx, buyer.customerId, body);
  requireVoucher(quote, body.voucher);
  return placeMeal(
    ctx,
    buyer,
    quote,
    {
      type: "add_on",
      restaurantId: sub.restaurantId,
      planId: sub.planId,
      planVersionId: sub.planVersionId,
      subscriptionId: sub.id,
      startDate: dates[0] ?? null,
      endDate: dates[dates.length - 1] ?? null,
      isPickup: sub.isPickup,
      pickupBranchId: sub.pickupBranchId,
      deliveryWindowId: sub.deliveryWindowId,
      primaryLocationId: sub.primaryLocationId,
      secondaryLocationId: sub.secondaryLocationId,
      location: sub.location,
      selections: body.add_ons,
    },
    body,
    links,
    inputs,
  );
}
