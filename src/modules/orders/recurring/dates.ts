import { todayIn } from "../../../core/time";
import type { DURATION_UNITS } from "../tables";

export { todayIn };

/** Calendar arithmetic of recurring purchases on YYYY-MM-DD strings, in the store's own days. */

export type DurationUnit = (typeof DURATION_UNITS)[number];

/**
 * `date` moved on by `n` units. A month keeps the day of the month, or the month's last day when it
 * has fewer (Jan 31 + 1 month = Feb 28/29), never spilling into the month after.
 */
export function addDuration(date: string, n: number, unit: DurationUnit): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (unit === "day") d.setUTCDate(d.getUTCDate() + n);
  else if (unit === "week") d.setUTCDate(d.getUTCDate() + 7 * n);
  else {
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() + n);
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last));
  }
  return d.toISOString().slice(0, 10);
}

/**
 * The first cycle date after `today`, stepping from `cycle` by the purchase's duration: a run that
 * comes late (or a purchase days overdue) orders one cycle, not one for every cycle it missed.
 */
export function nextCycleAfter(cycle: string, today: string, n: number, unit: DurationUnit): string {
  let next = addDuration(cycle, n, unit);
  // Bounded: a daily purchase years overdue is still a few thousand steps.
  for (let i = 0; next <= today && i < 10_000; i++) next = addDuration(next, n, unit);
  return next;
}
