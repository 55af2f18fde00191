import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import type { PricedItem } from "../../items";
import type { OrderStep } from "../checkout/order-step";
import type { Quote } from "../pricing/quote";
import { vatSplit } from "../pricing/vat";
import { addDuration } from "../recurring/dates";
import { changedRowEvent, newChangeToken, type SubscriptionSet } from "./change";
import { renewalAmountMinor, type SubscriptionRow } from "./service";
import { subscriptionRenewals, subscriptions, subscriptionUpdates } from "./tables";
import { changesSet, updateEventSql } from "./updates";

// What a renewal orders: the period claimed, what it bills, its order's quote and the step that
// settles the period in the order's batch (renewal.ts runs the attempts).

type SubscriptionUpdateRow = typeof subscriptionUpdates.$inferSelect;

export type Claim = { id: number; at: string };

export const stillClaimed = (claim: Claim) =>
  sql`EXISTS (SELECT 1 FROM subscription_renewals WHERE id = ${claim.id} AND status = 'pending'
    AND claimed_at = ${claim.at})`;

export type Renewal = {
  /** The subscription's pending update that takes effect with this period, if any. */
  applies: SubscriptionUpdateRow | undefined;
  item: PricedItem | undefined;
  /** The subscription as this period bills it: the update applied. */
  eff: SubscriptionRow;
  amount: number;
};

/** What the period bills: the subscription with its pending update applied, when the update takes effect by then. */
export function renewalOf(
  r: SubscriptionRow,
  period: string,
  update: SubscriptionUpdateRow | undefined,
  items: Map<number, PricedItem>,
): Renewal {
  const applies = update && (update.effectiveAt ?? "") <= period ? update : undefined;
  const item = items.get(applies?.changes.item_id ?? r.itemId);
  const eff: SubscriptionRow = {
    ...r,
    ...(applies && (changesSet(applies.changes, item) as Partial<SubscriptionRow>)),
  };
  return { applies, item, eff, amount: renewalAmountMinor(eff) };
}

/** The renewal order's quote: one line of the subscription's item at the period's amount, VAT at the store's rate. */
export function renewalQuote(bp: number, r: SubscriptionRow, item: PricedItem | undefined, amount: number): Quote {
  const { excludingTaxMinor, taxMinor } = vatSplit(amount, bp);
  const priced: PricedItem = item ?? {
    id: r.itemId,
    parentId: null,
    isLive: false,
    type: "product",
    isPlanOnly: false,
    nameEn: r.nameEn,
    nameAr: r.nameAr,
    sku: "",
    unitPriceMinor: r.unitPriceMinor,
    available: 0,
    servedFromDate: "",
    servedToDate: "",
    categoryIds: [],
    modifierValueIds: new Set(),
    bundleCategories: [],
  };
  return {
    currency: r.currency,
    vatBp: bp,
    lines: [
      {
        key: 0,
        itemId: r.itemId,
        qty: r.quantity,
        modifierValueIds: [],
        bundleSelections: [],
        item: { ...priced, nameEn: r.nameEn, nameAr: r.nameAr },
        unitPriceMinor: r.unitPriceMinor,
        amountMinor: amount,
        voucherDiscountMinor: 0,
        totalMinor: amount,
        taxPercentageBp: bp,
        taxMinor,
        totalExcludingTaxMinor: excludingTaxMinor,
      },
    ],
    subTotalMinor: amount,
    shippingMinor: 0,
    setupMinor: 0,
    subTotalDiscountsMinor: 0,
    shippingDiscountsMinor: 0,
    totalMinor: amount,
    walletRedeemMinor: 0,
    totalWithRedeemMinor: amount,
    taxMinor,
    totalExcludingTaxMinor: excludingTaxMinor,
    voucher: null,
  };
}

/**
 * What a paid period adds to its order's batch, while the claim is this run's and the subscription
 * still at this period: the renewal paid, the subscription on its next period (a pending update
 * applied), and `subscription.renewed`.
 */
export function renewedStep(
  ctx: ServiceContext,
  today: string,
  r: SubscriptionRow,
  period: string,
  claim: Claim,
  renewal: Renewal,
): OrderStep {
  const { applies, item, eff, amount } = renewal;
  // The claim's time: the period is settled as of when it was claimed.
  const at = claim.at;
  const token = newChangeToken();
  const end = addDuration(period, eff.duration, eff.durationUnit);
  const set: SubscriptionSet = {
    ...(applies && changesSet(applies.changes, item)),
    status: "active",
    inTrial: false,
    currentPeriodStartDate: period,
    currentPeriodEndDate: end,
    nextBillingDate: end,
    lastBillingDate: today,
    remainingBillingCycles: r.remainingBillingCycles === null ? null : sql`${subscriptions.remainingBillingCycles} - 1`,
    usageCounter: eff.autoIncrementUsage ? 1 : 0,
    prorationMinor: Math.min(0, eff.unitPriceMinor * eff.quantity + eff.prorationMinor),
    retryDate: null,
    failedAttempts: 0,
    suspendedAt: null,
    modifiedAt: at,
    changeToken: token,
  };
  return (plan, { order, invoice }) => {
    plan
      .guard(
        sql`${stillClaimed(claim)} AND EXISTS (SELECT 1 FROM subscriptions WHERE id = ${r.id}
          AND status = ${r.status} AND next_billing_date = ${period})`,
        "subscription renewal claim",
      )
      .add(
        ctx.db
          .update(subscriptionRenewals)
          .set({
            status: "paid",
            orderId: order.id,
            invoiceId: invoice.id,
            amountMinor: amount,
            errorMessage: null,
            nextRetryDate: null,
          })
          .where(eq(subscriptionRenewals.id, claim.id)),
        ctx.db.update(subscriptions).set(set).where(eq(subscriptions.id, r.id)),
      )
      .event(
        changedRowEvent(
          "subscription.renewed",
          r.id,
          token,
          sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'order_id', ${order.id},
            'period_start', ${period}, 'previous_status', ${r.status})`,
        ),
      );
    if (applies)
      plan
        .add(
          ctx.db
            .update(subscriptionUpdates)
            .set({ status: "applied", appliedAt: at, modifiedAt: at })
            .where(and(eq(subscriptionUpdates.id, applies.id), eq(subscriptionUpdates.status, "pending"))),
        )
        .event(updateEventSql("subscription.update_applied", sql`id = ${applies.id} AND status = 'applied'`));
  };
}
