import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { rowEvent } from "../../../core/events/outbox";
import { abortUnless } from "../../../core/guards";
import { MINOR_PER_MAJOR } from "../../../core/money";
import type { StoreSettings } from "../../account";
import { einvoiceIssueStatements, zatcaStatusOnIssue } from "../einvoices/chain";
import { invoiceEventSql, orderEventSql, transactionEventSql } from "../events-sql";
import { fulfillmentsOnPaid } from "../fulfillments/create";
import { recurringPurchases } from "../recurring/tables";
import { storeWalletBalanceSql, storeWalletEntryStatement } from "../store-wallet/service";
import { subscriptionPaidStatements } from "../subscriptions/plan";
import { invoiceCounters, invoices, type ORDER_KINDS, orders, transactions } from "../tables";

type OrderKind = (typeof ORDER_KINDS)[number];

export type PaidInput = {
  orderId: SQL;
  /** The order's kind: the statements registered for it (`onOrderPaid`) join the batch. */
  kind: OrderKind;
  at: string;
  settings: StoreSettings;
  serialPrefix: string;
  /** The provider transaction captured by this payment, when there is one (a free order has none). */
  transactionId?: SQL;
};

/**
 * What "paid" writes, for a batch that already holds the order as `pending` (checkout, a gateway's
 * callback, a captured bank transfer): the transaction captured, the invoice paid with the next
 * serial of the store and the seller the ZATCA QR names, the order completed, a top-up credited to
 * the store wallet, a recurring purchase activated; and their events.
 *
 * The batch aborts unless the order is still pending where it runs: two payments of one order
 * landing at once (two gateway sessions, a transfer captured while a card pays) both read it
 * pending, and only the first batch may pay it. The other rolls back whole (no serial taken, no
 * second `order.paid`) and its caller settles that payment as a second one.
 */
