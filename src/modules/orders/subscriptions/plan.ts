import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { rowEvent } from "../../../core/events/outbox";
import { todayIn } from "../../../core/time";
import type { OrderStep } from "../checkout/order-step";
import type { QuotedLine } from "../pricing/quote";
import { DURATION_UNITS } from "../tables";
import { subscriptions } from "./tables";

/**
 * An item's `plan_config`, as subscriptions read it (every key optional; a value of the wrong
 * shape takes its default): a period of `duration` `duration_unit`s, an optional free trial of
 * `trial_days` first, `total_billing_cycles` paid periods (null: until cancelled), and a usage
 * counter of `usage_limit` `usage_unit`s a period.
 */
export const PlanConfigSchema = z.object({
  duration: z.number().int().min(1).max(365).catch(1),
  duration_unit: z.enum(DURATION_UNITS).catch("month"),
  trial_days: z.number().int().min(0).max(365).catch(0),
  total_billing_cycles: z.number().int().min(1).max(1000).nullable().catch(null),
  usage_limit: z.number().int().min(0).max(1_000_000_000).nullable().catch(null),
  usage_unit: z.string().min(1).max(50).catch("credit"),
  auto_increment_usage: z.boolean().catch(false),
  auto_renew: z.boolean().catch(true),
});
export type PlanConfig = z.infer<typeof PlanConfigSchema>;

export const planOf = (config: Record<string, unknown> | null | undefined): PlanConfig =>
  PlanConfigSchema.parse(config ?? {});

/** `date` (SQL, YYYY-MM-DD) moved on by `n` units, as `addDuration` does it: a month never spills over. */
export function addDurationSql(date: SQL, n: SQL, unit: SQL): SQL {
  return sql`(CASE ${unit} WHEN 'day' THEN date(${date}, '+' || (${n}) || ' days')
    WHEN 'week' THEN date(${date}, '+' || (7 * (${n})) || ' days')
    ELSE min(date(${date}, 'start of month', '+' || (${n}) || ' months',
               '+' || (CAST(strftime('%d', ${date}) AS INTEGER) - 1) || ' days'),
             date(${date}, 'start of month', '+' || ((${n}) + 1) || ' months', '-1 day')) END)`;
}

export const subscriptionRef = sql`json_object('id', id, 'customer_id', customer_id, 'status', status)`;

/**
 * The subscriptions an order creates, as a step of its batch (after its order and invoice, before
 * "paid"): one per line of a plan-enabled item, `pending`, linked to the order and its first invoice,
 * with `subscription.created`. Payment activates them (`subscriptionPaidStatements`).
 */
export function subscriptionsStep(ctx: ServiceContext, lines: QuotedLine[], customerId: number): OrderStep {
  return (plan, { order, invoice, provider, currency, at }) => {
    const plans = lines.filter((l) => l.item.isPlanEnabled);
    if (!plans.length) return;
    for (const l of plans) {
      const config = planOf(l.item.planConfig);
      plan.add(
        ctx.db.insert(subscriptions).values({
          appId: ctx.appId,
          customerId,
          itemId: l.itemId,
          orderId: order.id,
          firstInvoiceId: invoice.id,
          nameEn: l.item.nameEn,
          nameAr: l.item.nameAr,
          status: "pending",
          quantity: l.qty,
          unitPriceMinor: l.unitPriceMinor,
          currency,
          paymentProvider: provider,
          duration: config.duration,
          durationUnit: config.duration_unit,
          trialDays: config.trial_days,
          totalBillingCycles: config.total_billing_cycles,
          remainingBillingCycles: config.total_billing_cycles,
          autoRenew: config.auto_renew,
          usageLimit: config.usage_limit,
          usageUnit: config.usage_unit,
          autoIncrementUsage: config.auto_increment_usage,
          createdAt: at,
          modifiedAt: at,
        }),
      );
    }
    plan.event(
      rowEvent(
        "subscription.created",
        subscriptions,
        sql`order_id = ${order.id} AND created_at = ${at}`,
        sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'order_id', order_id,
          'item_id', item_id)`,
      ),
    );
  };
}

/**
 * What paying an order does to its subscriptions, for the "paid" batch (payments/paid.ts): each
 * pending one starts today on the store's calendar, `trialing` for `trial_days` when its plan has a
 * trial (the trial does not count as a billing cycle), else `active` for its first period, which the
 * order paid. The usage counter starts the period at 0 (1 with `auto_increment_usage`).
 */
export function subscriptionPaidStatements(
  ctx: ServiceContext,
  p: { orderId: SQL; at: string; timeZone: string },
): { statements: BatchItem<"sqlite">[]; events: SQL[] } {
  const today = todayIn(p.timeZone, new Date(p.at));
  const trial = sql`${subscriptions.trialDays} > 0`;
  const trialEnd = sql`date(${today}, '+' || ${subscriptions.trialDays} || ' days')`;
  const end = sql`CASE WHEN ${trial} THEN ${trialEnd} ELSE ${addDurationSql(
    sql`${today}`,
    sql`${subscriptions.duration}`,
    sql`${subscriptions.durationUnit}`,
  )} END`;
  return {
    statements: [
      ctx.db
        .update(subscriptions)
        .set({
          status: sql`CASE WHEN ${trial} THEN 'trialing' ELSE 'active' END`,
          inTrial: sql`${trial}`,
          trialStartDate: sql`CASE WHEN ${trial} THEN ${today} END`,
          trialEndDate: sql`CASE WHEN ${trial} THEN ${trialEnd} END`,
          startDate: today,
          currentPeriodStartDate: today,
          currentPeriodEndDate: end,
          nextBillingDate: end,
          lastBillingDate: today,
          remainingBillingCycles: sql`CASE WHEN ${subscriptions.totalBillingCycles} IS NULL THEN NULL
            WHEN ${trial} THEN ${subscriptions.totalBillingCycles} ELSE ${subscriptions.totalBillingCycles} - 1 END`,
          usageCounter: sql`CASE WHEN ${subscriptions.autoIncrementUsage} THEN 1 ELSE 0 END`,
          activatedAt: p.at,
          modifiedAt: p.at,
        })
        .where(sql`${subscriptions.orderId} = ${p.orderId} AND ${subscriptions.status} = 'pending'`),
    ],
    events: [
      rowEvent(
        "subscription.activated",
        subscriptions,
        sql`order_id = ${p.orderId} AND activated_at = ${p.at} AND status IN ('active', 'trialing')`,
        subscriptionRef,
      ),
    ],
  };
}
