/**
 * Writes the PDFs' font (invoices, shipping labels) into the static assets (`public/invoice-font/`, git-ignored): a
 * subset of IBM Plex Sans Arabic (a dev dependency, OFL: renamed, as the licence asks of a modified
 * version, with the licence beside it) with Latin, digits, punctuation, the Arabic letters and their
 * presentation forms, and the map the Worker lays text out with. The Worker
 * fetches it through the ASSETS binding when it renders a PDF, so the font never weighs on its
 * bundle. Runs with the docs assets (scripts/docs-assets.ts); alone: `npx tsx scripts/invoice-font.ts`.
 *
 * The file (`PdfFontFile` in src/core/pdf/font.ts) holds the subset TrueType
 * font deflated (it goes into the PDF as it is, with /FlateDecode), its metrics, and for each code
 * point the subset's glyph id and advance width. Glyph ids are the PDF's CIDs (CIDToGIDMap Identity).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import * as fontkit from "fontkit";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FONT_PACKAGE = "@expo-google-fonts/ibm-plex-sans-arabic";
const FONT_FILE = "400Regular/IBMPlexSansArabic_400Regular.ttf";
/** The asset's path under `public/`, as the Worker fetches it (PDF_FONT_PATH in src/core/pdf/font.ts). */
export const INVOICE_FONT_ASSET = "invoice-font/invoice-sans-v1.json";

/** What the invoices print: Latin (names, addresses), punctuation, the Arabic block and its presentation forms. */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2010, 0x2027],
  [0x2030, 0x203a],
  [0x20ac, 0x20ac],
  [0x2212, 0x2212],
  [0x0600, 0x06ff],
  [0xfb50, 0xfdff],
  [0xfe70, 0xfeff],
];

function writeIfChanged(file: string, content: string): boolean {
  try {
    if (readFileSync(file, "utf8") === content) return false;
  } catch {
    // a new file
  }
  writeFileSync(file, content);
  return true;
}

/** Builds the font file's JSON text. */
export function invoiceFontJson(): string {
  const require = createRequire(path.join(ROOT, "package.json"));
  const source = path.join(path.dirname(require.resolve(`${FONT_PACKAGE}/package.json`)), FONT_FILE);
  const font = fontkit.openSync(source) as fontkit.Font;
  const subset = font.createSubset();
  // It returns the glyph's id in the subset (the types say boolean).
  const include = subset.includeGlyph.bind(subset) as unknown as (glyph: fontkit.Glyph | number) => number;
  include(0); // .notdef first: glyph 0 of the subset
  const glyphs: Record<string, [number, number]> = {};
  const has = new Set(font.characterSet);
  for (const [from, to] of RANGES) {
    for (let cp = from; cp <= to; cp++) {
      if (!has.has(cp)) continue;
      const glyph = font.glyphForCodePoint(cp);
      if (!glyph.id) continue;
      const gid = include(glyph);
      glyphs[cp.toString(16)] = [gid, Math.round((glyph.advanceWidth * 1000) / font.unitsPerEm)];
    }
  }
  const ttf = Buffer.from(subset.encode());
  const scale = (v: number) => Math.round((v * 1000) / font.unitsPerEm);
  const bbox = font.bbox;
  return `${JSON.stringify({
    // A subset is a modified version: the OFL keeps the Reserved Font Name ("Plex") for the original.
    name: "InvoiceSans-Regular",
    ascent: scale(font.ascent),
    descent: scale(font.descent),
    capHeight: scale(font.capHeight),
    bbox: [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map(scale),
    length1: ttf.length,
    data: deflateSync(ttf, { level: 9 }).toString("base64"),
    glyphs,
  })}\n`;
}

/** Writes the font file and the font's licence (the OFL has it go with the font); returns whether either changed. */
export function buildInvoiceFont(assetsDir = path.join(ROOT, "public")): boolean {
  const file = path.join(assetsDir, INVOICE_FONT_ASSET);
  mkdirSync(path.dirname(file), { recursive: true });
  const require = createRequire(path.join(ROOT, "package.json"));
  const licence = readFileSync(
    path.join(path.dirname(require.resolve(`${FONT_PACKAGE}/package.json`)), "LICENSE_FONT"),
    "utf8",
  );
  const licenceChanged = writeIfChanged(path.join(path.dirname(file), "OFL.txt"), licence);
  return writeIfChanged(file, invoiceFontJson()) || licenceChanged;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const changed = buildInvoiceFont();
  process.stdout.write(`> invoice font: public/${INVOICE_FONT_ASSET} (${changed ? "updated" : "unchanged"})\n`);
}
