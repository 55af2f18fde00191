import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { makeServiceContext } from "../../../core/context";
import { emit, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { readStoreSettings } from "../../account";
import { transactionEventSql } from "../events-sql";
import { readInvoiceConfig } from "../invoices/config";
import { orders, transactions } from "../tables";
import { cardGatewayById } from "./gateways/index";
import { paidStatements } from "./paid";
import { type GatewayOutcome, GatewayRefused, GatewayUnavailable } from "./provider";

/** The store the outcome is for and its shard's database (a callback names its store: docs/shards.md). */
export type SettleDeps = { db: Db; appId: number; env: Env; waitUntil: (p: Promise<unknown>) => void };

export type SettleResult = {
  appId: number;
  orderId: number;
  transactionId: number;
  status: "captured" | "failed" | "unchanged";
};

/**
 * Applies a verified gateway outcome to the transaction with that (gateway, reference): captured →
 * the transaction, invoice and order paid in one batch; failed → the transaction failed (the order
 * stays pending and payable until it expires). Idempotent: a second callback for the same reference
 * changes nothing (the batch is guarded on the transaction still pending). null when no transaction
 * of the store has the reference. The store is the callback's (its signed `app_id`, or the field
 * MyFatoorah echoes): ids are unique per shard only, so the lookup is always the store's.
 *
 * A capture for an order that is no longer pending (paid by another payment, expired, cancelled)
 * is a second capture: recorded and given back. Two payments landing at once both read the order
 * pending; the "paid" batch is guarded on it, so the later one rolls back and is settled as second.
 */
export async function applyGatewayOutcome(deps: SettleDeps, outcome: GatewayOutcome): Promise<SettleResult | null> {
  const captured = outcome.status === "captured";
  // One round trip: the store is known before its transaction is, so a capture's settings come with it.
  const [found, settings, invoiceConfig] = await Promise.all([
    deps.db
      .select({ tx: transactions, order: { status: orders.status, kind: orders.kind } })
      .from(transactions)
      .leftJoin(orders, and(eq(orders.id, transactions.orderId), eq(orders.appId, transactions.appId)))
      .where(
        and(
          eq(transactions.appId, deps.appId),
          eq(transactions.gateway, outcome.gateway),
          eq(transactions.providerReference, outcome.reference),
        ),
      )
      .get(),
    captured ? readStoreSettings(deps.db, deps.appId) : undefined,
    captured ? readInvoiceConfig(deps.db, deps.appId) : undefined,
  ]);
  if (!found) return null;
  const { tx, order } = found;
  const result = (status: SettleResult["status"]): SettleResult => ({
    appId: tx.appId,
    orderId: tx.orderId,
    transactionId: tx.id,
    status,
  });
  // A failed attempt may be followed by a paid one (MyFatoorah's page lets the customer retry).
  const open = tx.status === "pending" || (tx.status === "failed" && outcome.status === "captured");
  if (!open) return result("unchanged");
  const ctx = makeServiceContext(deps.db, tx.appId, deps.env, deps.waitUntil);
  const at = nowIso();
  const pending = abortUnless(
    ctx.db,
    sql`EXISTS (SELECT 1 FROM transactions WHERE id = ${tx.id} AND status = ${tx.status})`,
    "transaction-pending",
  );
  const details = { ...(tx.providerDetails ?? {}), ...outcome.details };
  const record = ctx.db
    .update(transactions)
    .set({ providerDetails: details, paymentMethod: outcome.paymentMethod ?? tx.paymentMethod, modifiedAt: at })
    .where(eq(transactions.id, tx.id));
  try {
    if (outcome.status === "failed") {
      await emit(
        ctx.db,
        ctx.events,
        [
          pending,
          ctx.db
            .update(transactions)
            .set({ status: "failed", providerDetails: details, modifiedAt: at })
            .where(eq(transactions.id, tx.id)),
          ctx.db
            .update(orders)
            .set({ paymentStatus: "failed", modifiedAt: at })
            .where(and(eq(orders.id, tx.orderId), eq(orders.status, "pending"))),
        ],
        transactionEventSql("transaction.failed", sql`id = ${tx.id}`),
      );
      return result("failed");
    }
    if (order?.status === "pending" && settings && invoiceConfig) {
      const paid = paidStatements(ctx, {
        orderId: sql`${tx.orderId}`,
        kind: order.kind,
        at,
        settings,
        serialPrefix: invoiceConfig.serial_prefix,
        transactionId: sql`${tx.id}`,
      });
      try {
        await emit(ctx.db, ctx.events, [pending, record, ...paid.statements], unionEvents(paid.events));
        return result("captured");
      } catch (error) {
        // Either another callback for this payment applied it, or another payment paid the order
        // first: the batch below tells which by its own guards.
        if (!isGuardAbort(error)) throw error;
      }
    }
    const refundId = await recordSecondCapture(ctx, tx, [pending, record], outcome);
    await refundSecondCapture(ctx, deps.env, tx, refundId, outcome);
    return result("captured");
  } catch (error) {
    // Another callback for the same payment won the race: it applied the outcome.
    if (isGuardAbort(error)) return result("unchanged");
    throw error;
  }
}

type Ctx = ReturnType<typeof makeServiceContext>;

/**
 * A capture for an order that no longer takes it (paid by another payment, expired, cancelled):
 * the transaction captured and its whole refund opened (pending) in one batch, guarded on the
 * order not pending, so that a captured payment is never left without its way back, whatever the
 * interleaving. The order keeps its status; no `order.paid`, no serial. The refund's id.
 */
async function recordSecondCapture(
  ctx: Ctx,
  tx: typeof transactions.$inferSelect,
  guards: BatchItem<"sqlite">[],
  outcome: GatewayOutcome,
): Promise<number> {
  const at = nowIso();
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ...guards,
      abortUnless(
        ctx.db,
        sql`EXISTS (SELECT 1 FROM orders WHERE id = ${tx.orderId} AND status <> 'pending')`,
        "order-closed",
      ),
      ctx.db.update(transactions).set({ status: "captured" }).where(eq(transactions.id, tx.id)),
      ctx.db
        .insert(transactions)
        .values({
          appId: tx.appId,
          orderId: tx.orderId,
          invoiceId: tx.invoiceId,
          type: "refund",
          status: "pending",
          amountMinor: tx.amountMinor,
          currency: tx.currency,
          paymentProvider: "card",
          paymentMethod: outcome.paymentMethod ?? tx.paymentMethod,
          gateway: tx.gateway,
          declineReason: "Paid after the order was paid or closed: refunded automatically.",
          createdAt: at,
          modifiedAt: at,
        })
        .returning({ id: transactions.id }),
    ],
    transactionEventSql("transaction.captured", sql`id = ${tx.id}`),
  );
  return (results.at(-1) as { id: number }[])[0]!.id;
}

