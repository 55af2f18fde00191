import { correction, generate } from "lean-qr/nano";
import { visualOrder } from "../../../../core/pdf/arabic";
import type { PdfFont } from "../../../../core/pdf/font";
import { A4, PdfDocument, type PdfPage } from "../../../../core/pdf/writer";
import type { PdfLang } from "../links";
import { type Word, wordsFor } from "./labels";

/**
 * What the PDF shows of an invoice: the fields of the API's InvoiceDetails it reads (which satisfies
 * this type), kept free of the API's schemas so that a script can render one under Node.
 */
export type InvoiceDocument = {
  type: "invoice" | "refund";
  status: "unpaid" | "paid" | "void";
  serial: string;
  order_id: number;
  currency: string;
  issued_at: string | null;
  due_at: string | null;
  refund_reason: string | null;
  refunded_invoice: { serial: string } | null;
  customer: { name: string | null; mobile_number: string } | null;
  sub_total_amount: number;
  shipping_amount: number;
  setup_amount: number;
  total_discounts_amount: number;
  total_amount_excluding_tax: number;
  tax_percentage: number;
  tax_amount: number;
  total_amount: number;
  wallet_redeem_amount: number;
  total_amount_with_redeem: number;
  zatca_qr: string | null;
  items: {
    name_en: string;
    name_ar: string;
    qty: number;
    amount: number;
    voucher_discounts_amount: number;
    total_amount_excluding_tax: number;
    tax_amount: number;
    total_amount: number;
  }[];
};

/**
 * The invoice as an A4 PDF: seller, serial and dates, the customer, the lines (qty, unit price,
 * excl. VAT, VAT, total), the totals, the ZATCA QR code and the store's footer. The Arabic
 * document is the English one mirrored: x positions are written left to right and flipped.
 */

export type InvoicePdfInput = {
  lang: PdfLang;
  invoice: InvoiceDocument;
  storeName: string;
  sellerName: string | null;
  vatNumber: string | null;
  footer: string | null;
  /** IANA zone the dates are written in. */
  timezone: string;
};

const M = 40;
const W = A4.width;

type Align = "start" | "end";
/** `ltr`: a value written left to right whatever the document (numbers, codes, dates); else its first letter decides. */
type Style = { size?: number; gray?: number; bold?: boolean; align?: Align; ltr?: boolean };

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const amount = (v: number) => money.format(v);

/** `2026-01-05 12:30 GMT+3`, in the store's zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "shortOffset",
  });
  for (const p of format.formatToParts(new Date(iso))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

class Layout {
  readonly doc: PdfDocument;
  readonly rtl: boolean;
  readonly t: (w: Word) => string;
  page: PdfPage;

  constructor(font: PdfFont, lang: PdfLang) {
    this.doc = new PdfDocument(font);
    this.rtl = lang === "ar";
    this.t = wordsFor(lang);
    this.page = this.doc.addPage();
  }

  /** A span written left to right, where it is on this page. */
  span(x0: number, x1: number): [number, number] {
    return this.rtl ? [W - x1, W - x0] : [x0, x1];
  }

  /** The visual text, shortened with "…" until it fits `max` points. */
  fit(text: string, size: number, max: number, ltr = false): string {
    const dir = this.rtl && !ltr ? "rtl" : "ltr";
    let visual = visualOrder(text, dir);
    for (let n = text.length - 1; n > 0 && this.doc.width(visual, size) > max; n--) {
      visual = visualOrder(`${text.slice(0, n).trimEnd()}…`, dir);
    }
    return visual;
  }

  /** Draws `text` in the span [x0, x1], aligned to its start (right in Arabic) or end. */
  put(text: string, x0: number, x1: number, y: number, style: Style = {}): void {
    const size = style.size ?? 9;
    const [a, b] = this.span(x0, x1);
    const visual = this.fit(text, size, b - a, style.ltr);
    const width = this.doc.width(visual, size);
    const left = (style.align ?? "start") === "start" ? !this.rtl : this.rtl;
    this.doc.text(this.page, left ? a : b - width, y, size, visual, { gray: style.gray, bold: style.bold });
  }

  /** Words of `text` in lines of at most `max` points (logical order). */
  wrap(text: string, size: number, max: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = "";
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const next = line ? `${line} ${word}` : word;
        if (line && this.doc.width(visualOrder(next), size) > max) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      if (line) lines.push(line);
    }
    return lines;
  }

  /** The QR code's dark modules as squares, `side` points wide with its quiet zone, top at `top`. */
  qr(content: string, x0: number, top: number, side: number): void {
    const code = generate(content, { minCorrectionLevel: correction.M });
    const cell = side / (code.size + 8);
    const [left] = this.span(x0, x0 + side);
    const cells: [number, number, number, number][] = [];
    for (let y = 0; y < code.size; y++) {
      for (let x = 0; x < code.size; ) {
        if (!code.get(x, y)) {
          x++;
          continue;
        }
        let end = x;
        while (end < code.size && code.get(end, y)) end++;
        cells.push([left + (x + 4) * cell, top - (y + 5) * cell, (end - x) * cell, cell]);
        x = end;
      }
    }
    this.doc.squares(this.page, cells);
  }
}

