import { correction, generate } from "lean-qr/nano";
import { visualOrder } from "../../../../core/pdf/arabic";
import type { PdfFont } from "../../../../core/pdf/font";
import { A4, PdfDocument, type PdfPage } from "../../../../core/pdf/writer";
import type { PdfLang } from "../links";
import { type Word, wordsFor } from "./labels";

/**
 * The drawing the invoice PDFs share: spans that a right-to-left document mirrors, text fitted to
 * its span, labels in the document's language or, in the bilingual document, English at the start
 * of the span and Arabic at its end, and the QR code.
 */

export const M = 40;
export const W = A4.width;

type Align = "start" | "end";
/** `ltr`: a value written left to right whatever the document (numbers, codes, dates); else its first letter decides. */
export type Style = { size?: number; gray?: number; bold?: boolean; align?: Align; ltr?: boolean };

/** A label's text from the words of one language (`${t("vatOf")} 15%`). */
export type Label = (t: (w: Word) => string) => string;
export const word =
  (w: Word): Label =>
  (t) =>
    t(w);

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const amount = (v: number) => money.format(v);

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

export class InvoicePage {
  readonly doc: PdfDocument;
  /** The Arabic document: laid out mirrored. */
  readonly rtl: boolean;
  /** The bilingual document: laid out left to right, every label in English and Arabic. */
  readonly both: boolean;
  /** The words of the document's language (English in the bilingual one, beside `ar`). */
  readonly t: (w: Word) => string;
  readonly en = wordsFor("en");
  readonly ar = wordsFor("ar");
  page: PdfPage;

  constructor(font: PdfFont, lang: PdfLang) {
    this.doc = new PdfDocument(font);
    this.rtl = lang === "ar";
    this.both = lang === "bilingual";
    this.t = this.rtl ? this.ar : this.en;
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

  /**
   * A label across the span: in the document's language where `style.align` puts it; in the
   * bilingual document English at the start and Arabic at the end, side by side, each in half the span.
   */
  label(text: Label, x0: number, x1: number, y: number, style: Style = {}): void {
    if (!this.both) {
      this.put(text(this.t), x0, x1, y, style);
      return;
    }
    const mid = (x0 + x1) / 2;
    this.put(text(this.en), x0, mid - 3, y, { ...style, align: "start" });
    this.put(text(this.ar), mid + 3, x1, y, { ...style, align: "end" });
  }

  /**
   * A column's heading in the span: one line in the document's language; in the bilingual document
   * English over Arabic (`lineGap` apart), both aligned alike.
   */
  heading(w: Word, x0: number, x1: number, y: number, style: Style, lineGap: number): void {
    if (!this.both) {
      this.put(this.t(w), x0, x1, y, style);
      return;
    }
    this.put(this.en(w), x0, x1, y + lineGap / 2, style);
    this.put(this.ar(w), x0, x1, y - lineGap / 2, style);
  }

  /** Words of `text` in lines of at most `max` points (logical order). */
  wrap(text: string, size: number, max: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = "";
      for (const part of paragraph.split(/\s+/).filter(Boolean)) {
        const next = line ? `${line} ${part}` : part;
        if (line && this.doc.width(visualOrder(next), size) > max) {
          lines.push(line);
          line = part;
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
