import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan, type Handle, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { rowEvent } from "../../../core/events/outbox";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { addCashbackMovement } from "../../customers";
import { addEInvoiceIssue, zatcaStatusOnIssue } from "../einvoices/chain";
import { orderEventSql, transactionEventSql } from "../events-sql";
import { invoiceConfigOf, invoiceConfigQuery } from "../invoices/config";
import type { InvoiceDetails } from "../invoices/schemas";
import { assembleInvoices, type InvoiceParts, type InvoiceViewOptions, invoicePartsRead } from "../invoices/views";
import { vatSplit } from "../pricing/vat";
import { invoiceCounters, invoiceItems, invoices, orders, type PAYMENT_PROVIDERS, transactions } from "../tables";
import { refundThroughGateway } from "./gateway";
import { type RefundLine, refundedQtyStatements, refundLines } from "./lines";
import type { RefundInvoice } from "./schemas";

/**
 * The invoice, its lines, what earlier refunds gave back of each, its order, the order's captured
 * card payment and the store's invoice settings: ONE batch of reads (the order's by a subquery).
 * `invoiceId` may be a subquery (a subscription's current invoice), so that a caller reads this
 * with its own reads; `shownAs` names the invoice in a 404 then.
 */
export async function readRefundable(ctx: ServiceContext, invoiceId: number | SQL, shownAs?: number) {
  const id = sql`(${invoiceId})`;
  const orderOfInvoice = sql`(SELECT order_id FROM invoices WHERE id = ${id} AND ${liveRow(ctx.appId)})`;
  const [rows, lines, refundedByLine, orderRows, cards, config] = await ctx.db.batch([
    ctx.db
      .select()
      .from(invoices)
      .where(and(sql`${invoices.id} = ${id}`, live(invoices, ctx.appId))),
    ctx.db.select().from(invoiceItems).where(sql`${invoiceItems.invoiceId} = ${id}`),
    // What earlier refunds (not voided) gave back of each line.
    ctx.db
      .select({
        parent: invoiceItems.parentInvoiceItemId,
        total: sql<number>`sum(${invoiceItems.totalMinor})`.mapWith(Number),
      })
      .from(invoiceItems)
      .where(
        sql`${invoiceItems.invoiceId} IN (SELECT id FROM invoices WHERE refunded_invoice_id = ${id}
          AND status <> 'void')`,
      )
      .groupBy(invoiceItems.parentInvoiceItemId),
    ctx.db.select().from(orders).where(sql`${orders.id} = ${orderOfInvoice}`),
    ctx.db
      .select()
      .from(transactions)
      .where(
        and(
          sql`${transactions.orderId} = ${orderOfInvoice}`,
          eq(transactions.type, "payment"),
          eq(transactions.paymentProvider, "card"),
          eq(transactions.status, "captured"),
        ),
      )
      .limit(1),
    invoiceConfigQuery(ctx.db, ctx.appId),
  ]);
  const invoice = rows[0];
  if (!invoice) throw ApiError.notFound("invoice_not_found", `Invoice ${shownAs ?? invoiceId}`);
  return {
    invoice,
    order: orderRows[0]!,
    lines,
    refunded: new Map(refundedByLine.map((r) => [r.parent, r.total])),
    capturedCard: cards[0],
    config: invoiceConfigOf(config[0]),
  };
}

type Loaded = Awaited<ReturnType<typeof readRefundable>>;
type InvoiceRow = Loaded["invoice"];
type OrderRow = Loaded["order"];
type CardPayment = typeof transactions.$inferSelect;

