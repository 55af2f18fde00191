import { and, eq, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { defineStateMachine } from "../../../core/state-machine";
import { nowIso } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { transactionEventSql } from "../events-sql";
import { readInvoiceConfig } from "../invoices/config";
import { addOrderRelease, orderLinesToRelease } from "../orders/service";
import { paidStatements } from "../payments/paid";
import { orders, PAYMENT_PROVIDERS, TRANSACTION_STATUSES, TRANSACTION_TYPES, transactions } from "../tables";
import type { Transaction } from "./schemas";

type Row = typeof transactions.$inferSelect;
type Status = Row["status"];

/**
 * A transaction's status. Card payments move by their gateway's callback, never by hand; the
 * merchant captures the payments only they can see arrive (a bank transfer, cash on delivery),
 * or declines a bank transfer that never came.
 */
export const transactionMachine = defineStateMachine<Status, "capture" | "decline">("The transaction", {
  pending: { capture: "captured" },
  pending_review: { capture: "captured", decline: "declined" },
  captured: {},
  failed: {},
  declined: {},
  refunded: {},
});

const MANUAL = new Set(["bank_transfer", "cash_on_delivery"]);
const allowedFor = (r: Row) =>
  r.type === "payment" && MANUAL.has(r.paymentProvider) ? transactionMachine.allowed(r.status) : [];

export const TRANSACTION_LIST: ListSpec = {
  fields: {
    id: { column: transactions.id, kind: "integer" },
    order_id: { column: transactions.orderId, kind: "integer" },
    invoice_id: { column: transactions.invoiceId, kind: "integer", nullable: true },
    type: { column: transactions.type, kind: "string", values: TRANSACTION_TYPES },
    status: { column: transactions.status, kind: "string", values: TRANSACTION_STATUSES },
    payment_provider: { column: transactions.paymentProvider, kind: "string", values: PAYMENT_PROVIDERS },
    amount: { column: transactions.amountMinor, kind: "money" },
    reference: { column: transactions.providerReference, kind: "string", nullable: true },
    created_at: { column: transactions.createdAt, kind: "datetime" },
  },
  defaultOrder: "-id",
  idColumn: transactions.id,
  sync: { modifiedAt: transactions.modifiedAt, softDeleted: false },
};

export function transactionView(r: Row): Transaction {
  return {
    id: r.id,
    app_id: r.appId,
    custom_fields: r.customFields ?? null,
    order_id: r.orderId,
    invoice_id: r.invoiceId,
    type: r.type,
    status: r.status,
    amount: toMajor(r.amountMinor),
    currency: r.currency,
    payment_provider: r.paymentProvider,
    payment_method: r.paymentMethod,
    gateway: r.gateway,
    reference: r.providerReference,
    provider_details: r.providerDetails ?? null,
    receipt: r.receiptUrl,
    reviewed_at: r.reviewedAt,
    decline_reason: r.declineReason,
    allowed_actions: allowedFor(r),
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

/** MO9 list. */
export async function listTransactions(ctx: ServiceContext, q: ListQuery): Promise<Page<Transaction>> {
  const page = await listPage(ctx.db, q, { table: transactions, scope: () => live(transactions, ctx.appId) });
  return { ...page, results: page.results.map(transactionView) };
}

async function findTransaction(ctx: ServiceContext, id: number): Promise<Row> {
  const row = await ctx.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), live(transactions, ctx.appId)))
    .get();
  if (!row) throw ApiError.notFound("transaction_not_found", `Transaction ${id}`);
  return row;
}

/** MO9 details. */
export const transactionDetails = async (ctx: ServiceContext, id: number) =>
  transactionView(await findTransaction(ctx, id));

function refuseUnlessManual(r: Row, action: "capture" | "decline") {
  if (r.type !== "payment" || !MANUAL.has(r.paymentProvider))
    throw ApiError.invalidTransition(
      `Transaction ${r.id} (${r.type}, ${r.paymentProvider})`,
      r.status,
      action === "capture" ? "captured by hand" : "declined by hand",
      [],
    );
  transactionMachine.next(r.status, action, `Transaction ${r.id}`);
}

