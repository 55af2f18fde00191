import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { invoiceFontJson } from "../../scripts/invoice-font";
import { pagePng, SAMPLE_SELLER, sampleInput, sampleInvoice, samplePdf } from "../../scripts/render-invoice";
import { parsePdfFont } from "../../src/core/pdf/font";

/**
 * The invoice PDFs as a reader sees them: MuPDF opens both documents, extracts their text and
 * renders them (scripts/render-invoice.ts writes the same pictures to look at).
 */

type Line = { bbox: { x: number; y: number; w: number; h: number }; text: string };

function open(pdf: Uint8Array) {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  const page = doc.loadPage(0);
  const stext = page.toStructuredText("preserve-whitespace");
  const lines: Line[] = JSON.parse(stext.asJSON()).blocks.flatMap((b: { lines?: Line[] }) => b.lines ?? []);
  return { doc, page, text: stext.asText(), lines };
}

const lineWith = (lines: Line[], text: string) => {
  const found = lines.find((l) => l.text.includes(text));
  expect(found, `a line with "${text}"`).toBeDefined();
  return found!;
};

describe("invoice PDF, read back with MuPDF", () => {
  it("the English document is one A4 page whose text extracts, left aligned", () => {
    const { doc, page, text, lines } = open(samplePdf("en"));
    expect(doc.countPages()).toBe(1);
    const [x0, y0, x1, y1] = page.getBounds();
    expect([x1 - x0, y1 - y0].map(Math.round)).toEqual([595, 842]);
    for (const word of [
      "Simplified Tax Invoice",
      "INV-000042",
      "310122393500003",
      "Specialty coffee (large)",
      "Lemon cake",
      "Total incl. VAT",
      "115.00 SAR",
      "2026-01-05 12:30 GMT+3",
      "Thank you for your order.",
    ]) {
      expect(text).toContain(word);
    }
    expect(text).toContain(SAMPLE_SELLER);
    expect(lineWith(lines, "Simplified Tax Invoice").bbox.x).toBeLessThan(60);
  });

  it("the Arabic document extracts in Arabic (joined letters read back as words), right aligned", () => {
    const { text, lines } = open(samplePdf("ar"));
    for (const word of [
      "فاتورة ضريبية مبسطة",
      "رقم الفاتورة",
      "كيكة الليمون",
      "المبلغ المدفوع",
      "INV-000042",
      "115.00 SAR",
    ]) {
      expect(text).toContain(word);
    }
    const title = lineWith(lines, "فاتورة ضريبية مبسطة");
    // Right to left: the title ends at the right margin (595 − 40).
    expect(title.bbox.x + title.bbox.w).toBeGreaterThan(545);
    expect(title.bbox.x).toBeGreaterThan(300);
    // The labels too start at the right margin; in English they start at the left one.
    const label = lineWith(lines, "رقم الفاتورة");
    expect(label.bbox.x + label.bbox.w).toBeGreaterThan(545);
    expect(lineWith(open(samplePdf("en")).lines, "Invoice number").bbox.x).toBeLessThan(60);
  });

  it("the bilingual document: English labels at the left, Arabic at the right, the seller's CRN and address", () => {
    const { doc, text, lines } = open(samplePdf("bilingual"));
    expect(doc.countPages()).toBe(1);
    for (const words of [
      "Simplified Tax Invoice",
      "فاتورة ضريبية مبسطة",
      "Specialty Coffee Co.",
      "شركة القهوة المختصة",
      "CR number",
      "السجل التجاري",
      "1010010000",
      "King Fahd Road 1234, Al Olaya, Riyadh 12211",
      "تاريخ الإصدار",
      "Specialty coffee (large)",
      "قهوة مختصة",
      "Total incl. VAT",
      "الإجمالي شامل الضريبة",
      "115.00 SAR",
      "Thank you for your order.",
      "الأسعار شاملة",
      "Page 1 of 1",
    ]) {
      expect(text).toContain(words);
    }
    expect(lineWith(lines, "Simplified Tax Invoice").bbox.x).toBeLessThan(60);
    expect(lineWith(lines, "Seller").bbox.x).toBeLessThan(60);
    // The Arabic labels end where the header ends, left of the QR code (595 − 40 − 110).
    for (const arabic of ["فاتورة ضريبية مبسطة", "البائع", "السجل التجاري"]) {
      const line = lineWith(lines, arabic);
      expect(line.bbox.x + line.bbox.w, arabic).toBeGreaterThan(430);
      expect(line.bbox.x + line.bbox.w, arabic).toBeLessThan(450);
    }
  });

  it("a standard invoice is titled Tax Invoice in both languages, a credit note Credit Note", () => {
    const standard = { ...sampleInput("bilingual"), transaction: "standard" as const };
    const { text } = open(samplePdf("bilingual", standard));
    expect(text).toContain("Tax Invoice");
    expect(text).toContain("فاتورة ضريبية");
    expect(text).not.toContain("Simplified");
    expect(text).not.toContain("مبسطة");
    const refund = { ...sampleInput("bilingual"), invoice: { ...sampleInvoice(), type: "refund" as const } };
    const credit = open(samplePdf("bilingual", refund)).text;
    expect(credit).toContain("Credit Note");
    expect(credit).toContain("إشعار دائن");
  });

  it("both render to PNG pictures of the page", () => {
    for (const lang of ["en", "ar", "bilingual"] as const) {
      const png = pagePng(samplePdf(lang), 1);
      expect([...png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
      expect(png.length).toBeGreaterThan(10_000);
    }
  });

  it("a long invoice runs onto more pages, each numbered", () => {
    const invoice = sampleInvoice();
    invoice.items = Array.from({ length: 60 }, (_, i) => ({
      ...invoice.items[0]!,
      id: i + 1,
      name_en: `Line ${i + 1}`,
    }));
    const pdf = samplePdf("en", { ...sampleInput("en"), invoice });
    const doc = mupdf.Document.openDocument(pdf, "application/pdf");
    expect(doc.countPages()).toBeGreaterThan(1);
    const last = doc
      .loadPage(doc.countPages() - 1)
      .toStructuredText("preserve-whitespace")
      .asText();
    expect(last).toContain(`Page ${doc.countPages()} of ${doc.countPages()}`);
    expect(last).toContain("Amount paid");
    const all = Array.from({ length: doc.countPages() }, (_, i) =>
      doc.loadPage(i).toStructuredText("preserve-whitespace").asText(),
    ).join("\n");
    for (const n of [1, 30, 60]) expect(all).toContain(`Line ${n}\n`);
  });
});

/** Words whose letters join as lam-alef (ﻻ, ﻷ), the ligatures a naive ToUnicode map gets wrong. */
const LAM_ALEF_WORDS = ["السلام", "الأصناف", "لا"];

/** An Arabic invoice whose second line is named with lam-alef words. */
function lamAlefPdf(): Uint8Array {
  const input = sampleInput("ar");
  input.invoice.items[1]!.name_ar = LAM_ALEF_WORDS.join(" ");
  return samplePdf("ar", input);
}

const hex4 = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")).join("");

/** The ToUnicode map of a PDF this writer made (one uncompressed stream of bfchar entries): code → text. */
function toUnicodeMap(pdf: Uint8Array): Map<string, string> {
  const text = new TextDecoder("latin1").decode(pdf);
  const cmap = /begincmap([\s\S]*?)endcmap/.exec(text);
  expect(cmap, "a ToUnicode CMap").not.toBeNull();
  const map = new Map<string, string>();
  for (const m of cmap![1]!.matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/g)) {
    map.set(m[1]!, String.fromCharCode(...m[2]!.match(/.{4}/g)!.map((h) => Number.parseInt(h, 16))));
  }
  return map;
}

describe("copying text from the Arabic invoice (ToUnicode)", () => {
  const font = parsePdfFont(JSON.parse(invoiceFontJson()));
  const gid = (cp: number) => hex4(String.fromCharCode(font.glyphs.get(cp)![0]));

  it("the CMap maps each lam-alef glyph to its two letters, in the order a reader reverses back", () => {
    const map = toUnicodeMap(lamAlefPdf());
    // Final lam-alef (سلام), lam-alef-hamza (الأصناف) and lam-alef (لا) standing alone: all drawn, all mapped.
    expect(map.get(gid(0xfefc))).toBe("\u0627\u0644");
    expect(map.get(gid(0xfef7))).toBe("\u0623\u0644");
    expect(map.get(gid(0xfefb))).toBe("\u0627\u0644");
    // A joined single letter maps to its base letter: initial seen, final meem.
    expect(map.get(gid(0xfeb3))).toBe("س");
    expect(map.get(gid(0xfee2))).toBe("م");
    // Every drawn code has a mapping that is not the fallback.
    const drawn = [...new TextDecoder("latin1").decode(lamAlefPdf()).matchAll(/<([0-9A-F]+)> Tj/g)].flatMap(
      (m) => m[1]!.match(/.{4}/g)!,
    );
    for (const code of drawn) expect(map.get(code), code).toBeDefined();
  });

  it("a run decoded through the CMap and read right to left is the Arabic text, letter for letter", () => {
    const pdf = lamAlefPdf();
    const map = toUnicodeMap(pdf);
    const runs = [...new TextDecoder("latin1").decode(pdf).matchAll(/<([0-9A-F]+)> Tj/g)].map((m) =>
      m[1]!
        .match(/.{4}/g)!
        .map((code) => map.get(code))
        .join(""),
    );
    // The item's name is one run of Arabic only: reading it right to left is reversing it.
    const name = LAM_ALEF_WORDS.join(" ");
    expect(runs.map((r) => [...r].reverse().join(""))).toContain(name);
    // And the labels: "تاريخ الإصدار" (lam-alef-hamza below) and "الإجمالي شامل الضريبة" (lam-alef).
    for (const label of ["تاريخ الإصدار", "الإجمالي شامل الضريبة"]) {
      expect(runs.map((r) => [...r].reverse().join(""))).toContain(label);
    }
  });

  it("MuPDF extracts the lam-alef words exactly", () => {
    const text = mupdf.Document.openDocument(lamAlefPdf(), "application/pdf")
      .loadPage(0)
      .toStructuredText("preserve-whitespace")
      .asText();
    for (const word of [...LAM_ALEF_WORDS, "تاريخ الإصدار", "الإجمالي شامل الضريبة", "الأسعار شاملة"]) {
      expect(text).toContain(word);
    }
    expect(text).not.toContain("السالم");
    expect(text).not.toContain("اإلصدار");
  });

  const pdftotext = (() => {
    try {
      execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!pdftotext)(
    "pdftotext (Poppler) extracts the lam-alef words exactly (skipped where pdftotext is not installed)",
    () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), "invoice-pdf-")), "ar.pdf");
      writeFileSync(file, lamAlefPdf());
      const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" })
        // Poppler marks right-to-left runs with embedding controls (U+202A–U+202E).
        .replace(/[\u202a-\u202e]/g, "");
      for (const word of [...LAM_ALEF_WORDS, "تاريخ الإصدار", "الإجمالي شامل الضريبة", "الأسعار شاملة"]) {
        expect(text).toContain(word);
      }
    },
  );
});
