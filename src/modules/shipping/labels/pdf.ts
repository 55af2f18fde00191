import { directionOf, visualOrder } from "../../../core/pdf/arabic";
import { CODE128_QUIET_ZONE, code128Bars, code128Modules } from "../../../core/pdf/code128";
import type { PdfFont } from "../../../core/pdf/font";
import { A6, PdfDocument, type PdfPage } from "../../../core/pdf/writer";

/**
 * A shipment's label as an A6 PDF (105 x 148 mm, the size courier printers take): the courier, the
 * tracking number as a Code 128 barcode, recipient and sender, the order reference and the amount
 * to collect. Every heading is in English (left) and Arabic (right); a name known in both languages
 * (a city, the store) is printed in both, a name known in one (a customer's) once, in its direction.
 */

/** A text in both languages; a value known in one language only has the same text twice. */
export type Bilingual = { en: string; ar: string };

export type LabelParty = {
  name: Bilingual;
  address: string | null;
  /** District and city, each in both languages. */
  area: Bilingual | null;
  phone: string | null;
};

/** What the label shows, free of the API's schemas so that a script can render one under Node. */
export type LabelDocument = {
  tracking_number: string;
  shipment_id: number;
  order_reference: string;
  courier: Bilingual;
  service: string | null;
  sender: LabelParty;
  recipient: LabelParty;
  /** In major units; 0 for a prepaid order. */
  cod_amount: number;
  currency: string;
  /** Kilograms, or null when unknown. */
  weight: number | null;
  packages: number;
  /** `YYYY-MM-DD`, the day the label was bought. */
  date: string;
  /** `YYYY-MM-DD`, the day its shipment was cancelled: the label is then marked VOID over its barcode. */
  voided?: string | null;
};

const W = A6.width;
const H = A6.height;
const M = 12;
const MID = W / 2;

const WORDS = {
  label: ["Shipping label", "بوليصة شحن"],
  to: ["TO", "إلى"],
  from: ["FROM", "من"],
  order: ["Order", "رقم الطلب"],
  cod: ["Cash on delivery", "الدفع عند الاستلام"],
  prepaid: ["Prepaid", "مدفوع مسبقاً"],
  weight: ["Weight", "الوزن"],
  pieces: ["Pieces", "عدد القطع"],
  date: ["Date", "التاريخ"],
  shipment: ["Shipment", "الشحنة"],
  void: ["VOID", "ملغاة"],
  voidNote: ["Cancelled: do not use", "ملغاة: لا تستخدم"],
} as const;
const en = (w: keyof typeof WORDS) => WORDS[w][0];
const ar = (w: keyof typeof WORDS) => WORDS[w][1];

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

type Style = { size: number; bold?: boolean; gray?: number };

class Label {
  readonly doc: PdfDocument;
  readonly page: PdfPage;

  constructor(font: PdfFont) {
    this.doc = new PdfDocument(font, A6);
    this.page = this.doc.addPage();
  }

  /** The visual text, shortened with "…" until it fits `max` points. */
  fit(text: string, size: number, max: number): string {
    const dir = directionOf(text, "ltr");
    let visual = visualOrder(text, dir);
    for (let n = text.length - 1; n > 0 && this.doc.width(visual, size) > max; n--) {
      visual = visualOrder(`${text.slice(0, n).trimEnd()}…`, dir);
    }
    return visual;
  }

  /** Draws `text` in [x0, x1] at baseline `y`: at the left, the right or the centre of the span. */
  put(text: string, x0: number, x1: number, y: number, style: Style, at: "left" | "right" | "center"): void {
    const visual = this.fit(text, style.size, x1 - x0);
    const w = this.doc.width(visual, style.size);
    const x = at === "left" ? x0 : at === "right" ? x1 - w : (x0 + x1 - w) / 2;
    this.doc.text(this.page, x, y, style.size, visual, { bold: style.bold, gray: style.gray });
  }

