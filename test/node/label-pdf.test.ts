import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { pagePng } from "../../scripts/render-invoice";
import { sampleLabel, sampleLabelPdf } from "../../scripts/render-label";
import { CODE128_PATTERNS, code128Values } from "../../src/core/pdf/code128";

/**
 * The shipping label as a reader and a scanner see it: MuPDF extracts the text of both languages,
 * and the barcode is read back from the rectangles the page draws, then decoded as Code 128 (the
 * checksum checked) to the tracking number. scripts/render-label.ts writes the same label as a PNG.
 */

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** The bars the page fills in one path (`0 g x y w h re … f`), as [x, width], left to right. */
function barsOf(pdf: Uint8Array): [number, number][] {
  const paths = [...latin1(pdf).matchAll(/(?:^|\n)0 g ((?:[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ re ?)+)f/g)];
  expect(paths).toHaveLength(1);
  const rects = [...paths[0]![1]!.matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re/g)].map((m) =>
    m.slice(1, 5).map(Number),
  );
  return rects.map(([x, , w]) => [x!, w!] as [number, number]).sort((a, b) => a[0] - b[0]);
}

/** A scanner's reading: element widths in modules, symbols by the table, the checksum, the code sets. */
function decodeCode128(bars: [number, number][]): string {
  const span = bars.at(-1)![0] + bars.at(-1)![1] - bars[0]![0];
  const narrowest = Math.min(...bars.map(([, w]) => w));
  // 11 modules a symbol and 13 for the stop.
  const symbols = Math.round((span / narrowest - 13) / 11);
  const module = span / (symbols * 11 + 13);
  const widths: number[] = [];
  bars.forEach(([x, w], i) => {
    widths.push(Math.round(w / module));
    const next = bars[i + 1];
    if (next) widths.push(Math.round((next[0] - x - w) / module));
  });
  expect(widths.reduce((a, b) => a + b, 0)).toBe(symbols * 11 + 13);
  const values: number[] = [];
  for (let i = 0; i < symbols; i++) {
    const pattern = widths.slice(i * 6, i * 6 + 6).join("");
    const value = CODE128_PATTERNS.indexOf(pattern);
    expect(value, `symbol ${i} (${pattern})`).toBeGreaterThanOrEqual(0);
    values.push(value);
  }
  expect(widths.slice(symbols * 6).join("")).toBe("2331112");
  const check = values.pop()!;
  expect(values.reduce((sum, v, k) => sum + v * Math.max(k, 1), 0) % 103, "checksum").toBe(check);
  let set = values[0] === 105 ? "C" : values[0] === 104 ? "B" : "?";
  expect(set).not.toBe("?");
  let out = "";
  for (const v of values.slice(1)) {
    if (v === 99) set = "C";
    else if (v === 100) set = "B";
    else if (set === "C") out += String(v).padStart(2, "0");
    else out += String.fromCharCode(v + 32);
  }
  return out;
}

function textOf(pdf: Uint8Array) {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  return { doc, page: doc.loadPage(0), text: doc.loadPage(0).toStructuredText("preserve-whitespace").asText() };
}

describe("Code 128", () => {
  it("the table: 106 symbols of 11 modules with an even bar width, a stop of 13, all distinct", () => {
    expect(CODE128_PATTERNS).toHaveLength(107);
    expect(new Set(CODE128_PATTERNS).size).toBe(107);
    for (const p of CODE128_PATTERNS.slice(0, 106)) {
      const w = [...p].map(Number);
      expect(w.reduce((a, b) => a + b, 0)).toBe(11);
      expect((w[0]! + w[2]! + w[4]!) % 2).toBe(0);
    }
    expect([...CODE128_PATTERNS[106]!].map(Number).reduce((a, b) => a + b, 0)).toBe(13);
  });

  it("digits go two a symbol through code set C; letters through B; the checksum weighs positions", () => {
    // (105 + 12·1 + 34·2 + 56·3) mod 103 = 44
    expect(code128Values("123456")).toEqual([105, 12, 34, 56, 44, 106]);
    // B: "A"=33 "B"=34 "C"=35: (104 + 33 + 68 + 105) mod 103 = 1
    expect(code128Values("ABC")).toEqual([104, 33, 34, 35, 1, 106]);
    // Four digits at the end switch to C; an odd run leaves its first digit in B.
    expect(code128Values("AB12345").slice(0, -2)).toEqual([104, 33, 34, 17, 99, 23, 45]);
    // Two digits inside a text stay in B.
    expect(code128Values("A12B").slice(0, -2)).toEqual([104, 33, 17, 18, 34]);
    expect(() => code128Values("")).toThrow();
    expect(() => code128Values("é")).toThrow();
  });
});

