/**
 * Arabic text for a PDF, which draws glyphs left to right as given: each letter becomes its
 * presentation form by its place in the word (isolated, final, initial, medial; lam + alef one
 * ligature), then the line is put in visual order (a simplified Unicode bidi algorithm: Arabic runs
 * right to left, Latin and numbers left to right). Enough for invoices' one-line texts; not a text
 * layout engine (no embeddings, no explicit marks).
 */

/** The isolated presentation form and the number of forms (4: joins both sides, 2: only the right). */
const FORMS = new Map<number, [number, number]>();
{
  // U+0621..U+063A then U+0641..U+064A, whose forms follow each other from U+FE80.
  const counts = "122224242444442222444444444444444224";
  const letters = [
    ...Array.from({ length: 26 }, (_, i) => 0x621 + i),
    ...Array.from({ length: 10 }, (_, i) => 0x641 + i),
  ];
  let form = 0xfe80;
  letters.forEach((cp, i) => {
    const n = Number(counts[i]);
    FORMS.set(cp, [form, n]);
    form += n;
  });
  // The letters of Persian and Urdu names, in Presentation Forms-A.
  for (const [cp, isolated, n] of [
    [0x67e, 0xfb56, 4],
    [0x686, 0xfb7a, 4],
    [0x698, 0xfb8a, 2],
    [0x6a9, 0xfb8e, 4],
    [0x6af, 0xfb92, 4],
    [0x6cc, 0xfbfc, 4],
  ] as const) {
    FORMS.set(cp, [isolated, n]);
  }
}

/** Lam followed by these alefs is one ligature (isolated form; the final one follows it). */
const LAM = 0x644;
const LAM_ALEF = new Map([
  [0x622, 0xfef5],
  [0x623, 0xfef7],
  [0x625, 0xfef9],
  [0x627, 0xfefb],
]);
const TATWEEL = 0x640;

const isMark = (cp: number) =>
  (cp >= 0x610 && cp <= 0x61a) ||
  (cp >= 0x64b && cp <= 0x65f) ||
  cp === 0x670 ||
  (cp >= 0x6d6 && cp <= 0x6ed && cp !== 0x6dd && cp !== 0x6de && cp !== 0x6e5 && cp !== 0x6e6 && cp !== 0x6e9);

/** How many forms a letter has: 4 (dual-joining, or tatweel), 2 (right-joining), 0 (joins nothing). */
function joining(cp: number | undefined): number {
  if (cp === undefined) return 0;
  if (cp === TATWEEL) return 4;
  const f = FORMS.get(cp);
  return f && f[1] > 1 ? f[1] : 0;
}

/** A base character and the marks on it: bidi moves them together. */
type Cluster = number[];

/** The text's letters in their contextual forms, lam-alef joined, in logical order. */
export function shapeArabic(text: string): Cluster[] {
  const clusters: Cluster[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = clusters[clusters.length - 1];
    if (isMark(cp) && last) last.push(cp);
    else clusters.push([cp]);
  }
  const base = clusters.map((c) => c[0]!);
  const out: Cluster[] = [];
  for (let i = 0; i < clusters.length; i++) {
    const cp = base[i]!;
    const prevJoins = joining(base[i - 1]) === 4;
    const ligature = cp === LAM ? LAM_ALEF.get(base[i + 1] ?? 0) : undefined;
    if (ligature) {
      // The alef's marks go with the ligature.
      out.push([ligature + (prevJoins ? 1 : 0), ...clusters[i]!.slice(1), ...clusters[i + 1]!.slice(1)]);
      i++;
      continue;
    }
    const f = FORMS.get(cp);
    if (!f || f[1] === 1) {
      out.push(clusters[i]!);
      continue;
    }
    const right = prevJoins;
    const left = f[1] === 4 && joining(base[i + 1]) > 0;
    // Forms in order: isolated, final, initial, medial.
    const offset = right && left ? 3 : left ? 2 : right ? 1 : 0;
    out.push([f[0] + offset, ...clusters[i]!.slice(1)]);
  }
  return out;
}

type BidiClass = "L" | "R" | "EN" | "N";

/**
 * The text a drawn character stands for, as the PDF's ToUnicode map gives it: a presentation form
 * its base letters. A line is drawn in visual order, and readers (MuPDF, Poppler's pdftotext) give
 * a right-to-left run back by reversing its characters, a glyph's text included: a ligature of
 * right-to-left letters (lam-alef) is therefore written as its letters are seen, alef then lam, so
 * that the reversal restores "لا". Checked by extracting text (test/node/invoice-pdf.test.ts).
 */
export function glyphText(ch: string): string {
  const letters = [...ch.normalize("NFKC")];
  const rtl = letters.length > 1 && letters.every((c) => bidiClass(c.codePointAt(0)!) === "R");
  return rtl ? letters.reverse().join("") : letters.join("");
}

