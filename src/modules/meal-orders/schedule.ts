import {
  deliveryClosures,
  isOpen,
  nextOpenDate,
  openDates,
  type PlanForOrder,
  type RestaurantRow,
  todayIn,
} from "../meals";

/**
 * A term's calendar, in the restaurant's days (its time zone): whether a date can start it (the
 * earliest is the meals module's `earliestStartDate`, the one Plan Details offers), which dates it
 * delivers on, and which day of the plan's menu cycle serves each (the cutoff for changing a
 * delivery is the management rules', rules.ts). Pure: "today" is passed in by the callers.
 */

/** Today where the restaurant is (its calendar day), from the clock. */
export const restaurantToday = (r: Pick<RestaurantRow, "timeZone">) => todayIn(r.timeZone);

export type StartProblem =
  | { code: "start_date_too_early"; first: string }
  | { code: "start_date_too_late"; first: string }
  | { code: "start_date_closed"; first: string | null };

/** Why `start` cannot start a term of the version (null when it can); `earliest` from `earliestStartDate`. */
export function startProblem(p: PlanForOrder, start: string, earliest: string): StartProblem | null {
  if (start < earliest) return { code: "start_date_too_early", first: earliest };
  if (start > p.version.maxStartDate) return { code: "start_date_too_late", first: earliest };
  const c = deliveryClosures(p);
  if (!isOpen(start, c)) {
    const next = nextOpenDate(start, c);
    return { code: "start_date_closed", first: next && next <= p.version.maxStartDate ? next : null };
  }
  return null;
}

/** The `num_of_days` delivery dates of a term starting on `start` (a delivery day). */
export const deliveryDates = (p: PlanForOrder, start: string): string[] =>
  openDates(start, p.version.numOfDays, deliveryClosures(p));

/**
 * The plan day (master) serving the n-th delivery (from 0): the menu cycle repeats every
 * `repetition` deliveries, the day whose `repetition_counter` is n % repetition + 1; a cycle
 * with gaps falls back to its days in order. Null when the plan has no days.
 */
export function planDayFor(p: Pick<PlanForOrder, "plan" | "days">, n: number): number | null {
  if (!p.days.length) return null;
  const counter = (n % Math.max(1, p.plan.repetition)) + 1;
  return (p.days.find((d) => d.repetitionCounter === counter) ?? p.days[n % p.days.length]!).id;
}
