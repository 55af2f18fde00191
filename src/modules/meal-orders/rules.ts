import { nowMs } from "../../core/clock";
import { ApiError } from "../../core/errors";
import { addDays, type Closures, isOpen, nextOpenDate, type SubscriptionTerms, todayIn } from "../meals";
import { MANAGED_STATUSES, type MealSubscriptionStatus, OPEN_SUBORDER_STATUSES, type SuborderStatus } from "./tables";

/**
 * The management rules of a meal subscription, in one place (design-reference 14, peer-notes):
 * from the plan version (`pause_credits`, `num_of_pause_attempts`, `min_of_pause_days`, its off
 * days) and the restaurant (its time zone, off days, closed dates and `cutoff_hours`), at the
 * clock's now. Pure: the services read the rows, ask these functions, then write.
 *
 * - A delivery can be changed (meals, location, window, branch, postponed, paused, cancelled)
 *   until `cutoff_hours` before the start of its day where the restaurant is: the first changeable
 *   date is the day after the one in which now + cutoff falls.
 * - A pause starts on a changeable date, consumes one pause attempt, and lasts at least
 *   `min_of_pause_days` and at most the days of pausing left (`pause_credits`), counted in calendar
 *   days from its first day to the day before the resume date.
 * - Resume and postpone give deliveries the next free open dates (off days, closed dates and the
 *   dates the subscription already delivers on are skipped).
 * - Cancel takes effect from a changeable delivery date; the deliveries it drops are owed back
 *   as `cancel_credits`.
 */

const HOUR_MS = 3_600_000;

export type Calendar = { timeZone: string; cutoffHours: number; closures: Closures };

/** The restaurant's calendar for a subscription: the version's off days count too. */
export function calendarOf(t: SubscriptionTerms): Calendar {
  return {
    timeZone: t.restaurant.timeZone,
    cutoffHours: t.restaurant.cutoffHours,
    closures: {
      offDays: [...new Set([...t.restaurant.offDays, ...t.version.offDays])],
      closedDates: t.restaurant.closedDates,
    },
  };
}

/** The first date whose deliveries can still be changed (strictly before the cutoff). */
export function firstChangeableDate(cal: Pick<Calendar, "timeZone" | "cutoffHours">, at: number = nowMs()): string {
  return addDays(todayIn(cal.timeZone, new Date(at + cal.cutoffHours * HOUR_MS)), 1);
}

/** The first open (delivery) date that can still be changed. */
export const firstChangeableOpenDate = (cal: Calendar, at?: number): string =>
  nextOpenDate(firstChangeableDate(cal, at), cal.closures) ?? firstChangeableDate(cal, at);

/** The credits a new subscription starts with, from its plan version (for Place Order). */
export function initialCredits(version: SubscriptionTerms["version"]) {
  return { pauseAttemptsCredits: version.numOfPauseAttempts ?? 0, pauseCredits: version.pauseCredits ?? 0 };
}

export const minPauseDaysOf = (t: SubscriptionTerms) => Math.max(1, t.version.minOfPauseDays ?? 1);

/** Whole days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** `count` open dates from `from` on that are not `taken`, in order. */
export function freeOpenDates(from: string, count: number, taken: ReadonlySet<string>, closures: Closures): string[] {
  const out: string[] = [];
  for (let d = from, i = 0; out.length < count && i < 3000; d = addDays(d, 1), i++)
    if (isOpen(d, closures) && !taken.has(d)) out.push(d);
  return out;
}

export type ManagedSubscription = {
  status: MealSubscriptionStatus;
  isPickup: boolean;
  pausedFrom: string | null;
  pauseAttemptsCredits: number;
  pauseCredits: number;
  pausedDays: number;
  cancelCredits: number;
};

export type Delivery = { id: number; date: string; status: SuborderStatus; isFrozen: boolean; isPostponed: boolean };

const isOpenDelivery = (d: Delivery) => OPEN_SUBORDER_STATUSES.includes(d.status);

/** The deliveries the rules act on: open and dated (not frozen) from the first changeable date, and frozen ones. */
export function changeableDeliveries(deliveries: readonly Delivery[], first: string) {
  const open = deliveries.filter(isOpenDelivery);
  return {
    dated: open.filter((d) => !d.isFrozen && d.date >= first).sort((a, b) => (a.date < b.date ? -1 : 1)),
    frozen: open.filter((d) => d.isFrozen).sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id),
  };
}

/** The dates a delivery of the subscription already takes (the unique index's: not frozen, not cancelled). */
export const takenDates = (deliveries: readonly Delivery[]) =>
  new Set(deliveries.filter((d) => !d.isFrozen && !d.status.startsWith("cancelled")).map((d) => d.date));

export type Management = {
  min_cancel_date: string | null;
  max_cancel_date: string | null;
  min_resume_date: string | null;
  max_resume_date: string | null;
  cancel_credits: number;
  paused_days: number;
  pause_attempts_credits: number;
  pause_credits: number;
  min_of_pause_days: number;
  cutoff_hours: number;
  first_changeable_date: string;
  can_change_location: boolean;
  can_change_meals: boolean;
  can_change_branch: boolean;
  can_change_delivery_window: boolean;
  can_pause: boolean;
  can_resume: boolean;
  can_cancel: boolean;
};

