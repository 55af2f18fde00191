import { now } from "./clock";

/** UTC timestamps as ISO 8601 with offset, as the spec shows date-times (from the one clock, core/clock.ts). */
export const nowIso = () => now().toISOString();

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** HH:MM or HH:MM:SS, as `normaliseTime` accepts it. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** True for a real calendar date in YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Normalises HH:MM or HH:MM:SS to HH:MM:SS; null when malformed. */
export function normaliseTime(s: string): string | null {
  const m = TIME_OF_DAY.exec(s);
  return m ? `${m[1]}:${m[2]}:${m[3] ?? "00"}` : null;
}

export function isIsoDateTime(s: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))
  );
}

/** Today's date (YYYY-MM-DD) in an IANA time zone: a store's or a restaurant's calendar day. */
export function todayIn(timeZone: string, at: Date = now()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}