/** A refund decided: its lines, its amount, and how it splits between the provider and the wallet. */
type Refund = {
  parts: RefundLine[];
  amount: number;
  providerPart: number;
  walletPart: number;
  /** The card payment it gives back through its gateway, when the provider's part is a card's. */
  card: CardPayment | undefined;
};

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
  view?: InvoiceViewOptions,
  /** `readRefundable` of this invoice, when the caller read it with its own reads. */
  loaded?: Loaded,
): Promise<{ id: number; details: InvoiceDetails | undefined }> {
  const { invoice, order, lines, refunded, capturedCard, config } = loaded ?? (await readRefundable(ctx, invoiceId));
  refuseUnrefundable(invoice, order);
  const parts = refundLines(input, lines, refunded).filter((p) => p.totalMinor > 0 || p.qty > 0);
  const refund = refundOf(input, invoiceId, order, parts, capturedCard);
  const at = nowIso();
  const plan = new BatchPlan(ctx.db);
  reserveRefund(ctx, plan, invoice, order, refund, at);
  const refundInvoiceRow = plan.insert("refund_invoice", refundInvoiceInsert(ctx, invoice, refund, input, config, at));
  plan.add(refundItemsInsert(ctx, refundInvoiceRow, refund, input.refund_reason, at));
  addEInvoiceIssue(plan, ctx.appId, sql`i.id = ${refundInvoiceRow.id}`, at); // the credit note's link in the chain
  plan.event(
    rowEvent(
      "invoice.refunded",
      invoices,
      sql`id = ${refundInvoiceRow.id}`,
      sql`json_object('id', id, 'order_id', order_id, 'serial', serial, 'refunded_invoice_id', refunded_invoice_id)`,
    ),
    orderEventSql("order.refunded", sql`${order.id}`, sql` AND status = 'refunded'`),
  );
  const cardTx = addRefundTransactions(ctx, plan, { invoice, order, refund, refundInvoice: refundInvoiceRow, at });
  // The refund invoice as the answer shows it, read in the batch that writes it; a card's once its gateway answered.
  const shown = view && invoicePartsRead(ctx.db, ctx.appId, sql`(${refundInvoiceRow.id})`, true, at);
  const read = shown && !cardTx ? plan.read<InvoiceParts>(shown) : undefined;
  const result = await plan.run(
    ctx.events,
    ApiError.conflict(
      "refund_exceeds_captured",
      "Another refund of this order ran meanwhile (or is waiting on its provider); read the invoice again.",
    ),
  );
  const id = result.id(refundInvoiceRow);
  let shownParts = read && result.rows(read)[0];
  if (refund.card && cardTx)
    shownParts = await refundThroughGateway(
      ctx,
      env,
      {
        txId: result.id(cardTx),
        orderId: order.id,
        refundInvoiceId: id,
        parts: refund.parts,
        amount: refund.amount,
        full: order.refundedMinor + refund.amount >= order.capturedMinor,
        card: refund.card,
        providerPart: refund.providerPart,
        reason: input.refund_reason,
      },
      view && invoicePartsRead(ctx.db, ctx.appId, sql`(${id})`, true, at),
    );
  const details = view && (await assembleInvoices(ctx.appId, shownParts, view, at)).get(id);
  return { id, details: details as InvoiceDetails | undefined };
}

function refuseUnrefundable(invoice: InvoiceRow, order: OrderRow): void {
  if (invoice.type !== "invoice" || invoice.status !== "paid")
    throw ApiError.invalidTransition(
      `Invoice ${invoice.id} (${invoice.type})`,
      invoice.status,
      "refunded",
      invoice.type === "invoice" && invoice.status === "paid" ? ["refund"] : [],
    );
  // A top-up's payment given back would leave its balance in the store wallet (spent, maybe): not refundable here.
  if (order.kind === "wallet_topup")
    throw ApiError.invalidTransition(`Invoice ${invoice.id} (wallet top-up)`, invoice.status, "refunded", []);
  if (order.capturedMinor - order.refundedMinor <= 0)
    throw ApiError.conflict("nothing_to_refund", `Everything paid for order ${order.id} was refunded.`);
}

/** The amount of `parts` within what is left to refund, split the provider's part first, then the wallet's. */
function refundOf(
  input: RefundInvoice,
  invoiceId: number,
  order: OrderRow,
  parts: RefundLine[],
  capturedCard: CardPayment | undefined,
): Refund {
  const refundable = order.capturedMinor - order.refundedMinor;
  const amount = parts.reduce((s, p) => s + p.totalMinor, 0);
  if (amount === 0) throw ApiError.conflict("nothing_to_refund", `Nothing of invoice ${invoiceId} is left to refund.`);
  // By amount, the parts are capped at what each line has left: a smaller sum means more was asked than is left.
  if (amount > refundable || (input.amount !== undefined && amount < input.amount))
    throw ApiError.conflict(
      "refund_exceeds_captured",
      `The refund of ${toMajor(input.amount ?? amount)} is more than the ${toMajor(Math.min(refundable, amount))} left to refund.`,
      { refundable_amount: toMajor(Math.min(refundable, amount)) },
    );
  const providerPaid = order.totalMinor - order.walletRedeemMinor;
  const providerPart = Math.min(amount, Math.max(0, providerPaid - Math.min(order.refundedMinor, providerPaid)));
  const card = order.paymentProvider === "card" && providerPart > 0 ? capturedCard : undefined;
  return { parts, amount, providerPart, walletPart: amount - providerPart, card };
}

/**
 * The refund reserved on the order and its lines, guarded on the rows as the batch finds them: the
 * order's captured sum and no refund pending on a gateway, each line's quantity and total.
 */
