import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { decodeRows, intLiteral, rowsJson } from "../../../core/json-rows";
import { toMajor } from "../../../core/money";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import type { Db } from "../../../db/client";
import { customersFromJson, customersJson } from "../../customers";
import { assembleItems, itemsJson } from "../../items";
import { invoiceItems, invoices, transactions } from "../tables";
import { invoicePdfLink } from "./links";
import type { Invoice, InvoiceDetails, InvoiceEInvoice, InvoiceItem, InvoiceTransaction } from "./schemas";
import { zatcaQr } from "./zatca";

type InvoiceRow = typeof invoices.$inferSelect;
type InvoiceItemRow = typeof invoiceItems.$inferSelect;
type TransactionRow = typeof transactions.$inferSelect;

export type InvoiceViewOptions = {
  /** Scheme and host the PDF links start with (the request's origin). */
  origin: string;
  /** LINK_SIGNING_SECRET, which signs the PDF links. */
  secret: string;
  /** With the details' `items` and `transactions`. */
  withItems: boolean;
};

/** The serial an invoice shows: "-" until it has one. */
export const serialOf = (row: Pick<InvoiceRow, "serial">) => row.serial ?? "-";

/**
 * The invoice's QR content: only once it has a serial (paid, or a refund issued), when the store
 * keeps the QR on, and for a seller with a VAT number (a QR without one is no tax invoice's).
 */
export function qrOf(row: InvoiceRow, enabled: boolean): string | null {
  if (!enabled || !row.serial || !row.issuedAt || !row.sellerName || !row.vatNumber) return null;
  return zatcaQr({
    sellerName: row.sellerName,
    vatNumber: row.vatNumber,
    timestamp: row.issuedAt,
    totalMinor: row.totalMinor,
    vatMinor: row.taxMinor,
  });
}

const percent = (bp: number) => bp / 100;

/** What a view shows of an invoice's e-invoice (einvoices/tables.ts): never its XML, which is a download. */
type EInvoiceFields = {
  invoice_id: number;
  uuid: string;
  icv: number;
  invoice_hash: string | null;
  pih: string | null;
  qr: string | null;
  messages: InvoiceEInvoice["messages"];
};

/** The e-invoice fields of the invoices `ids` selects, as a JSON array: one scalar subquery. */
const einvoicesJson = (app: SQL, ids: SQL) =>
  sql`(SELECT json_group_array(json_object('invoice_id', invoice_id, 'uuid', uuid, 'icv', icv,
    'invoice_hash', invoice_hash, 'pih', pih, 'qr', qr, 'messages', json(zatca_messages)))
    FROM einvoices WHERE app_id = ${app} AND invoice_id IN ${ids})`;

function einvoiceView(r: InvoiceRow, e: EInvoiceFields): InvoiceEInvoice {
  return {
    uuid: e.uuid,
    icv: e.icv,
    invoice_hash: e.invoice_hash,
    pih: e.pih,
    // An e-invoice exists only for an invoice issued pending one; its status is the invoice's.
    zatca_status: r.zatcaStatus ?? "pending",
    messages: e.messages,
  };
}

function itemView(r: InvoiceItemRow, item: InvoiceItem["item"]): InvoiceItem {
  return {
    id: r.id,
    custom_fields: null,
    item,
    app_id: r.appId,
    created_at: r.createdAt,
    item_id: r.itemId,
    name_en: r.nameEn,
    name_ar: r.nameAr,
    refund_reason: r.refundReason,
    refunded_qty: r.refundedQty,
    amount: toMajor(r.amountMinor),
    qty: r.qty,
    net_amount: toMajor(r.amountMinor),
    voucher_discounts_amount: toMajor(r.voucherDiscountMinor),
    total_amount_excluding_tax: toMajor(r.totalExcludingTaxMinor),
    tax_percentage: percent(r.taxPercentageBp),
    tax_amount: toMajor(r.taxMinor),
    total_amount: toMajor(r.totalMinor),
    auto_renew: false,
    date: null,
    time: null,
    order_item: r.orderItemId,
    parent_invoice_item: r.parentInvoiceItemId,
  };
}

function transactionView(t: TransactionRow): InvoiceTransaction {
  return {
    id: t.id,
    custom_fields: t.customFields ?? null,
    invoice_id: t.invoiceId,
    type: t.type,
    status: t.status,
    amount: toMajor(t.amountMinor),
    currency: t.currency,
    payment_provider: t.paymentProvider,
    payment_method: t.paymentMethod,
    provider_reference: t.providerReference,
    provider_details: t.providerDetails ?? null,
    created_at: t.createdAt,
  };
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
}

type Links = { invoice_pdf_en: string; invoice_pdf_ar: string; invoice_pdf: string };

