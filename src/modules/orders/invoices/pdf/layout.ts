import type { PdfFont } from "../../../../core/pdf/font";
import { A4 } from "../../../../core/pdf/writer";
import type { PdfLang } from "../links";
import type { Word } from "./labels";
import { amount, formatDateTime, InvoicePage, type Label, M, W, word } from "./page";

export { formatDateTime } from "./page";

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
  /** The invoice's current QR: Phase 2's once its e-invoice is signed, else Phase 1's (or none). */
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
 * The invoice as an A4 PDF: title, seller (name, VAT number, CRN, address), serial and dates, the
 * customer, the lines (qty, unit price, excl. VAT, VAT, total), the totals, the ZATCA QR code and
 * the store's footer. The Arabic document is the English one mirrored: x positions are written
 * left to right and flipped. The bilingual one is the English one with every label in English at
 * the start of its span and Arabic at the end (a column's heading: English over Arabic), both
 * names of each line and both footers.
 */

/** The seller's national address as the store settings hold it (`seller_address`), written out here. */
type SellerAddress = { street: string; building_number: string; district: string; city: string; postal_code: string };

/** Text the store has in English and Arabic. */
export type Bilingual<T = string> = { en: T; ar: T };

export type InvoicePdfInput = {
  lang: PdfLang;
  invoice: InvoiceDocument;
  storeName: Bilingual;
  seller: {
    name: string | null;
    vatNumber: string | null;
    /** The commercial registration number. */
    crn: string | null;
    address: SellerAddress | null;
  };
  /** Standard (B2B, cleared) or simplified (B2C, reported): the title says which tax invoice it is. */
  transaction: "standard" | "simplified";
  footer: Bilingual<string | null>;
  /** IANA zone the dates are written in. */
  timezone: string;
};

const COLUMNS = {
  description: [M, M + 195],
  qty: [M + 195, M + 235],
  unit: [M + 235, M + 310],
  excl: [M + 310, M + 385],
  vat: [M + 385, M + 445],
  total: [M + 445, W - M],
} as const;

/** The gap between a bilingual heading's English and Arabic lines, and between a line's two names. */
const GAP = 10;

function tableHeader(l: InvoicePage, y: number): number {
  const [a, b] = l.span(M, W - M);
  const extra = l.both ? GAP : 0;
  l.doc.rect(l.page, a, y - 6 - extra / 2, b - a, 20 + extra, 0.93);
  const head = { size: 8.5, bold: true } as const;
  l.heading("description", COLUMNS.description[0] + 4, COLUMNS.description[1], y, head, GAP);
  for (const [key, w] of [
    ["qty", "qty"],
    ["unit", "unitPrice"],
    ["excl", "exclVat"],
    ["vat", "vat"],
    ["total", "total"],
  ] as const) {
    l.heading(w, COLUMNS[key][0], COLUMNS[key][1] - 4, y, { ...head, align: "end" }, GAP);
  }
  return y - 22 - extra;
}

/** A one-line address: "King Fahd Road 1234, Al Olaya, Riyadh 12211". */
const addressLine = (a: SellerAddress) => `${a.street} ${a.building_number}, ${a.district}, ${a.city} ${a.postal_code}`;

/** The title: a credit note, an invoice not yet issued, or a tax invoice (standard or simplified). */
function titleOf(input: InvoicePdfInput): Word {
  const inv = input.invoice;
  if (inv.type === "refund") return "creditNote";
  if (inv.serial === "-") return "invoice";
  return input.transaction === "standard" ? "taxInvoice" : "simplifiedTaxInvoice";
}

/** The rendered PDF's bytes. */
export function renderInvoicePdf(font: PdfFont, input: InvoicePdfInput): Uint8Array<ArrayBuffer> {
  const { invoice: inv, lang } = input;
  const l = new InvoicePage(font, lang);
  const t = l.t;
  const currency = inv.currency;
  const qrSide = 100;
  /** Where the header's texts end: left of the QR code. */
  const HEAD = W - M - qrSide - 10;
  // The bilingual document: the English footer at the left, the Arabic one at the right, under it.
  const footerTexts: [string | null, "start" | "end"][] = l.both
    ? [
        [input.footer.en, "start"],
        [input.footer.ar, "end"],
      ]
    : [[l.rtl ? input.footer.ar : input.footer.en, "start"]];
  const footers = footerTexts.flatMap(([text, align]) =>
    text
      ? l
          .wrap(text, 8, W - 2 * M)
          .slice(0, l.both ? 3 : 4)
          .map((line) => [line, align] as const)
      : [],
  );
  /** Where the content ends: above the footer and the page number. */
  const BOTTOM = M + 24 + footers.length * 11;
  let y = A4.height - M - 18;

  const title = titleOf(input);
  l.label(word(title), M, HEAD, y, { size: l.both ? 15 : 18, bold: true });
  y -= 20;
  const storeName = l.rtl ? input.storeName.ar : input.storeName.en;
  if (l.both) {
    l.put(input.storeName.en, M, (M + HEAD) / 2 - 3, y, { size: 11, gray: 0.25 });
    l.put(input.storeName.ar, (M + HEAD) / 2 + 3, HEAD, y, { size: 11, gray: 0.25, align: "end" });
  } else l.put(storeName, M, HEAD, y, { size: 12, gray: 0.25 });
  if (inv.zatca_qr) l.qr(inv.zatca_qr, W - M - qrSide, A4.height - M, qrSide);
  y -= 26;

  /** Label, value, and whether the value reads left to right whatever the language. */
  const s = input.seller;
  const rows: [Word, string | null, boolean?][] = [
    ["seller", s.name ?? storeName],
    ["vatNumber", s.vatNumber, true],
    ["crn", s.crn, true],
    ["address", s.address && addressLine(s.address)],
    ["serial", inv.serial, true],
    ["issued", inv.issued_at && formatDateTime(inv.issued_at, input.timezone), true],
    ["due", inv.status === "unpaid" && inv.due_at ? formatDateTime(inv.due_at, input.timezone) : null, true],
    ["status", l.both ? `${l.en(inv.status)} / ${l.ar(inv.status)}` : t(inv.status)],
    ["order", String(inv.order_id), true],
    ["original", inv.refunded_invoice?.serial ?? null, true],
    ["reason", inv.refund_reason],
    ["customer", inv.customer?.name ?? null],
    ["mobile", inv.customer ? `+${inv.customer.mobile_number}` : null, true],
  ];
  // Bilingual: English label, value, Arabic label across the header; else label then value.
  const [valueFrom, valueTo] = l.both ? [M + 95, HEAD - 110] : [M + 115, HEAD];
  for (const [w, value, ltr] of rows) {
    if (!value) continue;
    const lines = w === "address" ? l.wrap(value, 9.5, valueTo - valueFrom).slice(0, 2) : [value];
    if (l.both) {
      l.put(l.en(w), M, valueFrom - 5, y, { size: 9, gray: 0.4 });
      l.put(l.ar(w), valueTo + 5, HEAD, y, { size: 9, gray: 0.4, align: "end" });
    } else l.put(t(w), M, M + 110, y, { size: 9, gray: 0.4 });
    for (const line of lines) {
      l.put(line, valueFrom, valueTo, y, { size: 9.5, ltr });
      y -= 15;
    }
  }
  y = Math.min(y, A4.height - M - qrSide - 10) - 12;
  l.label((w) => `${w("amountsIn")} ${currency}`, M, W - M, y, { size: 8, gray: 0.4 });
  // The bilingual heading is a line taller.
  y -= l.both ? 24 : 18;

  y = tableHeader(l, y);
  const nameGap = l.both ? 11 : 0;
  for (const line of inv.items) {
    const voucher = line.voucher_discounts_amount > 0;
    const height = (voucher ? 28 : 18) + nameGap;
    if (y - height < BOTTOM) {
      l.page = l.doc.addPage();
      y = tableHeader(l, A4.height - M - 10);
    }
    const [from, to] = [COLUMNS.description[0] + 4, COLUMNS.description[1] - 6];
    l.put(lang === "ar" ? line.name_ar : line.name_en, from, to, y);
    if (l.both) l.put(line.name_ar, from, to, y - nameGap, { align: "end" });
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
      const text = (w: (x: Word) => string) => `${w("voucher")}: ${amount(line.voucher_discounts_amount)}`;
      l.label(text, COLUMNS.description[0] + 10, COLUMNS.description[1], y - 11 - nameGap, { size: 7.5, gray: 0.4 });
    }
    const [a, b] = l.span(M, W - M);
    l.doc.line(l.page, a, y - height + 12, b, y - height + 12);
    y -= height;
  }

  const paidWord: Word = inv.type === "refund" ? "amountRefunded" : inv.status === "paid" ? "amountPaid" : "amountDue";
  const row = (label: Label, value: number, strong = false): [Label, number, boolean][] => [[label, value, strong]];
  const totals = [
    ...row(word("subTotal"), inv.sub_total_amount),
    ...(inv.total_discounts_amount ? row(word("discounts"), -inv.total_discounts_amount) : []),
    ...(inv.shipping_amount ? row(word("shipping"), inv.shipping_amount) : []),
    ...(inv.setup_amount ? row(word("setup"), inv.setup_amount) : []),
    ...row(word("totalExclVat"), inv.total_amount_excluding_tax),
    ...row((w) => `${w("vatOf")} ${inv.tax_percentage}%`, inv.tax_amount),
    ...row(word("totalInclVat"), inv.total_amount, true),
    ...(inv.wallet_redeem_amount ? row(word("wallet"), -inv.wallet_redeem_amount) : []),
    ...row(word(paidWord), inv.total_amount_with_redeem, true),
  ];
  y -= 8;
  if (y - totals.length * 16 < BOTTOM) {
    l.page = l.doc.addPage();
    y = A4.height - M - 10;
  }
  // The bilingual labels need both languages' room.
  const x0 = W - M - (l.both ? 360 : 250);
  for (const [label, value, strong] of totals) {
    const style = { size: strong ? 10 : 9, bold: strong, gray: strong ? 0 : 0.3 };
    l.label(label, x0, W - M - 110, y, style);
    const money = `${amount(value)} ${currency}`;
    l.put(money, W - M - 110, W - M - 4, y, { ...style, gray: 0, align: "end", ltr: true });
    y -= strong ? 18 : 15;
  }

  l.doc.pages.forEach((page, i) => {
    l.page = page;
    footers.forEach(([text, align], j) => {
      l.put(text, M, W - M, M + 14 + (footers.length - 1 - j) * 11, { size: 8, gray: 0.35, align });
    });
    const number: Label = (w) => `${w("page")} ${i + 1} ${w("of")} ${l.doc.pages.length}`;
    l.label(number, M, W - M, M - 4, { size: 7.5, gray: 0.5, align: "end" });
  });

  const docTitle = l.both ? `${l.en(title)} / ${l.ar(title)}` : t(title);
  return l.doc.bytes({
    title: `${docTitle} ${inv.serial}`,
    createdAt: new Date().toISOString(),
    lang: l.both ? "ar" : lang,
  });
}
