import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { weekdayOf } from "../dates";
import { planDetails } from "../plans/details";
import type { PlanDate } from "./schemas";

/**
 * Plan Date Details: what the plan serves on one date. The delivery dates are Plan Details' (the
 * version's `num_of_days` dates from the start date, skipping off days and closed dates, counted
 * where the restaurant is); the n-th of them (from 0) is served by the cycle's day n % repetition + 1.
 */
export async function planDate(
  ctx: ServiceContext,
  planId: number,
  date: string,
  q: { plan_version_id?: number; start_date?: string },
): Promise<{ body: PlanDate; validUntil: number }> {
  const { plan, validUntil } = await planDetails(ctx, planId, q);
  const index = plan.dates.indexOf(date);
  if (index < 0) {
    const first = plan.dates.find((d) => d > date) ?? null;
    const last = plan.dates.at(-1) ?? plan.start_date;
    const reason = date < plan.start_date ? "before_start" : date > last ? "after_end" : "not_a_delivery_day";
    const why = {
      before_start: `it is before the first delivery date, ${plan.start_date}`,
      after_end: `it is after the last delivery date, ${last}`,
      not_a_delivery_day: `it is not a delivery day (${weekdayOf(date)}: an off day or a closed date)`,
    }[reason];
    throw ApiError.conflict(
      "plan_date_not_served",
      `Plan ${planId} (version ${plan.plan_version_id} from ${plan.start_date}) delivers nothing on ${date}: ${why}.` +
        (first ? ` The next delivery date is ${first}.` : ""),
      { reason, first_valid_date: first, start_date: plan.start_date, end_date: last },
    );
  }
  const counter = (index % plan.repetition) + 1;
  return {
    body: {
      plan_id: plan.id,
      plan_version_id: plan.plan_version_id,
      start_date: plan.start_date,
      date,
      weekday: weekdayOf(date),
      day_number: index + 1,
      repetition_counter: counter,
      master: plan.masters.find((m) => m.repetition_counter === counter) ?? null,
    },
    validUntil,
  };
}
