import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { pagePng, SAMPLE_SELLER, sampleInput, sampleInvoice, samplePdf } from "../../scripts/render-invoice";

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

  it("both render to PNG pictures of the page", () => {
    for (const lang of ["en", "ar"] as const) {
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