async function linksOf(opts: InvoiceViewOptions, appId: number, id: number): Promise<Links> {
  const [en, ar, bilingual] = await Promise.all([
    invoicePdfLink(opts.secret, opts.origin, appId, id, "en"),
    invoicePdfLink(opts.secret, opts.origin, appId, id, "ar"),
    invoicePdfLink(opts.secret, opts.origin, appId, id, "bilingual"),
  ]);
  return { invoice_pdf_en: en, invoice_pdf_ar: ar, invoice_pdf: bilingual };
}

function invoiceView(
  r: InvoiceRow,
  links: Links,
  refunded: { row: InvoiceRow; links: Links } | undefined,
  customer: Invoice["customer"],
  qrEnabled: boolean,
  einvoice: EInvoiceFields | undefined,
): Invoice {
  const net = r.subTotalMinor + r.shippingMinor + r.setupMinor;
  return {
    id: r.id,
    custom_fields: r.customFields ?? null,
    order_id: r.orderId,
    customer,
    ...links,
    serial: serialOf(r),
    refunded_invoice: refunded
      ? {
          id: refunded.row.id,
          serial: serialOf(refunded.row),
          issued_at: refunded.row.issuedAt,
          total_amount: toMajor(refunded.row.totalMinor),
          currency: refunded.row.currency,
          status: refunded.row.status,
          ...refunded.links,
          custom_fields: refunded.row.customFields ?? null,
        }
      : null,
    app_id: r.appId,
    created_at: r.createdAt,
    invoice_reference_id: refunded ? refunded.row.id : null,
    invoice_reference_serial: refunded ? serialOf(refunded.row) : null,
    type: r.type,
    status: r.status,
    refund_reason: r.refundReason,
    issued_at: r.issuedAt,
    due_at: r.dueAt,
    sub_total_amount: toMajor(r.subTotalMinor),
    shipping_amount: toMajor(r.shippingMinor),
    setup_amount: toMajor(r.setupMinor),
    net_amount: toMajor(net),
    sub_total_discounts_amount: toMajor(r.subTotalDiscountsMinor),
    shipping_discounts_amount: toMajor(r.shippingDiscountsMinor),
    total_discounts_amount: toMajor(r.subTotalDiscountsMinor + r.shippingDiscountsMinor),
    total_amount_excluding_tax: toMajor(r.totalExcludingTaxMinor),
    tax_percentage: percent(r.taxPercentageBp),
    tax_amount: toMajor(r.taxMinor),
    total_amount: toMajor(r.totalMinor),
    wallet_redeem_amount: toMajor(r.walletRedeemMinor),
    total_amount_with_redeem: toMajor(r.totalMinor - r.walletRedeemMinor),
    currency: r.currency,
    payment_method: r.paymentMethod,
    payment_provider: r.paymentProvider,
    is_auto_renewal: r.isAutoRenewal,
    invoice_provider: "internal",
    zatca_status: r.zatcaStatus,
    // Phase 2's QR once the e-invoice is signed, none while it waits; Phase 1's without an e-invoice.
    zatca_qr: einvoice ? einvoice.qr : qrOf(r, qrEnabled),
    invoice_error: null,
    modified_at: r.modifiedAt,
  };
}

/** The parts of an invoice view, as the columns of ONE statement (core/json-rows). */
const PARTS = ["rows", "refunded", "qr", "einvoices", "lines", "transactions", "customers"] as const;
type ItemPart = keyof ReturnType<typeof itemsJson>;
export type InvoiceParts = Record<(typeof PARTS)[number] | `item_${ItemPart}`, unknown>;

/**
 * The store's invoices that `ids` selects (a subquery: a list, or the id a batch's insert took), the
 * invoices they refund, the store's QR setting, and with `withItems` their lines, transactions and
 * full items, with their customers: scalar subqueries of ONE statement, to run alone or in a batch.
 */
export function invoicePartsRead(db: Db, appId: number, ids: SQL, withItems: boolean, now: string) {
  const parts = invoicePartsSql(appId, ids, withItems, now);
  const fields = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, sql<string | number | null>`${v}`]));
  return db.select(fields).from(apps).where(eq(apps.id, appId));
}

/** `invoicePartsRead`'s scalar subqueries, by part: a list's statement carries them (`listPageWith`). */
export function invoicePartsSql(appId: number, ids: SQL, withItems: boolean, now: string): Record<string, SQL> {
  const app = intLiteral(appId);
  // Nothing matches `0`: the lines and transactions only when the details are wanted.
  const detailed = withItems ? sql`1` : sql`0`;
  const items = withItems
    ? itemsJson(
        appId,
        sql`(SELECT item_id FROM invoice_items WHERE app_id = ${app} AND invoice_id IN ${ids} AND item_id IS NOT NULL)`,
        now,
      )
    : {};
  return {
    rows: rowsJson(invoices, and(live(invoices, appId), sql`${invoices.id} IN ${ids}`)!),
    refunded: rowsJson(
      invoices,
      and(
        eq(invoices.appId, appId),
        sql`${invoices.id} IN (SELECT refunded_invoice_id FROM invoices WHERE app_id = ${app} AND id IN ${ids})`,
      )!,
    ),
    qr: sql`(SELECT is_zatca_qr_enabled FROM invoice_config WHERE app_id = ${app})`,
    einvoices: einvoicesJson(app, ids),
    lines: rowsJson(
      invoiceItems,
      and(eq(invoiceItems.appId, appId), sql`${invoiceItems.invoiceId} IN ${ids}`, detailed)!,
      [asc(invoiceItems.id)],
    ),
    transactions: rowsJson(
      transactions,
      and(live(transactions, appId), sql`${transactions.invoiceId} IN ${ids}`, detailed)!,
      [asc(transactions.id)],
    ),
    customers: customersJson(appId, sql`(SELECT customer_id FROM invoices WHERE app_id = ${app} AND id IN ${ids})`),
    ...Object.fromEntries(Object.entries(items).map(([k, v]) => [`item_${k}`, v])),
  };
}

