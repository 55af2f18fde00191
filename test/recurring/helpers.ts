import { expect } from "vitest";
import { addDuration, todayIn } from "../../src/modules/orders/recurring/dates";
import { serviceCtx } from "../helpers/factories";
import { cartOf, checkedOut, depositCashback, rowOf, type Shopper, type Store, stocked } from "../orders/helpers";

export const M_RECURRING = "/order/v1/merchant/recurring-purchases/";
export const MY_RECURRING = "/order/v1/recurring-purchases/";

/** Today on the stores' calendar (every test store keeps the default time zone). */
export const storeToday = () => todayIn("Asia/Riyadh");
export const daysFrom = (date: string, n: number) => addDuration(date, n, "day");

/**
 * A recurring purchase made the way customers make one: a recurring cart checked out (wallet: the
 * cashback deposited first through the merchant's API). Returns the checkout result and the purchase id.
 */
export async function recurringOf(
  store: Store,
  s: Shopper,
  opts: {
    provider?: string;
    priceMinor?: number;
    qty?: number;
    cashback?: number;
    duration?: number;
    unit?: "day" | "week" | "month";
  } = {},
) {
  const provider = opts.provider ?? "wallet";
  if (provider === "wallet" && (opts.cashback ?? 1) > 0) await depositCashback(store, s.id, opts.cashback ?? 100);
  const item = await stocked(store.appId, opts.priceMinor ?? 1_000, 100);
  const cart = await cartOf(s, {
    items: [{ item_id: item.id, qty: opts.qty ?? 2 }],
    is_recurring: true,
    duration: opts.duration ?? 1,
    duration_unit: opts.unit ?? "week",
  });
  const result = await checkedOut(s, cart.id, { payment_provider: provider });
  const purchaseId = result.order.recurring_purchase_id as number;
  expect(purchaseId).toEqual(expect.any(Number));
  return { item, cart, result, order: result.order, purchaseId };
}

export const purchaseRow = (id: number) => rowOf("SELECT * FROM recurring_purchases WHERE id = ?", id);

/** Contexts for the scheduled charge whose deferred work (publishing events) the test can await. */
export function contexts() {
  const made: ReturnType<typeof serviceCtx>[] = [];
  return {
    contextOf: (appId: number) => {
      const ctx = serviceCtx(appId);
      made.push(ctx);
      return ctx;
    },
    settle: () => Promise.all(made.map((c) => c.settle())),
  };
}
