import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { rowEvent } from "../../../core/events/outbox";
import { insertedId } from "../../../core/sql";
import { nowIso } from "../../../core/time";
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
  /** The order of the same batch (its first order), as SQL: `insertedId(orders)` at checkout. */
  orderId: SQL;
  /** The store's time zone: cycle dates are the store's calendar days. */
  timeZone: string;
};

/**
 * The recurring purchase a recurring cart's checkout creates, for the checkout's own batch: the
 * purchase (pending until its first order is paid: payments/paid.ts activates it), its first order
 * pointed at it, and `recurring_purchase.created`. The first order is today's; the next is one
 * duration later. Statements must stand before the batch's "paid" statements, which read the link.
 */
export function recurringPurchaseStatements(
  ctx: ServiceContext,
  p: NewRecurringPurchase,
): { statements: BatchItem<"sqlite">[]; event: SQL } {
  const at = nowIso();
  const today = todayIn(p.timeZone);
  const purchase = insertedId(recurringPurchases);
  return {
    statements: [
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
      ctx.db
        .update(orders)
        .set({ recurringPurchaseId: sql`${purchase}` })
        .where(sql`${orders.id} = ${p.orderId}`),
    ],
    event: rowEvent(
      "recurring_purchase.created",
      recurringPurchases,
      sql`id = ${purchase}`,
      sql`json_object('id', id, 'customer_id', customer_id)`,
    ),
  };
}
