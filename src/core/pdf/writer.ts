import { glyphText } from "./arabic";
import type { PdfFont } from "./font";

/**
 * A small PDF writer, just enough for an invoice or a shipping label: pages of text, lines, filled
 * rectangles, in one embedded font (a Type0 font over a TrueType CIDFont, Identity-H: a glyph id is
 * the code) with a ToUnicode map so that the text can be searched and copied. Text is given in
 * visual order (arabic.ts); coordinates are PDF points from the bottom left of the page.
 */

export type PageSize = { readonly width: number; readonly height: number };
export const A4: PageSize = { width: 595.28, height: 841.89 };
/** 105 x 148 mm, the common size of a courier's label. */
export const A6: PageSize = { width: 297.64, height: 419.53 };

/** The subset's tag in the font's name (six capitals, as the PDF format asks of a subset). */
const SUBSET_TAG = "INVFNT";

const num = (v: number) => {
  const s = v.toFixed(2);
  return s.replace(/\.?0+$/, "") || "0";
};
const hex4 = (v: number) => v.toString(16).toUpperCase().padStart(4, "0");

/** A text string of the PDF as UTF-16BE hex (`<FEFF…>`), whatever its characters. */
function pdfText(s: string): string {
  let out = "<FEFF";
  for (let i = 0; i < s.length; i++) out += hex4(s.charCodeAt(i));
  return `${out}>`;
}

export type Gray = number;

export class PdfPage {
  readonly ops: string[] = [];
}

export class PdfDocument {
  readonly pages: PdfPage[] = [];
  /** Glyph id → the text it stands for (the base letters of a presentation form: `glyphText`). */
  private readonly used = new Map<number, string>();
  private readonly fallback: [number, number];

  constructor(
    private readonly font: PdfFont,
    readonly size: PageSize = A4,
  ) {
    this.fallback = font.glyphs.get(0x3f) ?? [0, 500];
  }

  addPage(): PdfPage {
    const page = new PdfPage();
    this.pages.push(page);
    return page;
  }

  private glyph(cp: number): [number, number] {
    return this.font.glyphs.get(cp) ?? this.fallback;
  }

