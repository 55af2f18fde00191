import {
  addDays,
  type Closures,
  isOpen,
  nextOpenDate,
  openDates,
  type PlanForOrder,
  type RestaurantRow,
  todayIn,
} from "../meals";

/**
 * A term's calendar, in the restaurant's days (its time zone): when a term may start, which dates it
 * delivers on, and which day of the plan's menu cycle serves each (the cutoff for changing a
 * delivery is the management rules', rules.ts). Pure: "today" is passed in by the callers.
 */

/** The days a version delivers on: not its own off days, not the restaurant's off days or closed dates. */
export const closuresOf = (p: Pick<PlanForOrder, "version" | "restaurant">): Closures => ({
  offDays: [...new Set([...p.version.offDays, ...p.restaurant.offDays])],
  closedDates: p.restaurant.closedDates,
});

/** Today where the restaurant is (its calendar day), from the clock. */
export const restaurantToday = (r: Pick<RestaurantRow, "timeZone">) => todayIn(r.timeZone);

/**
 * The first date a term may start: today plus the notice both the plan and the restaurant ask
 * (`start_after` days, the larger), not before the version's `min_start_date`, on a delivery day.
 * Null when that falls after the version's `max_start_date` (the version is closed).
 */
export function earliestStart(p: PlanForOrder, today: string, notAfter?: string): string | null {
  const notice = Math.max(p.plan.startAfter, p.restaurant.startAfter);
  let from = addDays(today, notice);
  if (from < p.version.minStartDate) from = p.version.minStartDate;
  if (notAfter && from <= notAfter) from = addDays(notAfter, 1);
  const first = nextOpenDate(from, closuresOf(p));
  return first && first <= p.version.maxStartDate ? first : null;
}

export type StartProblem =
  | { code: "start_date_too_early"; first: string }
  | { code: "start_date_too_late"; first: string }
  | { code: "start_date_closed"; first: string | null };

/** Why `start` cannot start a term of the version (null when it can); `earliest` from `earliestStart`. */
export function startProblem(p: PlanForOrder, start: string, earliest: string): StartProblem | null {
  if (start < earliest) return { code: "start_date_too_early", first: earliest };
  if (start > p.version.maxStartDate) return { code: "start_date_too_late", first: earliest };
  const c = closuresOf(p);
  if (!isOpen(start, c)) {
    const next = nextOpenDate(start, c);
    return { code: "start_date_closed", first: next && next <= p.version.maxStartDate ? next : null };
  }
  return null;
}

/** The `num_of_days` delivery dates of a term starting on `start` (a delivery day). */
export const deliveryDates = (p: PlanForOrder, start: string): string[] =>
  openDates(start, p.version.numOfDays, closuresOf(p));

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
