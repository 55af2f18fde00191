import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json as read } from "../helpers/request";
import {
  cartOf,
  checkedOut,
  depositCashback,
  orderRow,
  rowOf,
  rowsOf,
  type Shopper,
  type Store,
  shopperOf,
  stocked,
} from "./helpers";

/** What the refund tests (refunds*.test.ts) share: paid orders to refund, and reads of what a refund wrote. */

const YEAR = new Date().getUTCFullYear();
export const refundPath = (invoiceId: number) => `/order/v1/merchant/invoices/${invoiceId}/refund/`;

export const linesOf = (invoiceId: number) =>
  rowsOf("SELECT * FROM invoice_items WHERE invoice_id = ? ORDER BY id", invoiceId);
export const refundInvoicesOf = (invoiceId: number) =>
  rowsOf("SELECT * FROM invoices WHERE refunded_invoice_id = ? ORDER BY id", invoiceId);
export const refundTransactionsOf = (orderId: number) =>
  rowsOf("SELECT * FROM transactions WHERE order_id = ? AND type = 'refund' ORDER BY id", orderId);
export const serialOf = (n: number) => `INV-${YEAR}${String(n).padStart(5, "0")}`;
export const major = (minor: number) => minor / 100;

export function statusCounts(statuses: number[]) {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

// --- Paying orders -----------------------------------------------------------------------------

const browse = (url: string) => {
  const u = new URL(url);
  return call(u.pathname + u.search, { appId: null });
};
const outcome = (reference: string): GatewayOutcome => ({
  gateway: "fake",
  reference,
  status: "captured",
  paymentMethod: "mada",
  message: null,
  details: { outcome: "paid" },
});
// The store the pay link names (its signed `app_id`).
const deps = (paymentUrl: string) => {
  const appId = Number(new URL(paymentUrl).searchParams.get("app_id"));
  return { db: db(appId), appId, env, waitUntil: (_: Promise<unknown>) => undefined };
};

/** Pays a pending card order as the development gateway's callback would: pay link, then a capture. */
async function payByCard(paymentUrl: string) {
  const res = await browse(paymentUrl);
  expect(res.status, await res.clone().text()).toBe(303);
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(res.headers.get("location")!)![1]!;
  expect((await applyGatewayOutcome(deps(paymentUrl), outcome(reference)))!.status).toBe("captured");
}

export type Paid = {
  orderId: number;
  invoiceId: number;
  lines: Record<string, any>[];
  shopper: Shopper;
  capturedMinor: number;
};

/**
 * The refunds of `store()` (a store of the test file's own, made by its beforeAll: its counters, rows
 * and events are the file's alone), and the paid orders to refund.
 */
export function refundsIn(store: () => Store) {
  const refund = (invoiceId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    store().as(refundPath(invoiceId), { method: "POST", body, headers });

  /** A refund that must succeed: its body, checked against the documented 201 schema. */
  async function refunded(invoiceId: number, body: Record<string, unknown>) {
    const res = await refund(invoiceId, body);
    const out = await read(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(schemaErrors("refundInvoice", out, "201")).toEqual([]);
    return out;
  }

  /** The store's last invoice serial number (0 before its first). */
  const counter = async () =>
    (
      await rowOf<{ n: number | null }>(
        "SELECT (SELECT last_number FROM invoice_counters WHERE app_id = ?) AS n",
        store().appId,
      )
    ).n ?? 0;

  /** MO10 capture of the order's pending manual payment. */
  async function captureManual(orderId: number) {
    const tx = await rowOf(
      "SELECT id FROM transactions WHERE order_id = ? AND type = 'payment' AND payment_provider <> 'wallet'",
      orderId,
    );
    const res = await store().as(`/order/v1/merchant/transactions/${tx.id}/capture/`, { method: "POST" });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  /**
   * A paid order of a new customer: `lines` of new products at their prices, checked out with
   * `provider` (card paid through the fake gateway; bank transfer and cash captured by MO10).
   */
  async function paidOrder(
    lines: { priceMinor: number; qty: number }[],
    provider: "card" | "wallet" | "bank_transfer" | "cash_on_delivery" = "card",
    cart: Record<string, unknown> = {},
    cashback = 0,
  ): Promise<Paid> {
    const { appId } = store();
    const s = await shopperOf(appId);
    if (cashback) await depositCashback(store(), s.id, cashback);
    const items = await Promise.all(lines.map((l) => stocked(appId, l.priceMinor, 50)));
    const c = await cartOf(s, { items: lines.map((l, i) => ({ item_id: items[i]!.id, qty: l.qty })), ...cart });
    const r = await checkedOut(s, c.id, { payment_provider: provider, lang: "en" });
    if (provider === "card") await payByCard(r.payment_url);
    if (provider === "bank_transfer" || provider === "cash_on_delivery") await captureManual(r.order.id);
    const order = await orderRow(r.order.id);
    expect(order).toMatchObject({ status: "completed", payment_status: "paid" });
    const invoiceId = r.order.invoices[0].id as number;
    return {
      orderId: r.order.id,
      invoiceId,
      lines: await linesOf(invoiceId),
      shopper: s,
      capturedMinor: order.captured_minor,
    };
  }

  return { refund, refunded, counter, paidOrder };
}