export function paidStatements(
  ctx: ServiceContext,
  p: PaidInput,
): { statements: BatchItem<"sqlite">[]; events: SQL[] } {
  const { orderId, at } = p;
  const seller = p.settings.invoiceSellerName;
  const statements: BatchItem<"sqlite">[] = [
    abortUnless(
      ctx.db,
      sql`EXISTS (SELECT 1 FROM orders WHERE id = ${orderId} AND status = 'pending')`,
      "order-pending",
    ),
  ];
  if (p.transactionId)
    statements.push(
      ctx.db
        .update(transactions)
        .set({ status: "captured", modifiedAt: at })
        .where(
          sql`${transactions.id} = ${p.transactionId} AND ${transactions.status} IN ('pending', 'pending_review', 'failed')`,
        ),
    );
  // The counter moves only for an invoice this batch pays, so that every serial taken is an invoice's.
  statements.push(
    ctx.db
      .insert(invoiceCounters)
      .select(
        sql`SELECT ${ctx.appId}, 1 WHERE EXISTS (SELECT 1 FROM invoices
          WHERE order_id = ${orderId} AND type = 'invoice' AND status = 'unpaid')`,
      )
      .onConflictDoUpdate({
        target: invoiceCounters.appId,
        set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
      }),
    ctx.db
      .update(invoices)
      .set({
        status: "paid",
        serial: sql`${p.serialPrefix} || ${at.slice(0, 4)} || printf('%05d',
          (SELECT last_number FROM invoice_counters WHERE app_id = ${ctx.appId}))`,
        issuedAt: at,
        sellerName: seller,
        vatNumber: p.settings.vatNumber,
        zatcaStatus: zatcaStatusOnIssue(ctx.appId),
        modifiedAt: at,
      })
      .where(sql`${invoices.orderId} = ${orderId} AND ${invoices.type} = 'invoice' AND ${invoices.status} = 'unpaid'`),
  );
  // Its e-invoice's counter and row (or not_required), in this batch (docs/zatca.md, "The chain").
  const einvoice = einvoiceIssueStatements(
    ctx.db,
    ctx.appId,
    sql`i.order_id = ${orderId} AND i.type = 'invoice' AND i.status = 'paid' AND i.issued_at = ${at}`,
    at,
  );
  statements.push(
    ...einvoice.statements,
    ctx.db
      .update(orders)
      .set({
        status: "completed",
        paymentStatus: "paid",
        capturedMinor: sql`${orders.totalMinor}`,
        paidAt: at,
        expiresAt: null,
        modifiedAt: at,
      })
      .where(sql`${orders.id} = ${orderId} AND ${orders.status} = 'pending'`),
    ctx.db
      .update(recurringPurchases)
      .set({ status: "active", lastChargeDate: at.slice(0, 10), modifiedAt: at })
      .where(
        sql`${recurringPurchases.id} = (SELECT recurring_purchase_id FROM orders WHERE id = ${orderId})
          AND ${recurringPurchases.status} = 'pending'`,
      ),
  );
  const topUp = sql`(SELECT kind FROM orders WHERE id = ${orderId}) = 'wallet_topup'`;
  statements.push(
    storeWalletEntryStatement(ctx.db, ctx.appId, {
      type: "credit",
      source: "charge",
      amountMinor: sql`(SELECT total_minor FROM orders WHERE id = ${orderId})`,
      orderId,
      reference: "Wallet top-up",
      when: topUp,
    }),
  );
  const events = [
    orderEventSql("order.paid", orderId),
    orderEventSql("order.completed", orderId),
    invoiceEventSql("invoice.paid", sql`order_id = ${orderId} AND type = 'invoice' AND status = 'paid'`),
    rowEvent(
      "merchant.wallet.charged",
      orders,
      sql`id = ${orderId} AND kind = 'wallet_topup'`,
      sql`json_object('order_id', id, 'amount', CAST(total_minor AS REAL) / ${MINOR_PER_MAJOR},
        'balance', CAST(${storeWalletBalanceSql(ctx.appId)} AS REAL) / ${MINOR_PER_MAJOR})`,
    ),
  ];
  events.push(...einvoice.events);
  if (p.transactionId) events.push(transactionEventSql("transaction.captured", sql`id = ${p.transactionId}`));
  // The order's subscriptions start (pending → trialing or active).
  const subscribed = subscriptionPaidStatements(ctx, { orderId, at, timeZone: p.settings.timezone });
  statements.push(...subscribed.statements);
  events.push(...subscribed.events);
  const fulfilment = fulfillmentsOnPaid(ctx, { orderId, at, timezone: p.settings.timezone });
  statements.push(...fulfilment.statements);
  events.push(...fulfilment.events);
  // True once this batch has paid the order (it was pending): a hook's writes are guarded by it.
  const paidNow = sql`EXISTS (SELECT 1 FROM orders WHERE id = ${orderId} AND payment_status = 'paid' AND paid_at = ${at})`;
  for (const hook of paidHooks.get(p.kind) ?? []) {
    const more = hook(ctx, { orderId, at, timeZone: p.settings.timezone, paidNow });
    statements.push(...more.statements);
    events.push(...more.events);
  }
  return { statements, events };
}

/** What a module adds to the batch that pays an order of its kind (after the order is completed). */
export type PaidHook = (
  ctx: ServiceContext,
  p: {
    orderId: SQL;
    at: string;
    timeZone: string;
    /** True when this batch paid the order (a late or second payment pays nothing). */
    paidNow: SQL;
  },
) => { statements: BatchItem<"sqlite">[]; events: SQL[] };

const paidHooks = new Map<OrderKind, Set<PaidHook>>();

/**
 * Registers the statements a module adds whenever an order of `kind` is paid, wherever that
 * happens (checkout, a card callback, a captured transfer): the module that places such orders
 * registers once, when it is loaded, so the orders module never imports it. Registering the same
 * hook again changes nothing.
 */
export function onOrderPaid(kind: OrderKind, hook: PaidHook): void {
  const hooks = paidHooks.get(kind) ?? new Set<PaidHook>();
  hooks.add(hook);
  paidHooks.set(kind, hooks);
}