describe("shipping label PDF, read back", () => {
  it("is one A6 page whose text extracts in English and Arabic", () => {
    const { doc, page, text } = textOf(sampleLabelPdf());
    expect(doc.countPages()).toBe(1);
    const [x0, y0, x1, y1] = page.getBounds();
    // 105 x 148 mm in points.
    expect([x1 - x0, y1 - y0].map(Math.round)).toEqual([298, 420]);
    for (const words of [
      "Fast Riders Delivery",
      "توصيل فاست رايدرز",
      "Shipping label",
      "بوليصة شحن",
      "TO",
      "إلى",
      "سارة القحطاني",
      "Al Rawdah, Jeddah",
      "الروضة، جدة",
      "+966 53 450 1056",
      "Specialty Coffee Co. (Olaya branch)",
      "شركة القهوة المختصة",
      "Cash on delivery",
      // MuPDF reads a lam-alef ligature back reversed ("الاستلام" as "االستالم"): words without one.
      "الدفع عند",
      "الشحنة",
      "115.00 SAR",
      "#1042",
      "رقم الطلب",
      "FK00012345678",
    ]) {
      expect(text).toContain(words);
    }
  });

  it("the barcode decodes to the tracking number, checksum included, inside its quiet zones", () => {
    for (const tracking of ["FK00012345678", "1234567890", "AB-77-x9", "9"]) {
      const pdf = sampleLabelPdf({ ...sampleLabel(), tracking_number: tracking });
      const bars = barsOf(pdf);
      expect(decodeCode128(bars)).toBe(tracking);
      const narrowest = Math.min(...bars.map(([, w]) => w));
      expect(bars[0]![0]).toBeGreaterThanOrEqual(9.9 * narrowest);
      expect(bars.at(-1)![0] + bars.at(-1)![1]).toBeLessThanOrEqual(297.64 - 9.9 * narrowest);
    }
  });

  it("a prepaid label says so instead of an amount; long names are shortened, not overflowing", () => {
    const label = sampleLabel();
    const long = "Abdulrahman bin Mohammed bin Abdullah Al-Saud the Third of the Northern Branch";
    const pdf = sampleLabelPdf({
      ...label,
      cod_amount: 0,
      recipient: { ...label.recipient, name: { en: long, ar: long } },
    });
    const { text } = textOf(pdf);
    expect(text).toContain("Prepaid");
    expect(text).toContain("مدفوع مسبق");
    expect(text).not.toContain("Cash on delivery");
    expect(text).toContain("Abdulrahman bin Mohammed");
    // The ellipsis reads back as its compatibility form "...".
    expect(text).toMatch(/Abdulrahman bin Mohammed[^\n]*\.\.\.\n/);
    expect(text).not.toContain("Northern Branch");
  });

  it("the longest content stays on the page: the barcode gets shorter, still readable", () => {
    const label = sampleLabel();
    const long = "Abdulrahman bin Mohammed bin Abdullah Al-Saud of the Northern Branch Office";
    const longAr = "عبدالرحمن بن محمد بن عبدالله آل سعود من مكتب الفرع الشمالي الرئيسي";
    const address = "Building 1234, Prince Mohammed bin Abdulaziz Road, Al Andalus, behind the big mosque, gate 3";
    const party = {
      name: { en: long, ar: longAr },
      address: `${address} ${address}`,
      area: { en: "Al Rawdah District, Jeddah Governorate", ar: "حي الروضة، محافظة جدة الكبرى" },
      phone: "+966 53 450 1056",
    };
    const pdf = sampleLabelPdf({ ...label, sender: party, recipient: party });
    const page = mupdf.Document.openDocument(pdf, "application/pdf").loadPage(0);
    const lines: { bbox: { x: number; y: number; w: number; h: number } }[] = JSON.parse(
      page.toStructuredText("preserve-whitespace").asJSON(),
    ).blocks.flatMap((b: { lines?: unknown[] }) => b.lines ?? []);
    for (const { bbox } of lines) {
      expect(bbox.x).toBeGreaterThanOrEqual(0);
      expect(bbox.x + bbox.w).toBeLessThanOrEqual(298);
      expect(bbox.y).toBeGreaterThanOrEqual(0);
      expect(bbox.y + bbox.h).toBeLessThanOrEqual(420);
    }
    const bars = barsOf(pdf);
    expect(decodeCode128(bars)).toBe(label.tracking_number);
    const height = Number(latin1(pdf).match(/\n0 g [\d.]+ [\d.]+ [\d.]+ ([\d.]+) re/)![1]);
    expect(height).toBeLessThan(76);
    expect(height).toBeGreaterThanOrEqual(36);
  });

  it("a voided label says VOID in both languages, with the day, over its barcode", () => {
    const { text } = textOf(sampleLabelPdf({ ...sampleLabel(), voided: "2025-03-02" }));
    expect(text).toContain("VOID");
    expect(text).toContain("ملغاة");
    expect(text).toContain("Cancelled: do not use · 2025-03-02");
    expect(textOf(sampleLabelPdf()).text).not.toContain("VOID");
    // The white band is painted after the bars, across their middle.
    const ops = latin1(sampleLabelPdf({ ...sampleLabel(), voided: "2025-03-02" }));
    const bars = ops.search(/\n0 g (?:[\d.]+ ){4}re /);
    const band = ops.search(/\n1 g [\d.]+ [\d.]+ [\d.]+ [\d.]+ re f/);
    expect(bars).toBeGreaterThan(0);
    expect(band).toBeGreaterThan(bars);
  });

  it("renders to a PNG picture", () => {
    const png = pagePng(sampleLabelPdf(), 1);
    expect([...png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    expect(png.length).toBeGreaterThan(5_000);
  });
});
