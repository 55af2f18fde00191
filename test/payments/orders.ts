import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import worker from "../../src/index";
import { invoices, orders, transactions } from "../../src/modules/orders/tables";
import { createCustomerFor, db } from "../helpers/factories";
import { BASE } from "../helpers/request";

/**
 * Orders waiting for a card payment, written straight into the store's shard (as checkout leaves
 * them: a pending order, its unpaid invoice, a pending card transaction), and how to read them back.
 */

export type PendingPayment = {
  appId: number;
  customerId: number;
  orderId: number;
  invoiceId: number;
  transactionId: number;
};

/** The ids a pending card order's rows take (by default its shard's next ones). */
export type PaymentIds = Pick<PendingPayment, "orderId" | "invoiceId" | "transactionId">;

export async function pendingCardOrder(
  appId: number,
  opts: { amountMinor?: number; gateway?: string; reference?: string | null; ids?: PaymentIds } = {},
): Promise<PendingPayment> {
  const d = db(appId);
  const amount = opts.amountMinor ?? 12_550;
  const customer = await createCustomerFor(appId);
  const [order] = await d
    .insert(orders)
    .values({
      id: opts.ids?.orderId,
      appId,
      customerId: customer.id,
      currency: "SAR",
      subTotalMinor: amount,
      totalMinor: amount,
      status: "pending",
      paymentStatus: "unpaid",
      paymentProvider: "card",
      paymentMethod: "mada",
    })
    .returning();
  const tax = Math.round((amount * 15) / 115);
  const [invoice] = await d
    .insert(invoices)
    .values({
      id: opts.ids?.invoiceId,
      appId,
      orderId: order!.id,
      customerId: customer.id,
      currency: "SAR",
      subTotalMinor: amount,
      totalMinor: amount,
      totalExcludingTaxMinor: amount - tax,
      taxMinor: tax,
      taxPercentageBp: 1500,
      paymentProvider: "card",
    })
    .returning();
  const [tx] = await d
    .insert(transactions)
    .values({
      id: opts.ids?.transactionId,
      appId,
      orderId: order!.id,
      invoiceId: invoice!.id,
      type: "payment",
      status: "pending",
      amountMinor: amount,
      currency: "SAR",
      paymentProvider: "card",
      paymentMethod: "mada",
      gateway: opts.gateway ?? "fake",
      providerReference: opts.reference ?? null,
    })
    .returning();
  return { appId, customerId: customer.id, orderId: order!.id, invoiceId: invoice!.id, transactionId: tx!.id };
}

export const setReference = (p: Pick<PendingPayment, "appId" | "transactionId">, reference: string) =>
  db(p.appId)
    .update(transactions)
    .set({ providerReference: reference })
    .where(and(eq(transactions.appId, p.appId), eq(transactions.id, p.transactionId)));

/** The payment's rows as they are now (another store on another shard may hold rows of the same ids). */
export async function stateOf(p: PendingPayment) {
  const d = db(p.appId);
  const [tx] = await d
    .select()
    .from(transactions)
    .where(and(eq(transactions.appId, p.appId), eq(transactions.id, p.transactionId)));
  const [order] = await d
    .select()
    .from(orders)
    .where(and(eq(orders.appId, p.appId), eq(orders.id, p.orderId)));
  const [invoice] = await d
    .select()
    .from(invoices)
    .where(and(eq(invoices.appId, p.appId), eq(invoices.id, p.invoiceId)));
  return {
    transaction: tx!.status,
    paymentMethod: tx!.paymentMethod,
    details: tx!.providerDetails,
    order: order!.status,
    paymentStatus: order!.paymentStatus,
    invoice: invoice!.status,
    serial: invoice!.serial,
  };
}

/** The outbox's events about the payment's transaction or order, in order. */
export async function eventsOf(p: PendingPayment): Promise<string[]> {
  const rows = await db(p.appId).all<{ type: string }>(
    sql`SELECT type FROM outbox_events WHERE app_id = ${p.appId}
        AND ((type LIKE 'transaction.%' AND payload ->> '$.data.id' = ${p.transactionId})
          OR (type LIKE 'order.%' AND payload ->> '$.data.id' = ${p.orderId})
          OR (type LIKE 'invoice.%' AND payload ->> '$.data.id' = ${p.invoiceId}))
        ORDER BY rowid`,
  );
  return rows.map((r) => r.type);
}

/** A request through the Worker as a browser or a provider sends it: no token, no `app-id`, with an env of the test's. */
export async function send(
  path: string,
  init: RequestInit & { env?: Record<string, unknown> } = {},
): Promise<Response> {
  const { env: overrides, ...rest } = init;
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(BASE + path, rest), { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The path and query of an absolute URL of this Worker. */
export const pathOf = (url: string) => {
  const u = new URL(url, BASE);
  return u.pathname + u.search;
};
