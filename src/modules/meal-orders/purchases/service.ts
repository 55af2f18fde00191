import { and, desc, eq, ne } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { findStorePlan } from "../../meals";
import { mealSubscriptions } from "../tables";
import type { HasPurchasedPlan } from "./schemas";

/**
 * Has Purchased Plan: a plan counts as bought once a subscription of it was paid (every status but
 * `pending`, the unpaid one). Only the customer's own subscriptions in this store are read.
 */
export async function hasPurchasedPlan(
  ctx: ServiceContext,
  customerId: number,
  planId: number,
): Promise<HasPurchasedPlan> {
  // A plan since taken off sale still answers: the customer may have bought it before.
  await findStorePlan(ctx, planId);
  const bought = await ctx.db
    .select({ id: mealSubscriptions.id, status: mealSubscriptions.status, createdAt: mealSubscriptions.createdAt })
    .from(mealSubscriptions)
    .where(
      and(
        live(mealSubscriptions, ctx.appId),
        eq(mealSubscriptions.customerId, customerId),
        eq(mealSubscriptions.planId, planId),
        ne(mealSubscriptions.status, "pending"),
      ),
    )
    .orderBy(desc(mealSubscriptions.createdAt), desc(mealSubscriptions.id));
  const current = bought.find((s) => s.status === "active" || s.status === "paused");
  return {
    plan_id: planId,
    has_purchased: bought.length > 0,
    purchases_count: bought.length,
    active_subscription_id: current?.id ?? null,
    last_purchased_at: bought[0]?.createdAt ?? null,
  };
}
