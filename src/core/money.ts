/**
 * Money is stored as integer minor units (halalas, cents) and served as numbers in major units.
 * Every currency this API serves has two decimal places.
 */
export const MINOR_PER_MAJOR = 100;

export const toMajor = (minor: number): number => minor / MINOR_PER_MAJOR;

/** Major units (number or decimal string, at most 2 decimals) → minor units; null when not exact. */
export function toMinor(major: number | string): number | null {
  const s = typeof major === "number" ? String(major) : major.trim();
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const minor = Number(m[2]) * MINOR_PER_MAJOR + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -minor : minor;
}
