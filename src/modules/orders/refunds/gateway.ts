import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { transactionEventSql } from "../events-sql";
import type { InvoiceParts } from "../invoices/views";
import { cardGatewayById } from "../payments/gateways/index";
import { GatewayRefused, GatewayUnavailable } from "../payments/provider";
import { invoices, orders, transactions } from "../tables";
import { type RefundLine, refundedQtyStatements } from "./lines";

/**
 * The card part, after the refund is reserved: the gateway refunds it (the transaction refunded),
 * refuses (everything the refund reserved is given back and its invoice voided), or does not
 * answer (the refund stays pending, blocking another of the order until it is settled). `shown`, a
 * read of the answer, runs in the batch that records the gateway's refund: its row is returned.
 */
export async function refundThroughGateway(
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
  shown?: BatchItem<"sqlite">,
): Promise<InvoiceParts | undefined> {
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
    const { results } = await emit(
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
      { after: shown ? [shown] : [] },
    );
    return shown ? (results[1] as InvoiceParts[])[0] : undefined;
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
      // The refunded invoice's lines given back (its modified_at moves), the credit note voided.
      ...(r.providerPart === r.amount
        ? [
            ...refundedQtyStatements(ctx.db, r.parts, -1, at),
            ctx.db.update(invoices).set({ status: "void", modifiedAt: at }).where(eq(invoices.id, r.refundInvoiceId)),
          ]
        : []),
    ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    throw ApiError.conflict("payment_failed", "The card gateway refused the refund; nothing was refunded by card.", {
      provider_message: error.message,
    });
  }
}
