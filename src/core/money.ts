/**
 * Money is stored as integer minor units (halalas, cents) and served as numbers in major units.
 * Every currency this API serves has two decimal places. Amounts are read by `minorOfMajor` alone,
 * through core/fields' `hundredths` (bodies) and `hundredthsOf` (list filters, kind-dependent fields).
 */
export const MINOR_PER_MAJOR = 100;

export const toMajor = (minor: number): number => minor / MINOR_PER_MAJOR;

/**
 * Decimal text of major units (`"19.99"`, at most 2 decimals, already checked as such) → minor
 * units, exactly; null when it is not that. For text only: a JSON number is read by `minorOfMajor`
 * (its string form of `1e-9` or `0.30000000000000004` is not decimal text).
 */
export function toMinor(text: string): number | null {
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const minor = Number(m[2]) * MINOR_PER_MAJOR + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -minor : minor;
}

/**
 * A JSON number of major units → integer minor units; null when it denotes more decimals than
 * the currency has (`decimals`), or is not finite or too large. Binary float noise is not a decimal
 * the client meant (`0.1 + 0.2` arrives as 0.30000000000000004): a number within a few units in the
 * last place of a whole count of minor units is that count. Never through the number's string form.
 */
export function minorOfMajor(major: number, decimals = 2): number | null {
  if (!Number.isFinite(major)) return null;
  const scaled = major * 10 ** decimals;
  const minor = Math.round(scaled);
  if (!Number.isSafeInteger(minor)) return null;
  // The error of one decimal-to-binary conversion and one multiplication: a few ulps of `scaled`.
  const tolerance = Math.max(Math.abs(scaled), 1) * Number.EPSILON * 4;
  return Math.abs(scaled - minor) <= tolerance ? minor + 0 : null;
}
