import { and, or, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { containsText, inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { INVOICE_STATUSES, INVOICE_TYPES, invoices, PAYMENT_PROVIDERS } from "../tables";
import type { Invoice, InvoiceDetails } from "./schemas";
import { assembleInvoices, type InvoiceParts, type InvoiceViewOptions, invoicePartsSql, loadInvoices } from "./views";

type Links = Omit<InvoiceViewOptions, "withItems">;

/**
 * One search term: a substring of the serial, or of the customer's name, or (when the term looks
 * like a phone number) of their mobile number in the stored or the national form. The customers'
 * rows are matched by a subquery on their table's name, as the customers module searches them.
 * `containsText` (instr), never a LIKE pattern: D1 refuses patterns over 50 bytes.
 */
function searchInvoices(term: string) {
  const byCustomer = [containsText(sql`c.name`, term)];
  if (/^[\d\s+().-]+$/.test(term)) {
    const digits = term.replace(/\D/g, "").slice(/^\s*00/.test(term) ? 2 : 0);
    if (digits.length >= 2) {
      byCustomer.push(containsText(sql`c.mobile_number`, digits), containsText(sql`c.username`, digits));
    }
  }
  const where = or(
    containsText(invoices.serial, term),
    // Not correlated with the invoice (see List Orders' search): run once, not once per invoice.
    sql`${invoices.customerId} IN (SELECT c.id FROM customers c WHERE ${sql.join(byCustomer, sql` OR `)})`,
  )!;
  return { where, indexed: false };
}

export const INVOICE_LIST: ListSpec = {
  fields: {
    id: { column: invoices.id, kind: "integer" },
    serial: { column: invoices.serial, kind: "string", nullable: true },
    type: { column: invoices.type, kind: "string", values: INVOICE_TYPES },
    status: { column: invoices.status, kind: "string", values: INVOICE_STATUSES },
    order_id: { column: invoices.orderId, kind: "integer" },
    customer_id: { column: invoices.customerId, kind: "integer", nullable: true },
    refunded_invoice_id: { column: invoices.refundedInvoiceId, kind: "integer", nullable: true },
    payment_provider: { column: invoices.paymentProvider, kind: "string", values: PAYMENT_PROVIDERS, nullable: true },
    total_amount: { column: invoices.totalMinor, kind: "money" },
    issued_at: { column: invoices.issuedAt, kind: "datetime", nullable: true },
    due_at: { column: invoices.dueAt, kind: "datetime", nullable: true },
    created_at: { column: invoices.createdAt, kind: "datetime" },
  },
  search: searchInvoices,
  searchDescription:
    "Matches the serial or the customer's name (substring), or the customer's mobile number in any form " +
    "(`0534…`, `966534…`, `+966 53…`); may repeat, all terms must match.",
  defaultOrder: "-created_at",
  idColumn: invoices.id,
  // Invoices are never deleted: a voided one is a status the mirror keeps.
  sync: { modifiedAt: invoices.modifiedAt, softDeleted: false },
};

/** A page of the store's invoices (MO7), each as the Invoice object. */
export const listInvoices = (ctx: ServiceContext, q: ListQuery, links: Links): Promise<Page<Invoice>> =>
  pageOfInvoices(ctx, q, live(invoices, ctx.appId), links);

/** A page of the store's invoices of the orders `orderIds` (a meal subscription's, MM3), each as the Invoice object. */
export const listInvoicesOfOrders = (
  ctx: ServiceContext,
  orderIds: readonly number[],
  q: ListQuery,
  links: Links,
): Promise<Page<Invoice>> =>
  pageOfInvoices(ctx, q, and(live(invoices, ctx.appId), inList(invoices.orderId, orderIds))!, links);

/** The page and its invoices' parts (refunded invoices, QR setting, customers) in ONE statement. */
async function pageOfInvoices(ctx: ServiceContext, q: ListQuery, scope: SQL, links: Links): Promise<Page<Invoice>> {
  const now = nowIso();
  const { page, nested } = await listPageWith(ctx.db, q, { table: invoices, scope: () => scope }, (rows) =>
    invoicePartsSql(ctx.appId, sql`(SELECT id FROM ${rows})`, false, now),
  );
  const views = await assembleInvoices(ctx.appId, nested as InvoiceParts, { ...links, withItems: false }, now);
  return { ...page, results: page.results.flatMap((r) => views.get(r.id) ?? []) };
}

/** One invoice of the store with its lines and transactions; 404 `invoice_not_found`. */
export async function getInvoice(ctx: ServiceContext, id: number, links: Links): Promise<InvoiceDetails> {
  const found = (await loadInvoices(ctx, [id], { ...links, withItems: true })).get(id);
  if (!found) throw ApiError.notFound("invoice_not_found", `Invoice ${id}`);
  return found;
}

/**
 * The invoice's signed e-invoice (UBL 2.1 XML, as ZATCA receives it) and its file name. 404
 * `invoice_not_found`, `einvoice_not_found` (none: no serial, or not required), `signed_einvoice_not_found`
 * (issued, its signature a moment away). One statement.
 */
export async function signedEInvoice(ctx: ServiceContext, id: number): Promise<{ xml: string; filename: string }> {
  // The e-invoice by its table's name: its drizzle definition stays out of the API's bundle (docs/zatca.md).
  const einvoice = (column: "uuid" | "xml") =>
    sql<
      string | null
    >`(SELECT ${sql.raw(column)} FROM einvoices e WHERE e.invoice_id = invoices.id AND e.app_id = ${ctx.appId})`;
  const row = await ctx.db
    .select({
      serial: invoices.serial,
      zatcaStatus: invoices.zatcaStatus,
      standard: standardSql,
      uuid: einvoice("uuid"),
      xml: einvoice("xml"),
    })
    .from(invoices)
    .where(and(live(invoices, ctx.appId), sql`${invoices.id} = ${id}`))
    .get();
  if (!row) throw ApiError.notFound("invoice_not_found", `Invoice ${id}`);
  if (!row.uuid)
    throw new ApiError(
      404,
      "einvoice_not_found",
      `Invoice ${id} has no e-invoice: it has no serial yet, or the store had no e-invoicing unit when it was issued.`,
    );
  if (!row.xml)
    throw new ApiError(
      404,
      "signed_einvoice_not_found",
      `Invoice ${id}'s e-invoice is not signed yet (it is signed about a second after it is issued): retry shortly.`,
    );
  refuseUncleared(id, row);
  return { xml: row.xml, filename: `${row.serial ?? id}.xml` };
}

/** Whether the invoice (of `invoices`) is standard: its order names a VAT-registered buyer (B2B). */
export const standardSql = sql<number>`(SELECT o.buyer IS NOT NULL FROM orders o WHERE o.id = ${invoices.orderId})`;

/**
 * A standard invoice is shared only once ZATCA cleared it (or reported it, clearance being off):
 * its XML and PDF answer 409 until then (docs/zatca.md, "Where the signing runs").
 */
export function refuseUncleared(id: number, row: { zatcaStatus: string | null; standard: number | boolean | null }) {
  if (row.standard && (row.zatcaStatus === "pending" || row.zatcaStatus === "rejected"))
    throw ApiError.conflict(
      "einvoice_not_cleared",
      `Invoice ${id} is a standard tax invoice that ZATCA has ${row.zatcaStatus === "rejected" ? "rejected" : "not cleared yet"}: ` +
        "it is shared once cleared (see its `einvoice.messages`).",
    );
}
