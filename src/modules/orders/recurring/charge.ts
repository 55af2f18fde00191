import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { getLocation } from "../../customers";
import { findCart } from "../carts/details";
import { priceCart } from "../carts/pricing";
import type { CheckoutProvider } from "../checkout/config";
import type { OrderStep } from "../checkout/order-step";
import { placeOrder } from "../checkout/place";
import { subscriptionsStep } from "../subscriptions/plan";
import { addDuration, nextCycleAfter, todayIn } from "./dates";
import { recurringCharges, recurringPurchases } from "./tables";

type PurchaseRow = typeof recurringPurchases.$inferSelect;

/** Failed cycles in a row after which a purchase stops (design-reference 5.3: "after N failures"). */
export const MAX_FAILED_CYCLES = 3;
/** A claim older than this whose charge never finished (the run died) is taken over by the next run. */
const STALE_CLAIM_MS = 15 * 60_000;

/** Why a cycle cannot be charged, known before any order is placed. */
class CycleRefused extends Error {}

const needsCustomer = (provider: string | null) =>
  provider === "card"
    ? "Card payments need the customer at every cycle; charging a saved card is not available yet."
    : `A ${provider ?? "missing"} payment cannot be charged without the customer; only wallet cycles are charged.`;

export type ChargeRun = { charged: number; failed: number; skipped: number };

/**
 * The scheduled charge of recurring purchases: active purchases whose next order date has come on the
 * store's calendar, at most `limit` a run. Each cycle is claimed FIRST, by inserting its
 * `recurring_charges` row (unique per purchase and cycle date), so that a cycle is charged at most
 * once however many runs overlap; the claimed cycle then re-prices the saved cart and places its order
 * paid from the customer's cashback, in one guarded batch that also settles the claim and moves the
 * purchase on. A refused cycle (balance, stock, a card) is recorded as failed and counted; after
 * MAX_FAILED_CYCLES in a row the purchase stops. One purchase's unexpected error does not stop the
 * others: the run goes on and throws them together at the end, for the caller's log.
 */
