import { now } from "./clock";

/** UTC timestamps as ISO 8601 with offset, as the spec shows date-times (from the one clock, core/clock.ts). */
export const nowIso = () => now().toISOString();

/**
 * The years a date or a date-time of a request may fall in. Nothing the service keeps (a delivery
 * day, a birthday, a voucher's validity) lies before 1900, and past 9999 the dates stop being
 * YYYY-MM-DD; year 0000 is no calendar year at all.
 */
export const YEAR_MIN = 1900;
export const YEAR_MAX = 9999;
const INSTANT_MIN = Date.UTC(YEAR_MIN, 0, 1);
const INSTANT_END = Date.UTC(YEAR_MAX + 1, 0, 1);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** HH:MM or HH:MM:SS, as `normaliseTime` accepts it. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * True for a day of the calendar within YEAR_MIN..YEAR_MAX. Checked field by field: `Date` would
 * roll 2026-02-30 over to March 2 rather than refuse it.
 */
function isRealDay(year: number, month: number, day: number): boolean {
  if (year < YEAR_MIN || year > YEAR_MAX || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True for a real calendar date in YYYY-MM-DD, in the years YEAR_MIN..YEAR_MAX. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Normalises HH:MM or HH:MM:SS to HH:MM:SS; null when malformed. */
export function normaliseTime(s: string): string | null {
  const m = TIME_OF_DAY.exec(s);
  return m ? `${m[1]}:${m[2]}:${m[3] ?? "00"}` : null;
}

/**
 * True for an ISO 8601 date-time with offset (`2026-03-01T09:30:00+03:00`, seconds and fractions
 * optional) naming a real day and time: hours 00-23, minutes and seconds 00-59, an offset of less
 * than 24 hours; and the instant falls in the years YEAR_MIN..YEAR_MAX in UTC too.
 */
export function isIsoDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !isRealDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  const [hour, minute, second, offsetHours, offsetMinutes] = [m[4], m[5], m[6], m[7], m[8]].map((v) => Number(v ?? 0));
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 23 || offsetMinutes! > 59) return false;
  const at = Date.parse(s);
  return at >= INSTANT_MIN && at < INSTANT_END;
}

/** Today's date (YYYY-MM-DD) in an IANA time zone: a store's or a restaurant's calendar day. */
export function todayIn(timeZone: string, at: Date = now()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}
