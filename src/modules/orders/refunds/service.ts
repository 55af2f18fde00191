import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { toMajor } from "../../../core/money";
import { insertedId } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { cashbackMovementStatements } from "../../customers";
import { orderEventSql, transactionEventSql } from "../events-sql";
import { readInvoiceConfig } from "../invoices/config";
import { cardGatewayById } from "../payments/gateways/index";
import { GatewayRefused, GatewayUnavailable } from "../payments/provider";
import { vatSplit } from "../pricing/vat";
import { invoiceCounters, invoiceItems, invoices, orders, type PAYMENT_PROVIDERS, transactions } from "../tables";
import type { RefundInvoice } from "./schemas";

type LineRow = typeof invoiceItems.$inferSelect;
type RefundLine = { parent: LineRow; qty: number; totalMinor: number };

/** Splits `amount` over `weights` in proportion, by largest remainder: the parts sum to `amount` exactly. */
export function allocate(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / sum);
  const parts = exact.map(Math.floor);
  let left = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

async function load(ctx: ServiceContext, invoiceId: number) {
  const [rows, lines, refundedByLine] = await ctx.db.batch([
    ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), live(invoices, ctx.appId))),
    ctx.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, invoiceId)),
    // What earlier refunds (not voided) gave back of each line.
    ctx.db
      .select({
        parent: invoiceItems.parentInvoiceItemId,
        total: sql<number>`sum(${invoiceItems.totalMinor})`.mapWith(Number),
      })
      .from(invoiceItems)
      .where(
        sql`${invoiceItems.invoiceId} IN (SELECT id FROM invoices WHERE refunded_invoice_id = ${invoiceId}
          AND status <> 'void')`,
      )
      .groupBy(invoiceItems.parentInvoiceItemId),
  ]);
  const invoice = rows[0];
  if (!invoice) throw ApiError.notFound("invoice_not_found", `Invoice ${invoiceId}`);
  const order = (await ctx.db.select().from(orders).where(eq(orders.id, invoice.orderId)).get())!;
  return { invoice, order, lines, refunded: new Map(refundedByLine.map((r) => [r.parent, r.total])) };
}

function refundLines(input: RefundInvoice, lines: LineRow[], refunded: Map<number | null, number>): RefundLine[] {
  const left = (l: LineRow) => l.totalMinor - (refunded.get(l.id) ?? 0);
  if (input.amount !== undefined) {
    const open = lines.filter((l) => left(l) > 0);
    const parts = allocate(input.amount, open.map(left));
    return open.map((l, i) => ({ parent: l, qty: 0, totalMinor: Math.min(parts[i]!, left(l)) }));
  }
  const wanted = input.items ?? lines.map((l) => ({ invoice_item_id: l.id, qty: l.qty - l.refundedQty }));
  const errors: Record<string, string[]> = {};
  const out: RefundLine[] = [];
  wanted.forEach((w, i) => {
    const line = lines.find((l) => l.id === w.invoice_item_id);
    if (!line) {
      errors[`items.${i}.invoice_item_id`] = [`Line ${w.invoice_item_id} is not a line of this invoice.`];
      return;
    }
    const remaining = line.qty - line.refundedQty;
    if (w.qty > remaining) {
      errors[`items.${i}.qty`] = [`Line ${line.id} has ${remaining} unit(s) left to refund.`];
      return;
    }
    if (w.qty === 0) return;
    // The last units take what is left of the line, so that a line is never refunded past its total.
    const total = w.qty === remaining ? left(line) : Math.round((line.totalMinor * w.qty) / line.qty);
    out.push({ parent: line, qty: w.qty, totalMinor: Math.min(total, left(line)) });
  });
  if (Object.keys(errors).length) throw ApiError.validation(errors);
  return out;
}

/**
 * MO8 Refund Invoice: a new invoice of type `refund` pointing at the paid one (never an edit), by
 * lines and quantities, by amount, or whole. The money goes back the way it came: the provider's
 * part first (a card through its gateway; a bank transfer or cash is paid back by the merchant and
 * recorded), then the customer's cashback for what the wallet paid.
 *
 * The sum refunded never exceeds the sum captured, under concurrency too: the order's
 * `refunded_minor` grows in a batch guarded on `refunded + amount ≤ captured` (and on the lines'
 * quantities), and a refund waiting on its gateway blocks another until it ends.
 */