  /** The width of a visual-order text at `size` points. */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.glyph(ch.codePointAt(0)!)[1];
    return (w * size) / 1000;
  }

  /** Draws a visual-order text with its left end at `x`, its baseline at `y`; `bold` strokes the outlines too. */
  text(
    page: PdfPage,
    x: number,
    y: number,
    size: number,
    text: string,
    style: { gray?: Gray; bold?: boolean } = {},
  ): void {
    if (!text) return;
    let codes = "";
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const [gid] = this.glyph(cp);
      if (!this.used.has(gid)) this.used.set(gid, this.font.glyphs.has(cp) ? glyphText(ch) : "?");
      codes += hex4(gid);
    }
    const gray = num(style.gray ?? 0);
    const weight = style.bold ? `2 Tr ${gray} G ${num(size * 0.035)} w ` : "0 Tr ";
    page.ops.push(`BT ${gray} g ${weight}/F1 ${num(size)} Tf ${num(x)} ${num(y)} Td <${codes}> Tj ET`);
  }

  line(page: PdfPage, x1: number, y1: number, x2: number, y2: number, width = 0.5, gray: Gray = 0.75): void {
    page.ops.push(`${num(gray)} G ${num(width)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`);
  }

  rect(page: PdfPage, x: number, y: number, w: number, h: number, gray: Gray): void {
    page.ops.push(`${num(gray)} g ${num(x)} ${num(y)} ${num(w)} ${num(h)} re f`);
  }

  /** Black rectangles in one path (a QR code's dark modules, a barcode's bars): `cells` are [x, y, width, height]. */
  squares(page: PdfPage, cells: [number, number, number, number][]): void {
    if (!cells.length) return;
    page.ops.push(`0 g ${cells.map(([x, y, w, h]) => `${num(x)} ${num(y)} ${num(w)} ${num(h)} re`).join(" ")} f`);
  }

  private toUnicode(): string {
    const entries = [...this.used].sort(([a], [b]) => a - b);
    const blocks: string[] = [];
    for (let i = 0; i < entries.length; i += 100) {
      const chunk = entries.slice(i, i + 100);
      const lines = chunk.map(([gid, s]) => `<${hex4(gid)}> ${pdfText(s).replace("<FEFF", "<")}`);
      blocks.push(`${chunk.length} beginbfchar\n${lines.join("\n")}\nendbfchar`);
    }
    return [
      "/CIDInit /ProcSet findresource begin",
      "12 dict begin",
      "begincmap",
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
      "/CMapName /Adobe-Identity-UCS def",
      "/CMapType 2 def",
      "1 begincodespacerange",
      "<0000> <FFFF>",
      "endcodespacerange",
      ...blocks,
      "endcmap",
      "CMapName currentdict /CMap defineresource pop",
      "end",
      "end",
    ].join("\n");
  }

  /** The whole file. `title` goes in the document information; `createdAt` is an ISO instant. */
  bytes(meta: { title: string; createdAt: string; lang: string }): Uint8Array<ArrayBuffer> {
    const f = this.font;
    const enc = new TextEncoder();
    const chunks: Uint8Array[] = [];
    let length = 0;
    const offsets: number[] = [];
    const push = (b: Uint8Array) => {
      chunks.push(b);
      length += b.length;
    };
    const write = (s: string) => push(enc.encode(s));
    const object = (id: number, body: string, stream?: Uint8Array) => {
      offsets[id] = length;
      if (!stream) return write(`${id} 0 obj\n${body}\nendobj\n`);
      write(`${id} 0 obj\n${body.replace(/>>$/, ` /Length ${stream.length} >>`)}\nstream\n`);
      push(stream);
      write("\nendstream\nendobj\n");
    };

    // 1 catalog, 2 pages, 3 font, 4 CID font, 5 descriptor, 6 ToUnicode, 7 font file, 8 info, then page + content pairs.
    const pageIds = this.pages.map((_, i) => 9 + i * 2);
    const name = `/${SUBSET_TAG}+${f.name}`;
    const widths = [...this.used.keys()]
      .sort((a, b) => a - b)
      .map((gid) => `${gid} [${f.widths.get(gid) ?? 500}]`)
      .join(" ");
    const created = meta.createdAt.replace(/[-:T]/g, "").slice(0, 14);

    push(Uint8Array.of(0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a));
    object(1, `<< /Type /Catalog /Pages 2 0 R /Lang ${pdfText(meta.lang)} >>`);
    object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`);
    object(
      3,
      `<< /Type /Font /Subtype /Type0 /BaseFont ${name} /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 6 0 R >>`,
    );
    object(
      4,
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont ${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) ` +
        `/Supplement 0 >> /FontDescriptor 5 0 R /DW 500 /W [${widths}] /CIDToGIDMap /Identity >>`,
    );
    object(
      5,
      `<< /Type /FontDescriptor /FontName ${name} /Flags 4 /FontBBox [${f.bbox.join(" ")}] /ItalicAngle 0 ` +
        `/Ascent ${f.ascent} /Descent ${f.descent} /CapHeight ${f.capHeight} /StemV 80 /FontFile2 7 0 R >>`,
    );
    object(6, "<< >>", enc.encode(this.toUnicode()));
    object(7, `<< /Length1 ${f.length1} /Filter /FlateDecode >>`, f.deflated);
    object(8, `<< /Title ${pdfText(meta.title)} /Producer (commerce-meals-api) /CreationDate (D:${created}Z) >>`);
    this.pages.forEach((page, i) => {
      const id = pageIds[i]!;
      object(
        id,
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${this.size.width} ${this.size.height}] ` +
          `/Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`,
      );
      object(id + 1, "<< >>", enc.encode(page.ops.join("\n")));
    });

    const count = 9 + this.pages.length * 2;
    const xref = length;
    const rows = ["0000000000 65535 f "];
    for (let id = 1; id < count; id++) rows.push(`${String(offsets[id]).padStart(10, "0")} 00000 n `);
    write(
      `xref\n0 ${count}\n${rows.join("\n")}\ntrailer\n<< /Size ${count} /Root 1 0 R /Info 8 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    );

    const out = new Uint8Array(length);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
