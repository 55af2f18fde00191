import type { Weekday } from "../../../core/fields";
import { addDays, type Closures, laterOf, nextOpenDate } from "../dates";

/**
 * When a term of a plan version may start: one function for Plan Details (the date it offers) and
 * Place Order (the first date it accepts), so that the public read never offers a date the order
 * refuses. Pure: "today" (where the restaurant is) is passed in.
 */

/** What the first start date depends on: the rows' fields as the tables hold them. */
export type StartTerms = {
  plan: { startAfter: number };
  version: { minStartDate: string; maxStartDate: string; offDays: readonly Weekday[] };
  restaurant: { startAfter: number; offDays: readonly Weekday[]; closedDates: readonly string[] };
};

/** The days a version delivers on: not its own off days, not the restaurant's off days or closed dates. */
export const deliveryClosures = (t: Pick<StartTerms, "version" | "restaurant">): Closures => ({
  offDays: [...new Set([...t.version.offDays, ...t.restaurant.offDays])],
  closedDates: t.restaurant.closedDates,
});

/**
 * The first date a term may start: today plus the notice both the plan and the restaurant ask
 * (`start_after` days, the larger), not before the version's `min_start_date`, after `notAfter`
 * when given (a renewal), on a delivery day. Null when that falls after the version's
 * `max_start_date` (the version is closed).
 */
export function earliestStartDate(t: StartTerms, today: string, notAfter?: string): string | null {
  let from = laterOf(addDays(today, Math.max(t.plan.startAfter, t.restaurant.startAfter)), t.version.minStartDate);
  if (notAfter && from <= notAfter) from = addDays(notAfter, 1);
  const first = nextOpenDate(from, deliveryClosures(t));
  return first && first <= t.version.maxStartDate ? first : null;
}
