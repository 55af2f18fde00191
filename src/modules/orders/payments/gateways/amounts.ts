import { MINOR_PER_MAJOR } from "../../../../core/money";

/**
 * Integer minor units as a major-unit decimal string ("1250" → "12.50"), by integer arithmetic:
 * never a float's noise ("10.049999…"), whatever the amount.
 */
export function majorDecimal(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount in minor units: ${minor}`);
  const digits = String(MINOR_PER_MAJOR).length - 1;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / MINOR_PER_MAJOR);
  const fraction = String(abs % MINOR_PER_MAJOR).padStart(digits, "0");
  return `${sign}${whole}.${fraction}`;
}