  /** A text in its own direction over the whole width: Arabic from the right, anything else from the left. */
  own(text: string, y: number, style: Style): void {
    this.put(text, M, W - M, y, style, directionOf(text, "ltr") === "rtl" ? "right" : "left");
  }

  /**
   * English at the left and Arabic at the right of one row when both fit in half the width, else
   * two rows; one text when both are the same. Returns the height used.
   */
  pair(text: Bilingual, y: number, style: Style, step: number): number {
    if (text.en === text.ar) {
      this.own(text.en, y, style);
      return step;
    }
    const half = MID - M - 4;
    if (
      this.doc.width(visualOrder(text.en), style.size) <= half &&
      this.doc.width(visualOrder(text.ar), style.size) <= half
    ) {
      this.put(text.en, M, MID - 4, y, style, "left");
      this.put(text.ar, MID + 4, W - M, y, style, "right");
      return step;
    }
    this.put(text.en, M, W - M, y, style, "left");
    this.put(text.ar, M, W - M, y - step, style, "right");
    return 2 * step;
  }

  /** Words of `text` in at most `lines` lines of the page's width, each in its direction. */
  wrapped(text: string, y: number, style: Style, step: number, lines: number): number {
    const out: string[] = [];
    let line = "";
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (line && this.doc.width(visualOrder(next), style.size) > W - 2 * M) {
        out.push(line);
        line = word;
      } else line = next;
    }
    if (line) out.push(line);
    const shown = out.slice(0, lines);
    // What does not fit goes on the last line, which `fit` shortens with "…".
    if (out.length > lines) shown[lines - 1] = out.slice(lines - 1).join(" ");
    shown.forEach((l, i) => {
      this.own(l, y - i * step, style);
    });
    return shown.length * step;
  }

  /** A heading row: English word at the left, Arabic at the right, small and grey. */
  heading(word: keyof typeof WORDS, y: number): void {
    const style = { size: 7, bold: true, gray: 0.4 };
    this.put(en(word), M, MID, y, style, "left");
    this.put(ar(word), MID, W - M, y, style, "right");
  }

  rule(y: number, width = 0.75, gray = 0): void {
    this.doc.line(this.page, M, y, W - M, y, width, gray);
  }

  /** One party: name, address, area and phone; returns the height used. */
  party(p: LabelParty, y: number, big: boolean): number {
    const top = y;
    y -= this.pair(p.name, y, { size: big ? 11 : 9, bold: true }, big ? 14 : 12);
    const line = { size: big ? 8.5 : 7.5 };
    const step = big ? 11 : 10;
    if (p.address) y -= this.wrapped(p.address, y, line, step, 2);
    if (p.area) y -= this.pair(p.area, y, line, step);
    if (p.phone) {
      this.put(p.phone, M, W - M, y, { ...line, bold: big }, "left");
      y -= step;
    }
    return top - y;
  }
}

/** The barcode's height in points: as tall as the page lets it be, never under the shortest a scanner reads well. */
const BARS_HEIGHT = { max: 76, min: 36 };

/** The rendered PDF's bytes. */
export function renderLabelPdf(font: PdfFont, label: LabelDocument): Uint8Array<ArrayBuffer> {
  let drawn = layout(font, label, BARS_HEIGHT.max);
  // Long names and addresses take rows: the barcode gives up what the page lacks.
  if (drawn.bottom < M) drawn = layout(font, label, Math.max(BARS_HEIGHT.min, BARS_HEIGHT.max - (M - drawn.bottom)));
  return drawn.doc.bytes({
    title: `${label.voided ? `${en("void")} ` : ""}${en("label")} ${label.tracking_number}`,
    createdAt: new Date().toISOString(),
    lang: "ar",
  });
}

/**
 * A voided label's mark: a white band with a heavy frame over the middle of the barcode (so that a
 * scanner no longer reads it) saying VOID in both languages, and a cross over the whole page.
 */
