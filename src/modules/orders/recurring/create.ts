import { sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { rowEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import type { OrderStep } from "../checkout/order-step";
import { type CART_PROVIDERS, orders, type PAYMENT_PROVIDERS } from "../tables";
import { addDuration, type DurationUnit, todayIn } from "./dates";
import { recurringPurchases } from "./tables";

export type NewRecurringPurchase = {
  customerId: number;
  cartId: number;
  duration: number;
  durationUnit: DurationUnit;
  /** The provider the customer chose at checkout: what each cycle is charged with. */
  provider: (typeof PAYMENT_PROVIDERS)[number];
  cartProvider?: (typeof CART_PROVIDERS)[number];
};

/**
 * The recurring purchase a recurring cart's checkout creates, as a step of its order's batch: the
 * purchase (pending until its first order is paid: payments/paid.ts activates it), its first order
 * pointed at it, and `recurring_purchase.created`. The first order is today's, on the store's
 * calendar; the next is one duration later. It stands before the batch's "paid" statements, which
 * read the link.
 */
export function recurringPurchaseStep(ctx: ServiceContext, p: NewRecurringPurchase): OrderStep {
  return (plan, { order, settings }) => {
    const at = nowIso();
    const today = todayIn(settings.timezone);
    const purchase = plan.insert(
      "recurring_purchase",
      ctx.db.insert(recurringPurchases).values({
        appId: ctx.appId,
        customerId: p.customerId,
        cartId: p.cartId,
        status: "pending",
        cartProvider: p.cartProvider ?? "app",
        duration: p.duration,
        durationUnit: p.durationUnit,
        paymentProvider: p.provider,
        nextOrderDate: addDuration(today, p.duration, p.durationUnit),
        lastOrderDate: today,
        createdAt: at,
        modifiedAt: at,
      }),
    );
    plan
      .add(ctx.db.update(orders).set({ recurringPurchaseId: purchase.id }).where(sql`${orders.id} = ${order.id}`))
      .event(
        rowEvent(
          "recurring_purchase.created",
          recurringPurchases,
          sql`id = ${purchase.id}`,
          sql`json_object('id', id, 'customer_id', customer_id)`,
        ),
      );
  };
}
