/**
 * Code 128 (ISO/IEC 15417), code sets B and C: a text of printable ASCII becomes symbol values
 * (start, data, checksum, stop) and the module widths of its bars and spaces. Runs of digits go
 * through code set C (two digits a symbol) when that is shorter; everything else through B.
 */

/** Bar, space, bar, space, bar, space widths in modules of values 0..105; 106 is the stop (seven elements). */
// biome-ignore format: ten a row, as the standard prints the table
export const CODE128_PATTERNS: readonly string[] = [
  "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
  "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
  "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
  "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
  "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
  "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
  "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
  "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
  "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
  "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
  "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
];

export const CODE128 = { codeC: 99, codeB: 100, startB: 104, startC: 105, stop: 106 } as const;

/** The quiet zone the symbol needs on each side, in modules. */
export const CODE128_QUIET_ZONE = 10;

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** How many digits follow from `i`. */
function digitRun(text: string, i: number): number {
  let j = i;
  while (isDigit(text[j])) j++;
  return j - i;
}

/**
 * The symbol values of `text`, start to stop, checksum included. Throws on a character outside
 * printable ASCII (code set B's range), or on an empty text.
 */
export function code128Values(text: string): number[] {
  if (!text) throw new Error("Code 128: nothing to encode");
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 32 || cp > 126) throw new Error(`Code 128: the character U+${cp.toString(16)} is not printable ASCII`);
  }
  const values: number[] = [];
  // Set C pays off for 4+ digits at the ends of the text, 6+ inside it (each switch costs a symbol).
  const worthC = (i: number, run: number) => run >= (i === 0 || i + run === text.length ? 4 : 6) || run === text.length;
  let set: "B" | "C";
  let i = 0;
  const leading = digitRun(text, 0);
  if (leading % 2 === 0 && leading >= 2 && worthC(0, leading)) {
    set = "C";
    values.push(CODE128.startC);
  } else {
    set = "B";
    values.push(CODE128.startB);
  }
  while (i < text.length) {
    const run = digitRun(text, i);
    if (set === "C") {
      if (run >= 2) {
        values.push(Number(text.slice(i, i + 2)));
        i += 2;
        continue;
      }
      set = "B";
      values.push(CODE128.codeB);
    }
    if (run >= 2 && worthC(i, run)) {
      // An odd run leaves its first digit in B, so that C takes whole pairs.
      if (run % 2) values.push(text.charCodeAt(i++) - 32);
      set = "C";
      values.push(CODE128.codeC);
      continue;
    }
    values.push(text.charCodeAt(i++) - 32);
  }
  const checksum = values.reduce((sum, v, k) => sum + v * Math.max(k, 1), 0) % 103;
  values.push(checksum, CODE128.stop);
  return values;
}

/** The widths of the symbol's elements in modules, alternately bar and space, starting with a bar. */
export function code128Widths(text: string): number[] {
  return code128Values(text).flatMap((v) => [...CODE128_PATTERNS[v]!].map(Number));
}

/**
 * The bars of `text` as rectangles [x, y, width, height], the symbol's left edge (after the quiet
 * zone) at `x`, `module` points a module.
 */
export function code128Bars(
  text: string,
  x: number,
  y: number,
  module: number,
  height: number,
): [number, number, number, number][] {
  const bars: [number, number, number, number][] = [];
  let at = x;
  code128Widths(text).forEach((w, k) => {
    if (k % 2 === 0) bars.push([at, y, w * module, height]);
    at += w * module;
  });
  return bars;
}

/** The symbol's width in modules, quiet zones included. */
export function code128Modules(text: string): number {
  return code128Widths(text).reduce((a, b) => a + b, 0) + 2 * CODE128_QUIET_ZONE;
}