function reserveRefund(
  ctx: ServiceContext,
  plan: BatchPlan,
  invoice: InvoiceRow,
  order: OrderRow,
  { parts, amount }: Refund,
  at: string,
): void {
  plan.guard(
    sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND refunded_minor + ${amount} <= captured_minor)
      AND NOT EXISTS (SELECT 1 FROM transactions WHERE order_id = ${order.id} AND type = 'refund'
        AND status = 'pending')`,
    "refundable",
  );
  // Each line's quantity and total, as refunds that landed meanwhile left them (the parts were read before).
  for (const p of parts) {
    plan.guard(
      sql`EXISTS (SELECT 1 FROM invoice_items WHERE id = ${p.parent.id} AND refunded_qty + ${p.qty} <= qty
        AND ${p.totalMinor} + (SELECT coalesce(sum(total_minor), 0) FROM invoice_items WHERE parent_invoice_item_id
          = ${p.parent.id} AND invoice_id IN (SELECT id FROM invoices WHERE refunded_invoice_id = ${invoice.id}
          AND status <> 'void')) <= total_minor)`,
      "line-qty",
    );
  }
  plan.add(...refundedQtyStatements(ctx.db, parts, 1, at));
  plan.add(
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
  );
}

function refundInvoiceInsert(
  ctx: ServiceContext,
  invoice: InvoiceRow,
  { parts, amount, walletPart }: Refund,
  input: RefundInvoice,
  config: { serial_prefix: string },
  at: string,
) {
  const tax = parts.reduce((s, p) => s + vatSplit(p.totalMinor, p.parent.taxPercentageBp).taxMinor, 0);
  return ctx.db.insert(invoices).values({
    appId: ctx.appId,
    orderId: invoice.orderId,
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
    taxPercentageBp: invoice.taxPercentageBp,
    walletRedeemMinor: walletPart,
    paymentProvider: invoice.paymentProvider,
    paymentMethod: invoice.paymentMethod,
    sellerName: invoice.sellerName,
    vatNumber: invoice.vatNumber,
    zatcaStatus: zatcaStatusOnIssue(ctx.appId),
    createdAt: at,
    modifiedAt: at,
  });
}

/** The refund invoice's lines, each pointing at the line it gives back. */
function refundItemsInsert(ctx: ServiceContext, refundInvoice: Handle, { parts }: Refund, reason: string, at: string) {
  const rows = parts.map((p) => {
    const { excludingTaxMinor, taxMinor } = vatSplit(p.totalMinor, p.parent.taxPercentageBp);
    const l = p.parent;
    return {
      orderItemId: l.orderItemId,
      parent: l.id,
      itemId: l.itemId,
      nameEn: l.nameEn,
      nameAr: l.nameAr,
      qty: p.qty,
      total: p.totalMinor,
      bp: l.taxPercentageBp,
      tax: taxMinor,
      excl: excludingTaxMinor,
    };
  });
  const v = (key: keyof (typeof rows)[number]) => sql.raw(`value ->> '$.${key}'`);
  return insertSelect(
    ctx.db,
    invoiceItems,
    {
      appId: ctx.appId,
      invoiceId: refundInvoice.id,
      orderItemId: v("orderItemId"),
      parentInvoiceItemId: v("parent"),
      itemId: v("itemId"),
      nameEn: v("nameEn"),
      nameAr: v("nameAr"),
      qty: v("qty"),
      refundedQty: 0,
      amountMinor: v("total"),
      voucherDiscountMinor: 0,
      totalMinor: v("total"),
      taxPercentageBp: v("bp"),
      taxMinor: v("tax"),
      totalExcludingTaxMinor: v("excl"),
      refundReason: reason,
      createdAt: at,
    },
    sql`FROM json_each(${JSON.stringify(rows)})`,
  );
}

/**
 * The refund's transactions: the provider's part (a card's pending on its gateway, named so that the
 * gateway's answer settles it; any other paid back by the merchant), then the wallet's, credited now.
 */
function addRefundTransactions(
  ctx: ServiceContext,
  plan: BatchPlan,
  r: { invoice: InvoiceRow; order: OrderRow; refund: Refund; refundInvoice: Handle; at: string },
): Handle | null {
  const { invoice, order, refund, at } = r;
  const provider = order.paymentProvider ?? "free";
  const refundTx = (
    p: (typeof PAYMENT_PROVIDERS)[number],
    status: "pending" | "refunded",
    amountMinor: number,
    gateway: string | null,
  ) =>
    ctx.db.insert(transactions).values({
      appId: ctx.appId,
      orderId: order.id,
      invoiceId: r.refundInvoice.id,
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
  const ofRefund = (p: string) =>
    sql`invoice_id = ${r.refundInvoice.id} AND type = 'refund' AND payment_provider = ${p}`;
  let cardTx: Handle | null = null;
  if (refund.providerPart > 0) {
    if (refund.card)
      cardTx = plan.insert("card_refund", refundTx("card", "pending", refund.providerPart, refund.card.gateway));
    else plan.add(refundTx(provider, "refunded", refund.providerPart, null));
    plan.event(
      transactionEventSql(
        refund.card ? "transaction.created" : "transaction.refunded",
        ofRefund(refund.card ? "card" : provider),
      ),
    );
  }
  if (refund.walletPart > 0 && order.customerId !== null) {
    addCashbackMovement(plan, ctx, order.customerId, {
      type: "refund",
      units: refund.walletPart,
      orderId: sql`${order.id}`,
      reason: `Refund of invoice ${invoice.serial ?? invoice.id}`,
    });
    plan
      .add(refundTx("wallet", "refunded", refund.walletPart, null))
      .event(transactionEventSql("transaction.refunded", ofRefund("wallet")));
  }
  return cardTx;
}