export async function refundInvoice(
  ctx: ServiceContext,
  env: Env,
  invoiceId: number,
  input: RefundInvoice,
): Promise<number> {
  const { invoice, order, lines, refunded } = await load(ctx, invoiceId);
  if (invoice.type !== "invoice" || invoice.status !== "paid")
    throw ApiError.invalidTransition(
      `Invoice ${invoiceId} (${invoice.type})`,
      invoice.status,
      "refunded",
      invoice.type === "invoice" && invoice.status === "paid" ? ["refund"] : [],
    );
  // A top-up's payment given back would leave its balance in the store wallet (spent, maybe): not refundable here.
  if (order.kind === "wallet_topup")
    throw ApiError.invalidTransition(`Invoice ${invoiceId} (wallet top-up)`, invoice.status, "refunded", []);
  const refundable = order.capturedMinor - order.refundedMinor;
  if (refundable <= 0)
    throw ApiError.conflict("nothing_to_refund", `Everything paid for order ${order.id} was refunded.`);
  const parts = refundLines(input, lines, refunded).filter((p) => p.totalMinor > 0 || p.qty > 0);
  const amount = parts.reduce((s, p) => s + p.totalMinor, 0);
  if (amount === 0) throw ApiError.conflict("nothing_to_refund", `Nothing of invoice ${invoiceId} is left to refund.`);
  // By amount, the parts are capped at what each line has left: a smaller sum means more was asked than is left.
  if (amount > refundable || (input.amount !== undefined && amount < input.amount))
    throw ApiError.conflict(
      "refund_exceeds_captured",
      `The refund of ${toMajor(input.amount ?? amount)} is more than the ${toMajor(Math.min(refundable, amount))} left to refund.`,
      { refundable_amount: toMajor(Math.min(refundable, amount)) },
    );
  // The provider's part first, then the wallet's.
  const providerPaid = order.totalMinor - order.walletRedeemMinor;
  const providerPart = Math.min(amount, Math.max(0, providerPaid - Math.min(order.refundedMinor, providerPaid)));
  const walletPart = amount - providerPart;
  const provider = order.paymentProvider ?? "free";
  const card =
    provider === "card" && providerPart > 0
      ? await ctx.db
          .select()
          .from(transactions)
          .where(
            and(
              eq(transactions.orderId, order.id),
              eq(transactions.type, "payment"),
              eq(transactions.paymentProvider, "card"),
              eq(transactions.status, "captured"),
            ),
          )
          .get()
      : undefined;
  const config = await readInvoiceConfig(ctx.db, ctx.appId);
  const at = nowIso();
  const refundId = insertedId(invoices);
  const bp = invoice.taxPercentageBp;
  const refundRows = parts.map((p) => {
    const { excludingTaxMinor, taxMinor } = vatSplit(p.totalMinor, p.parent.taxPercentageBp);
    return { ...p, excludingTaxMinor, taxMinor };
  });
  const tax = refundRows.reduce((s, r) => s + r.taxMinor, 0);
  const full = order.refundedMinor + amount >= order.capturedMinor;

  const statements: BatchItem<"sqlite">[] = [
    abortUnless(
      ctx.db,
      sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND refunded_minor + ${amount} <= captured_minor)
        AND NOT EXISTS (SELECT 1 FROM transactions WHERE order_id = ${order.id} AND type = 'refund'
          AND status = 'pending')`,
      "refundable",
    ),
    // Each line's quantity and total, as refunds that landed meanwhile left them (the parts were read before).
    ...parts.flatMap((p) => [
      abortUnless(
        ctx.db,
        sql`EXISTS (SELECT 1 FROM invoice_items WHERE id = ${p.parent.id} AND refunded_qty + ${p.qty} <= qty
          AND ${p.totalMinor} + (SELECT coalesce(sum(total_minor), 0) FROM invoice_items WHERE parent_invoice_item_id
            = ${p.parent.id} AND invoice_id IN (SELECT id FROM invoices WHERE refunded_invoice_id = ${invoiceId}
            AND status <> 'void')) <= total_minor)`,
        "line-qty",
      ),
      ...(p.qty > 0
        ? [
            ctx.db
              .update(invoiceItems)
              .set({ refundedQty: sql`${invoiceItems.refundedQty} + ${p.qty}` })
              .where(eq(invoiceItems.id, p.parent.id)),
          ]
        : []),
    ]),
    ctx.db
      .update(orders)
      .set({
        refundedMinor: sql`${orders.refundedMinor} + ${amount}`,
        // Decided on the row as the batch finds it: a concurrent refund may have landed since it was read.
        paymentStatus: sql`CASE WHEN ${orders.refundedMinor} + ${amount} >= ${orders.capturedMinor}
          THEN 'refunded' ELSE 'partially_refunded' END`,
        status: sql`CASE WHEN ${orders.refundedMinor} + ${amount} >= ${orders.capturedMinor}
          THEN 'refunded' ELSE ${orders.status} END`,
        modifiedAt: at,
      })
      .where(eq(orders.id, order.id)),
    ctx.db
      .insert(invoiceCounters)
      .values({ appId: ctx.appId, lastNumber: 1 })
      .onConflictDoUpdate({
        target: invoiceCounters.appId,
        set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
      }),
    ctx.db.insert(invoices).values({
      appId: ctx.appId,
      orderId: order.id,
      customerId: invoice.customerId,
      type: "refund",
      status: "paid",
      serial: sql`${config.serial_prefix} || ${at.slice(0, 4)} || printf('%05d',
        (SELECT last_number FROM invoice_counters WHERE app_id = ${ctx.appId}))`,
      refundedInvoiceId: invoice.id,
      refundReason: input.refund_reason,
      issuedAt: at,
      currency: invoice.currency,
      subTotalMinor: amount,
      totalMinor: amount,
      totalExcludingTaxMinor: amount - tax,
      taxMinor: tax,
      taxPercentageBp: bp,
      walletRedeemMinor: walletPart,
      paymentProvider: invoice.paymentProvider,
      paymentMethod: invoice.paymentMethod,
      sellerName: invoice.sellerName,
      vatNumber: invoice.vatNumber,
      createdAt: at,
      modifiedAt: at,
    }),
    ctx.db.insert(invoiceItems).select(
      sql`SELECT NULL, ${ctx.appId}, ${refundId}, value ->> '$.orderItemId', value ->> '$.parent', value ->> '$.itemId',
          value ->> '$.nameEn', value ->> '$.nameAr', value ->> '$.qty', 0, value ->> '$.total', 0, value ->> '$.total',
          value ->> '$.bp', value ->> '$.tax', value ->> '$.excl', ${input.refund_reason}, ${at}
        FROM json_each(${JSON.stringify(
          refundRows.map((r) => ({
            orderItemId: r.parent.orderItemId,
            parent: r.parent.id,
            itemId: r.parent.itemId,
            nameEn: r.parent.nameEn,
            nameAr: r.parent.nameAr,
            qty: r.qty,
            total: r.totalMinor,
            bp: r.parent.taxPercentageBp,
            tax: r.taxMinor,
            excl: r.excludingTaxMinor,
          })),
        )})`,
    ),
  ];
  const events = [
    rowEvent(
      "invoice.refunded",
      invoices,
      sql`id = ${refundId}`,
      sql`json_object('id', id, 'order_id', order_id, 'serial', serial, 'refunded_invoice_id', refunded_invoice_id)`,
    ),
    orderEventSql("order.refunded", sql`${order.id}`, sql` AND status = 'refunded'`),
  ];
  const refundTx = (
    p: (typeof PAYMENT_PROVIDERS)[number],
    status: "pending" | "refunded",
    amountMinor: number,
    gateway: string | null,
  ) =>
    ctx.db.insert(transactions).values({
      appId: ctx.appId,
      orderId: order.id,
      invoiceId: refundId,
      type: "refund",
      status,
      amountMinor,
      currency: invoice.currency,
      paymentProvider: p,
      paymentMethod: invoice.paymentMethod,
      gateway,
      providerDetails:
        status === "refunded" && p !== "wallet" ? { manual: true, note: "Paid back by the merchant." } : null,
      createdAt: at,
      modifiedAt: at,
    });
  let cardTxAt = -1;
  if (providerPart > 0) {
    if (card) cardTxAt = statements.length;
    statements.push(
      card
        ? refundTx("card", "pending", providerPart, card.gateway).returning({ id: transactions.id })
        : refundTx(provider, "refunded", providerPart, null),
    );
    events.push(
      transactionEventSql(
        card ? "transaction.created" : "transaction.refunded",
        sql`invoice_id = ${refundId} AND type = 'refund' AND payment_provider = ${card ? "card" : provider}`,
      ),
    );
  }
  if (walletPart > 0 && order.customerId !== null) {
    const back = cashbackMovementStatements(ctx, order.customerId, {
      type: "refund",
      units: walletPart,
      orderId: sql`${order.id}`,
      reason: `Refund of invoice ${invoice.serial ?? invoice.id}`,
    });
    statements.push(...back.statements, refundTx("wallet", "refunded", walletPart, null));
    events.push(
      back.event,
      transactionEventSql(
        "transaction.refunded",
        sql`invoice_id = ${refundId} AND type = 'refund' AND payment_provider = 'wallet'`,
      ),
    );
  }
  // The refund invoice's id: the largest of the order's, read in the same batch.
  const idAt = statements.length;
  statements.push(ctx.db.select({ id: sql<number>`max(id)` }).from(invoices).where(eq(invoices.orderId, order.id)));
  let results: unknown[];
  try {
    ({ results } = await emit(ctx.db, ctx.events, statements, unionEvents(events)));
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    throw ApiError.conflict(
      "refund_exceeds_captured",
      "Another refund of this order ran meanwhile (or is waiting on its provider); read the invoice again.",
    );
  }
  const refundInvoiceId = (results[idAt] as { id: number }[])[0]!.id;
  if (card && cardTxAt >= 0) {
    const txId = (results[cardTxAt] as { id: number }[])[0]!.id;
    await refundThroughGateway(ctx, env, {
      txId,
      orderId: order.id,
      refundInvoiceId,
      parts,
      amount,
      full,
      card,
      providerPart,
      reason: input.refund_reason,
    });
  }
  return refundInvoiceId;
}

/**
 * The card part, after the refund is reserved: the gateway refunds it (the transaction refunded),
 * refuses (everything the refund reserved is given back and its invoice voided), or does not
 * answer (the refund stays pending, blocking another of the order until it is settled).
 */
async function refundThroughGateway(
  ctx: ServiceContext,
  env: Env,
  r: {
    txId: number;
    orderId: number;
    refundInvoiceId: number;
    parts: RefundLine[];
    amount: number;
    full: boolean;
    card: typeof transactions.$inferSelect;
    providerPart: number;
    reason: string;
  },
) {
  const gateway = cardGatewayById(env, r.card.gateway ?? "");
  const at = nowIso();
  try {
    const result = await gateway.refund({
      paymentReference: r.card.providerReference ?? "",
      amountMinor: r.providerPart,
      currency: r.card.currency,
      reason: r.reason,
    });
    if (result.status === "failed") throw new GatewayRefused("The gateway refused the refund.");
    await emit(
      ctx.db,
      ctx.events,
      [
        ctx.db
          .update(transactions)
          .set({
            status: result.status === "refunded" ? "refunded" : "pending",
            providerReference: result.reference,
            providerDetails: result.details,
            modifiedAt: at,
          })
          .where(eq(transactions.id, r.txId)),
      ],
      transactionEventSql("transaction.refunded", sql`id = ${r.txId} AND status = 'refunded'`),
    );
  } catch (error) {
    if (error instanceof GatewayUnavailable)
      throw new ApiError(503, "provider_unavailable", "The card gateway did not answer; the refund is pending.", {
        headers: { "Retry-After": "60" },
        transaction_id: r.txId,
      });
    if (!(error instanceof GatewayRefused)) throw error;
    // Refused: undo the reservation (the wallet part, if any, stays given back: it is the customer's).
    await ctx.db.batch([
      ctx.db
        .update(transactions)
        .set({ status: "failed", declineReason: error.message.slice(0, 500), modifiedAt: at })
        .where(eq(transactions.id, r.txId)),
      ctx.db
        .update(orders)
        .set({
          refundedMinor: sql`${orders.refundedMinor} - ${r.providerPart}`,
          paymentStatus: sql`CASE WHEN ${orders.refundedMinor} - ${r.providerPart} > 0 THEN 'partially_refunded' ELSE 'paid' END`,
          status: "completed",
          modifiedAt: at,
        })
        .where(eq(orders.id, r.orderId)),
      ...(r.providerPart === r.amount
        ? [
            ...r.parts
              .filter((p) => p.qty > 0)
              .map((p) =>
                ctx.db
                  .update(invoiceItems)
                  .set({ refundedQty: sql`${invoiceItems.refundedQty} - ${p.qty}` })
                  .where(eq(invoiceItems.id, p.parent.id)),
              ),
            ctx.db.update(invoices).set({ status: "void", modifiedAt: at }).where(eq(invoices.id, r.refundInvoiceId)),
          ]
        : []),
    ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    throw ApiError.conflict("payment_failed", "The card gateway refused the refund; nothing was refunded by card.", {
      provider_message: error.message,
    });
  }
}