function voidMark(l: Label, barsY: number, barsHeight: number, day: string): void {
  l.doc.line(l.page, M, M, W - M, H - M, 1.5, 0);
  l.doc.line(l.page, M, H - M, W - M, M, 1.5, 0);
  const h = Math.min(barsHeight, 44);
  const y = barsY + (barsHeight - h) / 2;
  l.doc.rect(l.page, M, y, W - 2 * M, h, 1);
  for (const [x1, y1, x2, y2] of [
    [M, y, W - M, y],
    [M, y + h, W - M, y + h],
    [M, y, M, y + h],
    [W - M, y, W - M, y + h],
  ] as const)
    l.doc.line(l.page, x1, y1, x2, y2, 2.5, 0);
  l.put(en("void"), M + 6, MID, y + h - 22, { size: 20, bold: true }, "left");
  l.put(ar("void"), MID, W - M - 6, y + h - 22, { size: 20, bold: true }, "right");
  l.put(`${en("voidNote")} · ${day}`, M + 6, MID + 20, y + 7, { size: 7 }, "left");
  l.put(ar("voidNote"), MID + 20, W - M - 6, y + 7, { size: 7 }, "right");
}

/** Draws the label with bars `barsHeight` points tall; `bottom` is the lowest baseline drawn. */
function layout(font: PdfFont, label: LabelDocument, barsHeight: number): { doc: PdfDocument; bottom: number } {
  const l = new Label(font);
  let y = H - M - 11;

  // The courier, and what this is.
  y -= l.pair(label.courier, y, { size: 12, bold: true }, 14) - 14;
  y -= 11;
  l.put(label.service ? `${en("label")} · ${label.service}` : en("label"), M, MID, y, { size: 7, gray: 0.4 }, "left");
  l.put(ar("label"), MID, W - M, y, { size: 7, gray: 0.4 }, "right");
  y -= 7;
  l.rule(y, 1.2);

  // The barcode, as wide as the page allows (at most 2 points a module), and its text below it.
  const modules = code128Modules(label.tracking_number);
  const module = Math.min(2, (W - 2 * M) / modules);
  const left = (W - modules * module) / 2 + CODE128_QUIET_ZONE * module;
  y -= 8 + barsHeight;
  l.doc.squares(l.page, code128Bars(label.tracking_number, left, y, module, barsHeight));
  const barsY = y;
  y -= 13;
  l.put(label.tracking_number, M, W - M, y, { size: 11, bold: true }, "center");
  y -= 8;
  l.rule(y, 1.2);

  y -= 11;
  l.heading("to", y);
  y -= 14;
  y -= l.party(label.recipient, y, true);
  y += 4;
  l.rule(y, 0.5, 0.6);
  y -= 10;
  l.heading("from", y);
  y -= 12;
  y -= l.party(label.sender, y, false);
  y += 4;
  l.rule(y, 1.2);

  // The facts: label (English) | value | label (Arabic); the amount to collect stands out.
  const row = (word: keyof typeof WORDS, value: string, strong = false) => {
    const size = strong ? 10 : 8;
    if (strong) l.doc.rect(l.page, M, y - 5, W - 2 * M, size + 8, 0.88);
    l.put(en(word), M + 3, MID - 30, y, { size: strong ? 8 : 7, gray: strong ? 0 : 0.35 }, "left");
    l.put(value, MID - 30, MID + 30, y, { size, bold: true }, "center");
    l.put(ar(word), MID + 30, W - M - 3, y, { size: strong ? 8 : 7, gray: strong ? 0 : 0.35 }, "right");
    y -= strong ? 20 : 13;
  };
  y -= 16;
  const cod = label.cod_amount > 0;
  row(cod ? "cod" : "prepaid", cod ? `${money.format(label.cod_amount)} ${label.currency}` : "—", true);
  row("order", label.order_reference);
  row("shipment", String(label.shipment_id));
  if (label.weight !== null) row("weight", `${label.weight} kg`);
  row("pieces", String(label.packages));
  row("date", label.date);
  // Last, so that it lies over everything else.
  if (label.voided) voidMark(l, barsY, barsHeight, label.voided);
  // `row` stepped below the last baseline.
  return { doc: l.doc, bottom: y + 13 };
}