/** The resume bounds of a paused subscription (null when not paused). */
export function resumeBounds(sub: ManagedSubscription, t: SubscriptionTerms, at?: number) {
  if (sub.status !== "paused" || !sub.pausedFrom) return null;
  const cal = calendarOf(t);
  const earliest = [firstChangeableDate(cal, at), addDays(sub.pausedFrom, minPauseDaysOf(t))].sort()[1]!;
  const min = nextOpenDate(earliest, cal.closures) ?? earliest;
  // A pause overrunning its credits (never resumed in time) may still resume on the first date possible.
  let max = addDays(sub.pausedFrom, sub.pauseCredits);
  while (max > min && !isOpen(max, cal.closures)) max = addDays(max, -1);
  return { min, max: max < min ? min : max };
}

/** The cancel bounds: from the first changeable delivery to the last; null when nothing can be cancelled. */
export function cancelBounds(
  sub: ManagedSubscription,
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  at?: number,
) {
  if (!MANAGED_STATUSES.includes(sub.status)) return null;
  const cal = calendarOf(t);
  const { dated, frozen } = changeableDeliveries(deliveries, firstChangeableDate(cal, at));
  if (dated.length) return { min: dated[0]!.date, max: dated.at(-1)!.date };
  if (frozen.length) {
    const first = firstChangeableOpenDate(cal, at);
    return { min: first, max: first };
  }
  return null;
}

/** The computed management fields of a subscription's view. */
export function managementOf(
  sub: ManagedSubscription,
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  at: number = nowMs(),
): Management {
  const cal = calendarOf(t);
  const first = firstChangeableDate(cal, at);
  const managed = MANAGED_STATUSES.includes(sub.status);
  const { dated, frozen } = changeableDeliveries(deliveries, first);
  const changeable = managed && (dated.length > 0 || frozen.length > 0);
  const cancel = cancelBounds(sub, deliveries, t, at);
  const resume = resumeBounds(sub, t, at);
  const minPause = minPauseDaysOf(t);
  return {
    min_cancel_date: cancel?.min ?? null,
    max_cancel_date: cancel?.max ?? null,
    min_resume_date: resume?.min ?? null,
    max_resume_date: resume?.max ?? null,
    cancel_credits: sub.cancelCredits,
    paused_days: sub.pausedDays,
    pause_attempts_credits: sub.pauseAttemptsCredits,
    pause_credits: sub.pauseCredits,
    min_of_pause_days: minPause,
    cutoff_hours: cal.cutoffHours,
    first_changeable_date: firstChangeableOpenDate(cal, at),
    can_change_location: changeable && !sub.isPickup,
    can_change_meals: changeable && !t.plan.skipOptionSelection,
    can_change_branch: changeable && sub.isPickup && t.restaurant.supportsPickup,
    can_change_delivery_window: changeable && !sub.isPickup,
    can_pause:
      sub.status === "active" && sub.pauseAttemptsCredits > 0 && sub.pauseCredits >= minPause && dated.length > 0,
    can_resume: resume !== null,
    can_cancel: cancel !== null,
  };
}

// ---- the checks: each throws the 409 that names the rule and the first date that would work ----

/** A delivery may be changed: open, and frozen or dated on or after the first changeable date. */
export function checkChangeable(d: Delivery, t: SubscriptionTerms, label: string, at?: number): void {
  if (!isOpenDelivery(d))
    throw ApiError.conflict("suborder_not_changeable", `${label} is ${d.status}: it can no longer be changed.`, {
      current_status: d.status,
    });
  const cal = calendarOf(t);
  const first = firstChangeableDate(cal, at);
  if (!d.isFrozen && d.date < first) throw pastCutoff(label, d.date, cal, at);
}

export function pastCutoff(label: string, date: string, cal: Calendar, at?: number): ApiError {
  const first = firstChangeableOpenDate(cal, at);
  return ApiError.conflict(
    "suborder_past_cutoff",
    `${label} (${date}) is within the provider's cutoff of ${cal.cutoffHours} hours: the first date that can ` +
      `still be changed is ${first}.`,
    { first_valid_date: first, cutoff_hours: cal.cutoffHours },
  );
}