const COLUMNS = {
  description: [M, M + 195],
  qty: [M + 195, M + 235],
  unit: [M + 235, M + 310],
  excl: [M + 310, M + 385],
  vat: [M + 385, M + 445],
  total: [M + 445, W - M],
} as const;

function tableHeader(l: Layout, y: number): number {
  const [a, b] = l.span(M, W - M);
  l.doc.rect(l.page, a, y - 6, b - a, 20, 0.93);
  const head = { size: 8.5, bold: true } as const;
  l.put(l.t("description"), COLUMNS.description[0] + 4, COLUMNS.description[1], y, head);
  for (const [key, word] of [
    ["qty", "qty"],
    ["unit", "unitPrice"],
    ["excl", "exclVat"],
    ["vat", "vat"],
    ["total", "total"],
  ] as const) {
    l.put(l.t(word), COLUMNS[key][0], COLUMNS[key][1] - 4, y, { ...head, align: "end" });
  }
  return y - 22;
}

/** The rendered PDF's bytes. */
export function renderInvoicePdf(font: PdfFont, input: InvoicePdfInput): Uint8Array<ArrayBuffer> {
  const { invoice: inv, lang } = input;
  const l = new Layout(font, lang);
  const t = l.t;
  const currency = inv.currency;
  const qrSide = 100;
  const footer = input.footer ? l.wrap(input.footer, 8, W - 2 * M).slice(0, 4) : [];
  /** Where the content ends: above the footer and the page number. */
  const BOTTOM = M + 24 + footer.length * 11;
  let y = A4.height - M - 18;

  const title = inv.type === "refund" ? t("creditNote") : inv.serial === "-" ? t("invoice") : t("taxInvoice");
  l.put(title, M, W - M - qrSide - 10, y, { size: 18, bold: true });
  y -= 20;
  l.put(input.storeName, M, W - M - qrSide - 10, y, { size: 12, gray: 0.25 });
  if (inv.zatca_qr) l.qr(inv.zatca_qr, W - M - qrSide, A4.height - M, qrSide);
  y -= 26;

  /** Label, value, and whether the value reads left to right whatever the language. */
  const rows: [Word, string | null, boolean?][] = [
    ["seller", input.sellerName ?? input.storeName],
    ["vatNumber", input.vatNumber, true],
    ["serial", inv.serial, true],
    ["issued", inv.issued_at && formatDateTime(inv.issued_at, input.timezone), true],
    ["due", inv.status === "unpaid" && inv.due_at ? formatDateTime(inv.due_at, input.timezone) : null, true],
    ["status", t(inv.status)],
    ["order", String(inv.order_id), true],
    ["original", inv.refunded_invoice?.serial ?? null, true],
    ["reason", inv.refund_reason],
    ["customer", inv.customer?.name ?? null],
    ["mobile", inv.customer ? `+${inv.customer.mobile_number}` : null, true],
  ];
  for (const [word, value, ltr] of rows) {
    if (!value) continue;
    l.put(t(word), M, M + 110, y, { size: 9, gray: 0.4 });
    l.put(value, M + 115, W - M - qrSide - 10, y, { size: 9.5, ltr });
    y -= 15;
  }
  y = Math.min(y, A4.height - M - qrSide - 10) - 12;
  l.put(`${t("amountsIn")} ${currency}`, M, W - M, y, { size: 8, gray: 0.4 });
  y -= 18;

  y = tableHeader(l, y);
  for (const line of inv.items) {
    const voucher = line.voucher_discounts_amount > 0;
    const height = voucher ? 28 : 18;
    if (y - height < BOTTOM) {
      l.page = l.doc.addPage();
      y = tableHeader(l, A4.height - M - 10);
    }
    const name = lang === "en" ? line.name_en : line.name_ar;
    l.put(name, COLUMNS.description[0] + 4, COLUMNS.description[1] - 6, y);
    const cells = {
      qty: String(line.qty),
      unit: amount(line.qty ? line.amount / line.qty : line.amount),
      excl: amount(line.total_amount_excluding_tax),
      vat: amount(line.tax_amount),
      total: amount(line.total_amount),
    } as const;
    for (const key of ["qty", "unit", "excl", "vat", "total"] as const) {
      l.put(cells[key], COLUMNS[key][0], COLUMNS[key][1] - 4, y, { align: "end", ltr: true });
    }
    if (voucher) {
      const text = `${t("voucher")}: ${amount(line.voucher_discounts_amount)}`;
      l.put(text, COLUMNS.description[0] + 10, COLUMNS.description[1], y - 11, { size: 7.5, gray: 0.4 });
    }
    const [a, b] = l.span(M, W - M);
    l.doc.line(l.page, a, y - height + 12, b, y - height + 12);
    y -= height;
  }

  const paidWord: Word = inv.type === "refund" ? "amountRefunded" : inv.status === "paid" ? "amountPaid" : "amountDue";
  const totals: [string, number, boolean][] = [
    [t("subTotal"), inv.sub_total_amount, false],
    ...(inv.total_discounts_amount
      ? [[t("discounts"), -inv.total_discounts_amount, false] as [string, number, boolean]]
      : []),
    ...(inv.shipping_amount ? [[t("shipping"), inv.shipping_amount, false] as [string, number, boolean]] : []),
    ...(inv.setup_amount ? [[t("setup"), inv.setup_amount, false] as [string, number, boolean]] : []),
    [t("totalExclVat"), inv.total_amount_excluding_tax, false],
    [`${t("vatOf")} ${inv.tax_percentage}%`, inv.tax_amount, false],
    [t("totalInclVat"), inv.total_amount, true],
    ...(inv.wallet_redeem_amount ? [[t("wallet"), -inv.wallet_redeem_amount, false] as [string, number, boolean]] : []),
    [t(paidWord), inv.total_amount_with_redeem, true],
  ];
  y -= 8;
  if (y - totals.length * 16 < BOTTOM) {
    l.page = l.doc.addPage();
    y = A4.height - M - 10;
  }
  const x0 = W - M - 250;
  for (const [label, value, strong] of totals) {
    l.put(label, x0, W - M - 110, y, { size: strong ? 10 : 9, bold: strong, gray: strong ? 0 : 0.3 });
    const money = `${amount(value)} ${currency}`;
    l.put(money, W - M - 110, W - M - 4, y, { size: strong ? 10 : 9, bold: strong, align: "end", ltr: true });
    y -= strong ? 18 : 15;
  }

  l.doc.pages.forEach((page, i) => {
    l.page = page;
    footer.forEach((text, j) => {
      l.put(text, M, W - M, M + 14 + (footer.length - 1 - j) * 11, { size: 8, gray: 0.35 });
    });
    const number = `${t("page")} ${i + 1} ${t("of")} ${l.doc.pages.length}`;
    l.put(number, M, W - M, M - 4, { size: 7.5, gray: 0.5, align: "end" });
  });

  return l.doc.bytes({ title: `${title} ${inv.serial}`, createdAt: new Date().toISOString(), lang });
}
