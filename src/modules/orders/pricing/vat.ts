/**
 * Prices include VAT (DESIGN.md "Money"). A line's VAT is split out of its VAT-inclusive total,
 * rounded half up per line, and the excluding-tax part is what is left, so that the two always
 * add up to the total exactly: 10.33 at 15% → 8.98 + 1.35.
 */
export function vatSplit(totalMinor: number, vatBp: number): { excludingTaxMinor: number; taxMinor: number } {
  if (vatBp <= 0 || totalMinor === 0) return { excludingTaxMinor: totalMinor, taxMinor: 0 };
  // Integer arithmetic: total × 10000 / (10000 + bp), half up, never through a float's rounding.
  const numerator = totalMinor * 10_000;
  const denominator = 10_000 + vatBp;
  const excludingTaxMinor = Math.floor((2 * numerator + denominator) / (2 * denominator));
  return { excludingTaxMinor, taxMinor: totalMinor - excludingTaxMinor };
}
