import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type BatchPlan, batchStatement } from "../../../core/batch-plan";
import { eventPayloadSql } from "../../../core/events/outbox";
import type { Db } from "../../../db/client";

/**
 * The chain's link taken in the batch that issues an invoice (docs/zatca.md, "The chain"): the
 * store's issuing unit's next counter (ICV) and the invoice's e-invoice row, pending its signature;
 * or `not_required` on the invoice when the store has no issuing unit. D1 runs a batch as one
 * transaction, so invoices issued at once get consecutive counters, and a batch that rolls back
 * takes its counter with it. The e-invoice code itself is not here: the API's bundle has no room
 * for it, and the signing runs in the webhooks' Worker (signer.ts), woken by `einvoice.sign`.
 */

/** The store's unit that issues its documents: the first active (or renewing) one. */
const issuingUnit = (appId: number) =>
  sql`(SELECT id FROM einvoice_units WHERE app_id = ${appId} AND status IN ('active', 'renewing') ORDER BY id LIMIT 1)`;

/** The invoice's `zatca_status` when it gets its serial: pending its e-invoice, or not required. */
export const zatcaStatusOnIssue = (appId: number): SQL =>
  sql`CASE WHEN ${issuingUnit(appId)} IS NOT NULL THEN 'pending' ELSE 'not_required' END`;

/**
 * After the statement that gave the invoice(s) `issued` (a condition on `invoices`, alias `i`) their
 * serial and `zatcaStatusOnIssue`: the counter taken, the e-invoice row, and the message that wakes
 * the signer after the commit (an outbox row, so that a crash after the commit loses no wake-up).
 * `uuid` is the document's KSA-1. One invoice per batch: a second one would take the same counter
 * and the unique (unit, icv) index would refuse the batch.
 */
export function einvoiceIssueStatements(
  db: Db,
  appId: number,
  issued: SQL,
  at: string,
  uuid: string = crypto.randomUUID(),
): { statements: BatchItem<"sqlite">[]; events: SQL[] } {
  const unit = issuingUnit(appId);
  // The invoices this batch issued that wait for their e-invoice row (none once it is written).
  const waiting = sql`FROM invoices i WHERE ${issued} AND i.app_id = ${appId} AND i.zatca_status = 'pending'
    AND NOT EXISTS (SELECT 1 FROM einvoices e WHERE e.invoice_id = i.id)`;
  const statements = [
    batchStatement(
      db,
      sql`UPDATE einvoice_units SET last_icv = last_icv + 1, modified_at = ${at}
        WHERE id = ${unit} AND EXISTS (SELECT 1 ${waiting})`,
    ),
    batchStatement(
      db,
      sql`INSERT INTO einvoices (app_id, invoice_id, unit_id, icv, uuid, created_at)
        SELECT ${appId}, i.id, u.id, u.last_icv, ${uuid}, ${at}
        FROM (SELECT i.id ${waiting}) i JOIN einvoice_units u ON u.id = ${unit}`,
    ),
  ];
  // Its id drawn once in a materialized CTE, as rowEvent's: the outbox row's key and its payload's.
  const wake = sql`SELECT * FROM (WITH r AS MATERIALIZED (
      SELECT 'evt_' || lower(hex(randomblob(16))) AS eid, e.app_id, e.unit_id FROM einvoices e
      JOIN invoices i ON i.id = e.invoice_id WHERE ${issued} AND e.app_id = ${appId} AND e.uuid = ${uuid})
    SELECT eid AS id, app_id, 'einvoice.sign' AS type,
      ${eventPayloadSql("einvoice.sign", sql`eid`, sql`app_id`, sql`json_object('unit_id', unit_id)`)} AS payload
    FROM r)`;
  return { statements, events: [wake] };
}

/** `einvoiceIssueStatements` added to a plan (a refund invoice's batch). */
export function addEInvoiceIssue(plan: BatchPlan, appId: number, issued: SQL, at: string): void {
  const { statements, events } = einvoiceIssueStatements(plan.db, appId, issued, at);
  plan.add(...statements).event(...events);
}