export async function chargeDueRecurringPurchases(
  contextOf: (appId: number) => ServiceContext,
  db: ServiceContext["db"],
  now: Date = new Date(),
  limit = 25,
): Promise<ChargeRun> {
  // No store's calendar is more than a day ahead of UTC; each candidate is checked on its store's own.
  const horizon = addDuration(now.toISOString().slice(0, 10), 1, "day");
  const due = await db
    .select()
    .from(recurringPurchases)
    .where(
      and(
        eq(recurringPurchases.status, "active"),
        lte(recurringPurchases.nextOrderDate, horizon),
        notDeleted(recurringPurchases),
      ),
    )
    .orderBy(asc(recurringPurchases.nextOrderDate), asc(recurringPurchases.id))
    .limit(limit);
  const run: ChargeRun = { charged: 0, failed: 0, skipped: 0 };
  const todays = new Map<number, string>();
  const errors: unknown[] = [];
  for (const p of due) {
    const ctx = contextOf(p.appId);
    try {
      let today = todays.get(p.appId);
      if (today === undefined) {
        today = todayIn((await readStoreSettings(ctx.db, p.appId)).timezone, now);
        todays.set(p.appId, today);
      }
      run[p.nextOrderDate! <= today ? await chargeCycle(ctx, p, today) : "skipped"] += 1;
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length) throw new AggregateError(errors, `${errors.length} recurring purchase(s) failed to charge`);
  return run;
}

/** One cycle of one purchase: claim, then order and settle, or record the failure. */
async function chargeCycle(ctx: ServiceContext, p: PurchaseRow, today: string): Promise<keyof ChargeRun> {
  const cycle = p.nextOrderDate!;
  const claimedAt = nowIso();
  const claimed = await ctx.db
    .insert(recurringCharges)
    .values({
      appId: ctx.appId,
      recurringPurchaseId: p.id,
      cycleDate: cycle,
      status: "pending",
      amountMinor: 0,
      createdAt: claimedAt,
    })
    .onConflictDoUpdate({
      target: [recurringCharges.recurringPurchaseId, recurringCharges.cycleDate],
      set: { createdAt: claimedAt },
      setWhere: sql`${recurringCharges.status} = 'pending'
        AND ${recurringCharges.createdAt} < ${new Date(Date.now() - STALE_CLAIM_MS).toISOString()}`,
    })
    .returning({ id: recurringCharges.id });
  // Another run holds (or settled) this cycle.
  if (!claimed.length) return "skipped";
  const claim = { id: claimed[0]!.id, at: claimedAt };
  const next = nextCycleAfter(cycle, today, p.duration, p.durationUnit);
  let amountMinor = 0;
  try {
    const { cart, lines } = await findCart(ctx, p.cartId);
    const { quote: q, problems } = await priceCart(ctx, cart, lines);
    amountMinor = q.totalMinor;
    const problem = lines.map((l) => problems.get(l.id)).find(Boolean);
    if (problem) throw new CycleRefused(problem);
    if (!q.lines.length) throw new CycleRefused("The saved cart has no lines.");
    if (p.paymentProvider !== "wallet" && q.totalMinor > 0) throw new CycleRefused(needsCustomer(p.paymentProvider));
    const location = cart.locationId ? await getLocation(ctx, p.customerId, cart.locationId).catch(() => null) : null;
    const provider: CheckoutProvider =
      p.paymentProvider === null || p.paymentProvider === "free" ? "wallet" : p.paymentProvider;
    await placeOrder(
      ctx,
      q,
      {
        kind: "purchase",
        customerId: p.customerId,
        cartId: null,
        recurringPurchaseId: p.id,
        provider,
        paymentMethod: null,
        cartProvider: p.cartProvider,
        notes: cart.notes,
        receiver: cart.receiver ?? null,
        buyer: cart.buyer ?? null,
        location: location as Record<string, unknown> | null,
        customFields: cart.customFields ?? null,
      },
      [subscriptionsStep(ctx, q.lines, p.customerId), chargedStep(ctx, p, claim, { today, next, amountMinor })],
    );
    return "charged";
  } catch (error) {
    if (!(error instanceof CycleRefused) && !(error instanceof ApiError)) throw error;
    let message = error instanceof ApiError ? error.detail : error.message;
    // Stopped meanwhile: the order's guard refused it, whatever reason the refusal was read back as.
    const now = await ctx.db
      .select({ status: recurringPurchases.status })
      .from(recurringPurchases)
      .where(eq(recurringPurchases.id, p.id))
      .get();
    if (now?.status !== "active") message = "The recurring purchase was stopped while its cycle was charged.";
    await recordFailure(ctx, p, claim, { today, next, amountMinor, message });
    return "failed";
  }
}

/** The claim is still this run's: not settled by another, nor taken over after going stale. */
const stillClaimed = (claim: { id: number; at: string }) =>
  sql`EXISTS (SELECT 1 FROM recurring_charges WHERE id = ${claim.id} AND status = 'pending' AND created_at = ${claim.at})`;

type Cycle = { today: string; next: string; amountMinor: number };

/** What a paid cycle adds to its order's batch: the claim settled, the purchase moved on, the event. */
function chargedStep(ctx: ServiceContext, p: PurchaseRow, claim: { id: number; at: string }, c: Cycle): OrderStep {
  return (plan, { order }) =>
    plan
      // Its failure answers as the order's other refusals do: the caller reads the purchase again.
      .guard(
        sql`${stillClaimed(claim)} AND EXISTS (SELECT 1 FROM recurring_purchases WHERE id = ${p.id} AND status = 'active')`,
        "recurring charge claim",
      )
      .add(
        ctx.db
          .update(recurringCharges)
          .set({ status: "success", orderId: order.id, amountMinor: c.amountMinor, errorMessage: null })
          .where(eq(recurringCharges.id, claim.id)),
        ctx.db
          .update(recurringPurchases)
          .set({
            lastOrderDate: c.today,
            lastChargeDate: c.today,
            nextOrderDate: c.next,
            chargeAttempts: 0,
            modifiedAt: nowIso(),
          })
          .where(eq(recurringPurchases.id, p.id)),
      )
      .event(
        rowEvent(
          "recurring_purchase.charged",
          recurringPurchases,
          sql`id = ${p.id}`,
          sql`json_object('id', id, 'customer_id', customer_id, 'order_id', ${order.id})`,
        ),
      );
}

/**
 * A refused cycle: the claim marked failed with why, the purchase's failures counted and its next
 * cycle set, and, at the MAX_FAILED_CYCLES-th failure in a row, the purchase stopped. All in SQL over
 * the row as it is, and only while the claim is this run's.
 */
async function recordFailure(
  ctx: ServiceContext,
  p: PurchaseRow,
  claim: { id: number; at: string },
  c: Cycle & { message: string },
): Promise<void> {
  const at = nowIso();
  const stops = sql`${recurringPurchases.chargeAttempts} + 1 >= ${MAX_FAILED_CYCLES}`;
  const reason = `${MAX_FAILED_CYCLES} cycles in a row failed to charge; the last: ${c.message}`;
  await emit(
    ctx.db,
    ctx.events,
    [
      abortUnless(ctx.db, stillClaimed(claim), "recurring charge claim"),
      ctx.db
        .update(recurringCharges)
        .set({ status: "failed", amountMinor: c.amountMinor, errorMessage: c.message })
        .where(eq(recurringCharges.id, claim.id)),
      ctx.db
        .update(recurringPurchases)
        .set({
          lastChargeDate: c.today,
          nextOrderDate: c.next,
          chargeAttempts: sql`${recurringPurchases.chargeAttempts} + 1`,
          status: sql`CASE WHEN ${stops} THEN 'inactive' ELSE ${recurringPurchases.status} END`,
          inactiveReason: sql`CASE WHEN ${stops} THEN ${reason} ELSE ${recurringPurchases.inactiveReason} END`,
          modifiedAt: at,
        })
        .where(and(eq(recurringPurchases.id, p.id), eq(recurringPurchases.status, "active"))),
    ],
    unionEvents([
      rowEvent(
        "recurring_purchase.charge_failed",
        recurringPurchases,
        sql`id = ${p.id}`,
        sql`json_object('id', id, 'customer_id', customer_id, 'error_message', ${c.message})`,
      ),
      rowEvent(
        "recurring_purchase.updated",
        recurringPurchases,
        sql`id = ${p.id} AND status = 'inactive' AND modified_at = ${at} AND inactive_reason = ${reason}`,
        sql`json_object('id', id, 'customer_id', customer_id, 'status', status)`,
      ),
    ]),
  ).catch((error: unknown) => {
    // Another run took the claim over meanwhile: the cycle is its to settle.
    if (!isGuardAbort(error)) throw error;
  });
}