function bidiClass(cp: number): BidiClass {
  if (cp >= 0x30 && cp <= 0x39) return "EN";
  if ((cp >= 0x660 && cp <= 0x669) || (cp >= 0x6f0 && cp <= 0x6f9)) return "EN";
  if ((cp >= 0x590 && cp <= 0x8ff) || (cp >= 0xfb1d && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe)) return "R";
  if (
    (cp >= 0x41 && cp <= 0x5a) ||
    (cp >= 0x61 && cp <= 0x7a) ||
    (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7)
  )
    return "L";
  return "N";
}

const MIRROR = new Map([
  [0x28, 0x29],
  [0x29, 0x28],
  [0x5b, 0x5d],
  [0x5d, 0x5b],
  [0x7b, 0x7d],
  [0x7d, 0x7b],
  [0x3c, 0x3e],
  [0x3e, 0x3c],
  [0xab, 0xbb],
  [0xbb, 0xab],
]);
/** Separators that stay inside a number: 115.00, 2026-01-05, 10:30, 1,000, 3/4. */
const NUMBER_SEPARATORS = new Set([0x2e, 0x2c, 0x3a, 0x2f, 0x2d, 0x66b, 0x66c]);

/** European terminators: %, #, $, ‰, ٪, °, currency signs. */
const TERMINATORS = new Set([0x23, 0x24, 0x25, 0xa2, 0xa3, 0xa4, 0xa5, 0xb0, 0x2030, 0x20ac, 0x66a]);

/** The direction of the first strong letter (the paragraph's direction, UBA P2–P3), else `fallback`. */
export function directionOf(text: string, fallback: "ltr" | "rtl"): "ltr" | "rtl" {
  for (const ch of text) {
    const c = bidiClass(ch.codePointAt(0)!);
    if (c === "L") return "ltr";
    if (c === "R") return "rtl";
  }
  return fallback;
}

/**
 * The line as it is seen, left to right: shaped, then reordered (UBA W4/W5/W7, N1–N2, I1–I2, L2–L4
 * for one paragraph without explicit embeddings). `fallback` is the direction of a text without
 * letters (numbers, punctuation).
 */
export function visualOrder(text: string, fallback: "ltr" | "rtl" = "ltr"): string {
  const clusters = shapeArabic(text);
  const n = clusters.length;
  const base = directionOf(text, fallback) === "rtl" ? 1 : 0;
  const types = clusters.map((c) => bidiClass(c[0]!));
  // W4: one separator between two digits belongs to the number.
  for (let i = 1; i < n - 1; i++) {
    if (types[i] === "N" && NUMBER_SEPARATORS.has(clusters[i]![0]!) && types[i - 1] === "EN" && types[i + 1] === "EN")
      types[i] = "EN";
  }
  // W5: a terminator next to a number belongs to it (15%, $5).
  for (let i = 0; i < n; i++) {
    if (types[i] !== "N" || !TERMINATORS.has(clusters[i]![0]!)) continue;
    let j = i;
    while (j < n && types[j] === "N" && TERMINATORS.has(clusters[j]![0]!)) j++;
    if (types[i - 1] === "EN" || types[j] === "EN") for (let k = i; k < j; k++) types[k] = "EN";
    i = j;
  }
  // W7: a number after Latin (or at the start of a left-to-right line) is Latin.
  let strong: BidiClass = base ? "R" : "L";
  for (let i = 0; i < n; i++) {
    if (types[i] === "L" || types[i] === "R") strong = types[i]!;
    else if (types[i] === "EN" && strong === "L") types[i] = "L";
  }
  // N1–N2: neutrals between two of one direction take it (numbers count as right-to-left), else the line's.
  const dir = (t: BidiClass | undefined, edge: boolean): "L" | "R" | null =>
    t === undefined ? (edge ? (base ? "R" : "L") : null) : t === "L" ? "L" : t === "N" ? null : "R";
  for (let i = 0; i < n; ) {
    if (types[i] !== "N") {
      i++;
      continue;
    }
    let j = i;
    while (j < n && types[j] === "N") j++;
    const before = dir(types[i - 1], i === 0);
    const after = dir(types[j], j === n);
    const resolved: BidiClass = before !== null && before === after ? before : base ? "R" : "L";
    for (let k = i; k < j; k++) types[k] = resolved;
    i = j;
  }
  // I1–I2: the embedding levels.
  const levels = types.map((t) => (base ? (t === "R" ? 1 : 2) : t === "L" ? 0 : t === "R" ? 1 : 2));
  // L2: from the highest level down to 1, reverse every run at that level or higher.
  const order = clusters.map((_, i) => i);
  const max = Math.max(0, ...levels);
  for (let level = max; level >= 1; level--) {
    for (let i = 0; i < n; ) {
      if (levels[order[i]!]! < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < n && levels[order[j]!]! >= level) j++;
      const run = order.slice(i, j).reverse();
      order.splice(i, j - i, ...run);
      i = j;
    }
  }
  let out = "";
  for (const i of order) {
    const [first, ...marks] = clusters[i]!;
    // L4: mirrored brackets in right-to-left runs.
    const cp = levels[i]! % 2 ? (MIRROR.get(first!) ?? first!) : first!;
    out += String.fromCodePoint(cp, ...marks);
  }
  return out;
}
