import { expect } from "vitest";
import { setClock } from "../../src/core/clock";
import { queueDueSubscriptions, renewSubscriptions } from "../../src/modules/orders";
import { db, serviceCtx } from "../helpers/factories";
import { json } from "../helpers/request";
import {
  cartOf,
  checkedOut,
  depositCashback,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  stocked,
} from "../orders/helpers";

export const M_SUBS = "/order/v1/merchant/subscriptions/";
export const MY_SUBS = "/order/v1/subscriptions/";

/** A plan-enabled item: `plan` is its plan_config. */
export const planItem = (appId: number, priceMinor: number, plan: Record<string, unknown> = {}) =>
  stocked(appId, priceMinor, 1_000_000, { isPlanEnabled: true, planConfig: plan });

/** A subscription bought the way customers buy one: a cart of a plan item checked out (wallet by default). */
export async function subscribe(
  store: Store,
  s: Shopper,
  opts: {
    priceMinor?: number;
    plan?: Record<string, unknown>;
    provider?: string;
    cashback?: number;
    qty?: number;
  } = {},
) {
  const provider = opts.provider ?? "wallet";
  if (provider === "wallet") await depositCashback(store, s.id, opts.cashback ?? 1_000);
  const item = await planItem(
    store.appId,
    opts.priceMinor ?? 10_000,
    opts.plan ?? { duration: 1, duration_unit: "month" },
  );
  const cart = await cartOf(s, { items: [{ item_id: item.id, qty: opts.qty ?? 1 }] });
  const result = await checkedOut(s, cart.id, { payment_provider: provider });
  const sub = await rowOf("SELECT * FROM subscriptions WHERE order_id = ?", result.order.id);
  expect(sub).toBeTruthy();
  return { item, order: result.order, result, sub, id: sub.id as number };
}

export const subRow = (id: number) => rowOf("SELECT * FROM subscriptions WHERE id = ?", id);
export const renewalsOf = (id: number) =>
  rowsOf("SELECT * FROM subscription_renewals WHERE subscription_id = ? ORDER BY period_start", id);

/** Sets the one clock to noon UTC of `date` (the store's day in Riyadh is the same). */
export const at = (date: string) => setClock(`${date}T12:00:00.000Z`);

/** A queue that keeps what is sent, for the scheduled scan. */
export function fakeQueue() {
  const sent: { app_id: number; payload: { ids: number[] } }[] = [];
  const queue = {
    send: async (body: never) => void sent.push(body),
    sendBatch: async (batch: { body: never }[]) => void sent.push(...batch.map((b) => b.body)),
  } as unknown as Queue;
  return { queue, sent };
}

/** The cron as production runs it: the scan, then each queued job; returns the runs' totals. */
/**
 * `queues` stand in for the runtime's (the year simulation sends more events than the local
 * Queues broker holds); `errors` counts the subscriptions whose renewal threw, `failures` says why.
 */
export async function runCron(
  appId?: number,
  opts: Parameters<typeof renewSubscriptions>[2] & { queues?: Parameters<typeof serviceCtx>[1] } = {},
) {
  const { queue, sent } = fakeQueue();
  await queueDueSubscriptions(db(), queue);
  const total = { renewed: 0, failed: 0, expired: 0, cancelled: 0, resumed: 0, skipped: 0, errors: 0 };
  const failures: string[] = [];
  for (const m of sent) {
    if (appId !== undefined && m.app_id !== appId) continue;
    const ctx = serviceCtx(m.app_id, opts.queues);
    try {
      const run = await renewSubscriptions(ctx, m.payload.ids, { faults: opts.faults });
      for (const [k, v] of Object.entries(run)) total[k as keyof typeof total] += v;
    } catch (error) {
      const errors = (error as AggregateError).errors ?? [error];
      total.errors += errors.length;
      failures.push(...errors.map(String));
    }
    await ctx.settle();
  }
  return { ...total, failures };
}

export async function okJson(res: Response, status = 200) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}
