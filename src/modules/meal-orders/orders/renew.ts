import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import type { PlanForOrder } from "../../meals";
import { planVersionForOrder } from "../../meals";
import { type CheckoutResult, type LinkContext, loadOrders } from "../../orders";
import { type Buyer, type DeliverySelection, firstStart, planLine } from "../checkout/cart";
import { placeMeal, requireVoucher } from "../checkout/place";
import { priceMealWith, readMealPricing } from "../checkout/pricing";
import { AddOnOrderSchema } from "../checkout/schemas";
import { initialCredits } from "../rules";
import { deliveryDates, planDayFor } from "../schedule";
import { customerSubscriptionRead, subscriptionNotFound } from "../subscriptions/service";
import { type MealChoice, mealOrders, mealSubscriptions, suborders } from "../tables";

/**
 * Renew Subscription (MM1): a new pending order (type `renewal`) for the next term of the same plan
 * version, starting on the first date the version allows after the subscription's `end_date`, with
 * the same window or pickup branch and location, and the same meals for each day of the menu cycle.
 * When it is paid, a NEW meal subscription starts (its `renewed_from_id` names this one), so each
 * term keeps its own order, invoice, suborders and pause credits.
 */

export const RenewMealSubscriptionSchema = AddOnOrderSchema.pick({
  payment_provider: true,
  payment_method: true,
  voucher: true,
  is_redeeming: true,
  success_url: true,
  error_url: true,
  lang: true,
  reference: true,
})
  .strict()
  .openapi("RenewMealSubscription");

export type RenewMealSubscription = z.output<typeof RenewMealSubscriptionSchema>;

const RENEWABLE = new Set(["active", "paused", "completed"]);

/** The meals of the next term: each day of the cycle as it was last chosen, still-offered options only, else the defaults. */
function carriedMeals(p: PlanForOrder, dates: string[], before: Map<number, MealChoice[]>): DeliverySelection[] {
  return dates.map((date, n) => {
    const day = planDayFor(p, n);
    const chosen = day === null ? [] : (before.get(day) ?? []);
    const meals: MealChoice[] = [];
    for (const c of p.categories.filter((x) => x.planDayId === day)) {
      const offered = new Set(p.options.filter((o) => o.planCategoryId === c.id).map((o) => o.id));
      const kept = (chosen.find((m) => m.plan_category_id === c.id)?.option_ids ?? []).filter((id) => offered.has(id));
      const fallback = p.options.filter((o) => o.planCategoryId === c.id && o.isRecommended).map((o) => o.id);
      const ids = kept.length ? kept : fallback.length ? fallback.slice(0, 1) : [...offered].slice(0, 1);
      if (ids.length) meals.push({ plan_category_id: c.id, option_ids: ids });
    }
    return { date, plan_day_id: day, meals };
  });
}

export async function renewMealSubscription(
  ctx: ServiceContext,
  customerId: number,
  subscriptionId: number,
  body: RenewMealSubscription,
  links: LinkContext,
): Promise<CheckoutResult> {
  // One round trip for what the path's id and the customer key (the subscription, its renewals,
  // its suborders' meals, the prices' inputs, and its plan version, read by the meals side through
  // the subscription's row); the renewal orders only when there are some (then a second); the batch.
  const subscription = customerSubscriptionRead(ctx, subscriptionId, customerId);
  const [sub, renewals, previous, pricing, p] = await Promise.all([
    subscription.row(),
    ctx.db
      .select({ orderId: mealOrders.orderId })
      .from(mealOrders)
      .where(
        and(
          eq(mealOrders.appId, ctx.appId),
          eq(mealOrders.type, "renewal"),
          eq(mealOrders.subscriptionId, subscriptionId),
        ),
      ),
    ctx.db
      .select({ planDayId: suborders.planDayId, meals: suborders.meals })
      .from(suborders)
      .where(eq(suborders.subscriptionId, subscriptionId))
      .orderBy(suborders.date),
    readMealPricing(ctx, customerId, body.voucher),
    planVersionForOrder(ctx, subscription.column(mealSubscriptions.planVersionId)),
  ]);
  if (!sub) throw subscriptionNotFound(subscriptionId);
  if (!RENEWABLE.has(sub.status))
    throw ApiError.conflict(
      "meal_subscription_not_active",
      `Meal subscription ${sub.id} is ${sub.status}: only an active, paused or completed subscription is renewed.`,
      { subscription_status: sub.status },
    );
  const orders = renewals.length
    ? await loadOrders(
        ctx,
        renewals.map((r) => r.orderId),
        links,
      )
    : undefined;
  const open = [...(orders?.values() ?? [])].find((o) => o.status === "pending" || o.status === "completed");
  if (open)
    throw ApiError.conflict(
      "subscription_already_renewed",
      `Meal subscription ${sub.id} already has renewal order ${open.id} (${open.status}).`,
      { order_id: open.id },
    );
  if (!p) throw ApiError.conflict("plan_version_closed", `Plan version ${sub.planVersionId} is no longer on sale.`);
  const start = firstStart(p, sub.endDate);
  const dates = deliveryDates(p, start);
  const byDay = new Map<number, MealChoice[]>();
  for (const s of previous) if (s.planDayId !== null && !byDay.has(s.planDayId)) byDay.set(s.planDayId, s.meals);
  const { quote, inputs } = priceMealWith(pricing, {
    customerId,
    lines: [planLine(p)],
    deliveryFeeMinor: sub.isPickup ? 0 : p.version.deliveryPriceMinor,
    voucher: body.voucher,
    isRedeeming: body.is_redeeming,
  });
  requireVoucher(quote, body.voucher);
  // A channel's subscription is renewed as the channel's order.
  const channel =
    sub.channelAppId !== null && sub.channelCustomerId !== null
      ? { appId: sub.channelAppId, customerId: sub.channelCustomerId }
      : null;
  const buyer: Buyer = { customerId, locations: { ctx, customerId }, channel, cityId: null };
  return placeMeal(
    ctx,
    buyer,
    quote,
    {
      type: "renewal",
      restaurantId: p.restaurant.id,
      planId: p.plan.id,
      planVersionId: p.version.id,
      subscriptionId: sub.id,
      startDate: dates[0]!,
      endDate: dates[dates.length - 1]!,
      isPickup: sub.isPickup,
      pickupBranchId: sub.pickupBranchId,
      deliveryWindowId: sub.deliveryWindowId,
      primaryLocationId: sub.primaryLocationId,
      secondaryLocationId: sub.secondaryLocationId,
      location: sub.location,
      notes: sub.notes,
      ...initialCredits(p.version),
      selections: carriedMeals(p, dates, byDay),
    },
    body,
    links,
    inputs,
  );
}