const stillPending = (ctx: ServiceContext, id: number) =>
  abortUnless(
    ctx.db,
    sql`EXISTS (SELECT 1 FROM transactions WHERE id = ${id} AND status IN ('pending', 'pending_review'))`,
    "transaction-pending",
  );

/** The order of transaction `id`, as a subquery (the transaction is this store's: it is read beside it). */
const orderOfTransaction = (id: number) => sql`(SELECT order_id FROM transactions WHERE id = ${id})`;

/** The transaction's row read back in a write's batch, for the answer. */
const readBack = (ctx: ServiceContext, plan: BatchPlan, id: number) =>
  plan.read<Row>(ctx.db.select().from(transactions).where(eq(transactions.id, id)));

/**
 * MO10 Capture Bank Transfer (and cash on delivery): the transaction captured, its invoice paid
 * (serial assigned), its order completed, in one batch guarded on the transaction still pending.
 * Everything it reads is read at once (the order by subquery); the batch reads the answer back.
 */
export async function captureTransaction(ctx: ServiceContext, id: number): Promise<Transaction> {
  const [r, settings, invoiceConfig, order] = await Promise.all([
    findTransaction(ctx, id),
    readStoreSettings(ctx.db, ctx.appId),
    readInvoiceConfig(ctx.db, ctx.appId),
    ctx.db
      .select({ status: orders.status, kind: orders.kind })
      .from(orders)
      .where(sql`${orders.id} = ${orderOfTransaction(id)}`)
      .get(),
  ]);
  refuseUnlessManual(r, "capture");
  if (order?.status !== "pending")
    throw ApiError.invalidTransition(`Order ${r.orderId} of transaction ${id}`, order?.status ?? "gone", "paid", []);
  const at = nowIso();
  const paid = paidStatements(ctx, {
    orderId: sql`${r.orderId}`,
    kind: order.kind,
    at,
    settings,
    serialPrefix: invoiceConfig.serial_prefix,
    transactionId: sql`${id}`,
  });
  const plan = new BatchPlan(ctx.db)
    .add(
      stillPending(ctx, id),
      ctx.db.update(transactions).set({ reviewedAt: at }).where(eq(transactions.id, id)),
      ...paid.statements,
    )
    .event(...paid.events);
  const shown = readBack(ctx, plan, id);
  try {
    return transactionView((await plan.run(ctx.events)).rows(shown)[0]!);
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    // Either this transaction was settled meanwhile, or another payment paid the order first.
    const now = await findTransaction(ctx, id);
    if (now.status !== r.status) throw ApiError.invalidTransition(`Transaction ${id}`, now.status, "captured", []);
    const paidBy = await ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, r.orderId)).get();
    throw ApiError.invalidTransition(`Order ${r.orderId} of transaction ${id}`, paidBy?.status ?? "gone", "paid", []);
  }
}

/**
 * MO11 Decline Bank Transfer: the transfer never came. The transaction is declined and its order
 * cancelled in the same batch (its stock, voucher use and wallet redemption go back). The
 * transaction, its order and the order's lines are read at once; the batch reads the answer back.
 */
export async function declineTransaction(ctx: ServiceContext, id: number, reason: string): Promise<Transaction> {
  const [r, order, lines] = await Promise.all([
    findTransaction(ctx, id),
    ctx.db
      .select()
      .from(orders)
      .where(sql`${orders.id} = ${orderOfTransaction(id)}`)
      .get(),
    orderLinesToRelease(ctx, orderOfTransaction(id)),
  ]);
  refuseUnlessManual(r, "decline");
  const at = nowIso();
  const plan = new BatchPlan(ctx.db)
    .add(
      stillPending(ctx, id),
      ctx.db
        .update(transactions)
        .set({ status: "declined", declineReason: reason, reviewedAt: at, modifiedAt: at })
        .where(eq(transactions.id, id)),
    )
    .event(transactionEventSql("transaction.declined", sql`id = ${id}`));
  if (order?.status === "pending") await addOrderRelease(plan, ctx, order, "cancelled", at, lines);
  const shown = readBack(ctx, plan, id);
  try {
    return transactionView((await plan.run(ctx.events)).rows(shown)[0]!);
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    throw ApiError.invalidTransition(`Transaction ${id}`, (await findTransaction(ctx, id)).status, "declined", []);
  }
}
