/**
 * The PDFs' font (invoices, shipping labels): a subset of IBM Plex Sans Arabic (Latin and Arabic),
 * built by scripts/invoice-font.ts into the static assets and fetched through the ASSETS binding, so
 * that the Worker's bundle does not carry it. Parsed once per isolate.
 */
import { assetLoader } from "../assets";

/** The asset's path (INVOICE_FONT_ASSET in scripts/invoice-font.ts): a new font gets a new name. */
export const PDF_FONT_PATH = "/invoice-font/invoice-sans-v1.json";

/** The file as the build script writes it. Metrics are in thousandths of the font size. */
type PdfFontFile = {
  name: string;
  ascent: number;
  descent: number;
  capHeight: number;
  bbox: [number, number, number, number];
  /** The TrueType font's length before deflating. */
  length1: number;
  /** The subset TrueType font, deflated (zlib), base64. */
  data: string;
  /** Code point (hex) → [glyph id in the subset, advance width]. */
  glyphs: Record<string, [number, number]>;
};

export type PdfFont = Omit<PdfFontFile, "data" | "glyphs"> & {
  /** The deflated TrueType font, as the PDF embeds it (/FlateDecode). */
  deflated: Uint8Array;
  glyphs: Map<number, [number, number]>;
  /** Glyph id → advance width. */
  widths: Map<number, number>;
};

export function parsePdfFont(file: PdfFontFile): PdfFont {
  const glyphs = new Map<number, [number, number]>();
  const widths = new Map<number, number>();
  for (const [hex, g] of Object.entries(file.glyphs)) {
    glyphs.set(Number.parseInt(hex, 16), g);
    widths.set(g[0], g[1]);
  }
  const deflated = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
  const { data: _data, glyphs: _glyphs, ...metrics } = file;
  return { ...metrics, deflated, glyphs, widths };
}

/** The font, from the static assets; kept for the isolate's life. */
export const loadPdfFont = assetLoader(PDF_FONT_PATH, (json) => parsePdfFont(json as PdfFontFile));
