import { now as clockNow } from "../../core/clock";
import { WEEKDAYS, type Weekday } from "../../core/fields";

import { todayIn } from "../../core/time";

export { todayIn };

/** Calendar arithmetic on YYYY-MM-DD strings, in days: no clock, no time zone. */

const DAY_MS = 86_400_000;
/** A year of days: no date search looks further (off days leave at least one weekday open). */
const HORIZON_DAYS = 366 * 8;

export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export const weekdayOf = (date: string): Weekday => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;

export const laterOf = (a: string, b: string): string => (a > b ? a : b);

/**
 * The instant (epoch ms) at which `todayIn(timeZone)` next changes: what a response that depends on today is valid
 * until. From the same clock as `todayIn`, so that the day and its end agree when a test sets the clock.
 */
export function nextMidnight(timeZone: string, now: Date = clockNow()): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(now)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const sinceMidnight = ((parts.hour! * 60 + parts.minute!) * 60 + parts.second!) * 1000 + now.getMilliseconds();
  let until = now.getTime() - sinceMidnight + DAY_MS;
  // A daylight-saving change makes the local day 23 or 25 hours long: step to the real change.
  const today = todayIn(timeZone, now);
  while (todayIn(timeZone, new Date(until)) === today) until += 3_600_000;
  while (until - 3_600_000 > now.getTime() && todayIn(timeZone, new Date(until - 3_600_000)) !== today)
    until -= 3_600_000;
  return until;
}

export type Closures = { offDays: readonly Weekday[]; closedDates: readonly string[] };

export const isOpen = (date: string, c: Closures): boolean =>
  !c.offDays.includes(weekdayOf(date)) && !c.closedDates.includes(date);

/** The first open date on or after `from`; null when none is open within the horizon. */
export function nextOpenDate(from: string, c: Closures): string | null {
  for (let i = 0, d = from; i < HORIZON_DAYS; i++, d = addDays(d, 1)) if (isOpen(d, c)) return d;
  return null;
}

/** `count` open dates from `start` (an open date), in order; shorter only if the horizon runs out. */
export function openDates(start: string, count: number, c: Closures): string[] {
  const dates: string[] = [];
  for (let i = 0, d = start; dates.length < count && i < HORIZON_DAYS; i++, d = addDays(d, 1))
    if (isOpen(d, c)) dates.push(d);
  return dates;
}