/**
 * Gives a second capture back through the gateway that took it: the refund opened with it becomes
 * refunded (or failed). If the gateway does not answer, or the Worker stops first, the refund stays
 * pending for the merchant to see in List Transactions (and retry through Refund Invoice's path).
 */
async function refundSecondCapture(
  ctx: Ctx,
  env: Env,
  tx: typeof transactions.$inferSelect,
  refundId: number,
  outcome: GatewayOutcome,
) {
  let status: "refunded" | "pending" | "failed" = "pending";
  let details: Record<string, unknown> = {};
  let reference: string | null = null;
  try {
    const r = await cardGatewayById(env, tx.gateway ?? "").refund({
      paymentReference: outcome.reference,
      amountMinor: tx.amountMinor,
      currency: tx.currency,
      reason: "The order was already paid or closed when this payment arrived.",
    });
    ({ status, details, reference } = r);
  } catch (error) {
    if (error instanceof GatewayRefused) status = "failed";
    else if (!(error instanceof GatewayUnavailable)) throw error;
    details = { error: (error as Error).message };
  }
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(transactions)
        .set({ status, providerReference: reference, providerDetails: details, modifiedAt: nowIso() })
        .where(and(eq(transactions.id, refundId), eq(transactions.status, "pending"))),
    ],
    transactionEventSql("transaction.refunded", sql`id = ${refundId} AND status = 'refunded'`),
  );
}