/**
 * The store's invoices of `ids` as the API shows them (with `items` and `transactions` when
 * `withItems`): one D1 statement (`invoicePartsRead`), whatever the number of ids. Ids of other
 * stores are absent from the map.
 */
export async function loadInvoices(
  ctx: ServiceContext,
  ids: readonly number[],
  opts: InvoiceViewOptions & { withItems: true },
): Promise<Map<number, InvoiceDetails>>;
export async function loadInvoices(
  ctx: ServiceContext,
  ids: readonly number[],
  opts: InvoiceViewOptions & { withItems: false },
): Promise<Map<number, Invoice>>;
export async function loadInvoices(
  ctx: ServiceContext,
  ids: readonly number[],
  opts: InvoiceViewOptions,
): Promise<Map<number, Invoice | InvoiceDetails>> {
  if (ids.length === 0) return new Map();
  const now = nowIso();
  const wanted = sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`;
  const [parts] = await invoicePartsRead(ctx.db, ctx.appId, wanted, opts.withItems, now);
  return assembleInvoices(ctx.appId, parts as InvoiceParts | undefined, opts, now);
}

/** The invoices of the parts `invoicePartsRead` fetched, as the API shows them, by id. */
export async function assembleInvoices(
  appId: number,
  parts: InvoiceParts | undefined,
  opts: InvoiceViewOptions,
  now: string,
): Promise<Map<number, Invoice | InvoiceDetails>> {
  const out = new Map<number, Invoice | InvoiceDetails>();
  // JSON text as a statement gives it, or already parsed (a list's nested parts).
  const json = (k: keyof InvoiceParts) => {
    const v = parts?.[k];
    return typeof v === "string" ? JSON.parse(v) : (v ?? []);
  };
  const rows = decodeRows(invoices, json("rows"));
  const refundedRows = decodeRows(invoices, json("refunded"));
  const einvoiceOf = new Map((json("einvoices") as EInvoiceFields[]).map((e) => [e.invoice_id, e]));
  const qrEnabled = parts?.qr === null || parts?.qr === undefined ? true : Boolean(parts.qr);
  const lineRows = decodeRows(invoiceItems, json("lines"));
  const txRows = decodeRows(transactions, json("transactions"));
  const customers = customersFromJson(json("customers"));
  const itemIds = lineRows.flatMap((l) => (l.itemId === null ? [] : [l.itemId]));
  const itemParts = Object.fromEntries(
    Object.keys(parts ?? {})
      .filter((k) => k.startsWith("item_"))
      .map((k) => [k.slice(5), json(k as keyof InvoiceParts)]),
  ) as Record<ItemPart, unknown>;
  const items = opts.withItems ? assembleItems(itemParts, itemIds, now) : new Map();
  const refundedById = new Map(refundedRows.map((r) => [r.id, r]));
  const linesOf = groupBy(lineRows, (l) => l.invoiceId);
  const txOf = groupBy(txRows, (t) => t.invoiceId);
  await Promise.all(
    rows.map(async (r) => {
      const refundedRow = r.refundedInvoiceId === null ? undefined : refundedById.get(r.refundedInvoiceId);
      const [links, refundedLinks] = await Promise.all([
        linksOf(opts, appId, r.id),
        refundedRow ? linksOf(opts, appId, refundedRow.id) : undefined,
      ]);
      const refunded = refundedRow && refundedLinks ? { row: refundedRow, links: refundedLinks } : undefined;
      const customer = r.customerId === null ? null : (customers.get(r.customerId) ?? null);
      const einvoice = einvoiceOf.get(r.id);
      const view = invoiceView(r, links, refunded, customer, qrEnabled, einvoice);
      out.set(
        r.id,
        opts.withItems
          ? {
              ...view,
              einvoice: einvoice ? einvoiceView(r, einvoice) : null,
              items: (linesOf.get(r.id) ?? []).map((l) =>
                itemView(l, l.itemId === null ? null : (items.get(l.itemId) ?? null)),
              ),
              transactions: (txOf.get(r.id) ?? []).map(transactionView),
            }
          : view,
      );
    }),
  );
  return out;
}