/** Pause from `from` (to `to`, when bounded): the deliveries it freezes, and the resume date of a bounded one. */
export function checkPause(
  sub: ManagedSubscription,
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  input: { from_date: string; to_date?: string },
  at?: number,
): { freeze: Delivery[]; resumeDate: string | null } {
  const cal = calendarOf(t);
  const minPause = minPauseDaysOf(t);
  if (sub.pauseAttemptsCredits <= 0)
    throw ApiError.conflict("pause_attempts_exhausted", "The subscription has no pause attempts left.", {
      pause_attempts_credits: sub.pauseAttemptsCredits,
    });
  if (sub.pauseCredits < minPause)
    throw ApiError.conflict(
      "pause_credits_exhausted",
      `${sub.pauseCredits} day(s) of pausing are left, fewer than a pause's minimum of ${minPause}.`,
      { pause_credits: sub.pauseCredits, min_of_pause_days: minPause },
    );
  const first = firstChangeableDate(cal, at);
  if (input.from_date < first) throw pastCutoff("The pause's first day", input.from_date, cal, at);
  const { dated } = changeableDeliveries(deliveries, first);
  const freeze = dated.filter((d) => d.date >= input.from_date && (!input.to_date || d.date <= input.to_date));
  if (!freeze.length)
    throw ApiError.conflict("no_open_deliveries", "No delivery of the subscription falls in the pause.", {
      first_valid_date: dated[0]?.date ?? null,
    });
  if (!input.to_date) return { freeze, resumeDate: null };
  const length = daysBetween(input.from_date, input.to_date) + 1;
  if (length < minPause)
    throw ApiError.conflict("pause_too_short", `A pause lasts at least ${minPause} day(s).`, {
      first_valid_date: addDays(input.from_date, minPause - 1),
      min_of_pause_days: minPause,
    });
  if (length > sub.pauseCredits)
    throw ApiError.conflict("pause_too_long", `${sub.pauseCredits} day(s) of pausing are left.`, {
      last_valid_date: addDays(input.from_date, sub.pauseCredits - 1),
      pause_credits: sub.pauseCredits,
    });
  return { freeze, resumeDate: addDays(input.to_date, 1) };
}

/** The resume date lies within the resume bounds. */
export function checkResume(sub: ManagedSubscription, t: SubscriptionTerms, resumeDate: string, at?: number): void {
  const b = resumeBounds(sub, t, at);
  if (!b) return;
  if (resumeDate < b.min || resumeDate > b.max)
    throw ApiError.conflict(
      "resume_date_out_of_range",
      `The subscription can resume from ${b.min} to ${b.max} (min_resume_date..max_resume_date).`,
      { first_valid_date: b.min, last_valid_date: b.max },
    );
}

/** The resume's effect: frozen deliveries on the free open dates from the resume date, days paused counted. */
export function resumePlan(
  sub: ManagedSubscription,
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  frozen: readonly Delivery[],
  resumeDate: string,
) {
  const dates = freeOpenDates(resumeDate, frozen.length, takenDates(deliveries), calendarOf(t).closures);
  const days = sub.pausedFrom ? Math.max(0, daysBetween(sub.pausedFrom, resumeDate)) : 0;
  return {
    moves: frozen.map((d, i) => ({ id: d.id, from: d.date, to: dates[i]! })),
    pausedDays: days,
    pauseCredits: Math.max(0, sub.pauseCredits - days),
  };
}

/** Postpone the deliveries on `dates` to the free open dates after the last one: their moves. */
export function checkPostpone(
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  dates: readonly string[],
  at?: number,
): { id: number; from: string; to: string }[] {
  const cal = calendarOf(t);
  const first = firstChangeableDate(cal, at);
  const early = [...dates].sort().find((d) => d < first);
  if (early) throw pastCutoff("The delivery", early, cal, at);
  const { dated } = changeableDeliveries(deliveries, first);
  const byDate = new Map(dated.map((d) => [d.date, d]));
  const missing = dates.filter((d) => !byDate.has(d));
  if (missing.length)
    throw ApiError.conflict("no_delivery_on_date", `No delivery that can be moved falls on ${missing.join(", ")}.`, {
      dates: missing,
    });
  const taken = takenDates(deliveries);
  const last = [...taken].sort().at(-1) ?? first;
  const to = freeOpenDates(addDays(last, 1), dates.length, taken, cal.closures);
  return [...dates].sort().map((d, i) => ({ id: byDate.get(d)!.id, from: d, to: to[i]! }));
}

/** Cancel from `from` (the first cancellable date by default): the deliveries it cancels. */
export function checkCancel(
  sub: ManagedSubscription,
  deliveries: readonly Delivery[],
  t: SubscriptionTerms,
  from: string | undefined,
  at?: number,
): { from: string; cancel: Delivery[] } {
  const b = cancelBounds(sub, deliveries, t, at);
  const cal = calendarOf(t);
  if (!b)
    throw ApiError.conflict(
      "no_open_deliveries",
      "Every delivery left is within the provider's cutoff: there is nothing to cancel.",
      { first_valid_date: null, cutoff_hours: cal.cutoffHours },
    );
  const date = from ?? b.min;
  if (date < b.min || date > b.max)
    throw ApiError.conflict(
      "cancel_date_out_of_range",
      `The subscription can be cancelled from ${b.min} to ${b.max} (min_cancel_date..max_cancel_date).`,
      { first_valid_date: b.min, last_valid_date: b.max },
    );
  const { dated, frozen } = changeableDeliveries(deliveries, firstChangeableDate(cal, at));
  return { from: date, cancel: [...dated.filter((d) => d.date >= date), ...frozen] };
}
