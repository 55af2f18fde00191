import { type SQL, sql } from "drizzle-orm";
import { rowEvent } from "../../core/events/outbox";
import { MINOR_PER_MAJOR } from "../../core/money";
import { invoices, orders, transactions } from "./tables";

/** Major units in SQL, for event data built inside a batch. */
const major = (column: string) => sql.raw(`CAST(${column} AS REAL) / ${MINOR_PER_MAJOR}`);

type OrderEvent =
  | "order.created"
  | "order.updated"
  | "order.paid"
  | "order.completed"
  | "order.cancelled"
  | "order.expired"
  | "order.refunded";

/** An order event from the order's row as the batch left it (ids, status and totals assigned in SQL). */
export const orderEventSql = (type: OrderEvent, orderId: SQL, extra: SQL = sql``) =>
  rowEvent(
    type,
    orders,
    sql`id = ${orderId}${extra}`,
    sql`json_object('id', id, 'customer_id', customer_id, 'status', status, 'payment_status', payment_status,
      'total_amount', ${major("total_minor")}, 'currency', currency)`,
  );

type InvoiceEvent = "invoice.created" | "invoice.paid" | "invoice.voided";

export const invoiceEventSql = (type: InvoiceEvent, where: SQL) =>
  rowEvent(type, invoices, where, sql`json_object('id', id, 'order_id', order_id, 'serial', serial)`);

type TransactionEvent =
  | "transaction.created"
  | "transaction.captured"
  | "transaction.failed"
  | "transaction.declined"
  | "transaction.refunded";

export const transactionEventSql = (type: TransactionEvent, where: SQL) =>
  rowEvent(
    type,
    transactions,
    where,
    sql`json_object('id', id, 'order_id', order_id, 'invoice_id', invoice_id, 'status', status,
      'amount', ${major("amount_minor")}, 'payment_provider', payment_provider)`,
  );
