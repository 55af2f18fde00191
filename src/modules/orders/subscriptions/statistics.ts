import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { toMajor } from "../../../core/money";
import { todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { addDuration } from "../recurring/dates";
import { SUBSCRIPTION_STATUSES, subscriptions as s } from "./tables";

/** Months of one period, to bring a price to a monthly one (MRR). */
const monthsOfPeriod = sql`(CASE ${s.durationUnit} WHEN 'month' THEN ${s.duration}
  WHEN 'week' THEN ${s.duration} * 7 * 12.0 / 365 ELSE ${s.duration} * 12.0 / 365 END)`;

type Query = { from?: string; to?: string };
/** The period the statistics count in, and the store's today that gives its defaults. */
type Window = { today: string; from: string; to: string };
const windowOf = (today: string, q: Query): Window => {
  const to = q.to ?? today;
  return { today, from: q.from ?? addDuration(to, -30, "day"), to };
};

/** What the statistics count that depends on the store's today: a column each, per window `i`. */
const DATED = ["new_in_period", "cancelled_in_period", "renewals_due_7d"] as const;

/** The statistics' one statement, its dated counts once per window (`DATED` suffixed with its index). */
function statisticsRow(ctx: ServiceContext, windows: Window[]) {
  const count = (cond: SQL) => sql<number>`coalesce(sum(CASE WHEN ${cond} THEN 1 ELSE 0 END), 0)`;
  const dated = windows.flatMap(({ today, from, to }, i) => [
    [`new_in_period_${i}`, count(sql`substr(${s.createdAt}, 1, 10) BETWEEN ${from} AND ${to}`)],
    [`cancelled_in_period_${i}`, count(sql`substr(${s.cancelledAt}, 1, 10) BETWEEN ${from} AND ${to}`)],
    [
      `renewals_due_7d_${i}`,
      count(
        sql`${s.status} IN ('trialing', 'active') AND ${s.autoRenew} = 1 AND ${s.nextBillingDate}
          BETWEEN ${today} AND ${addDuration(today, 7, "day")}`,
      ),
    ],
  ]);
  return ctx.db
    .select({
      total: sql<number>`count(*)`,
      ...Object.fromEntries(SUBSCRIPTION_STATUSES.map((st) => [st, count(sql`${s.status} = ${st}`)])),
      auto_renew_on: count(sql`${s.autoRenew} = 1 AND ${s.status} IN ('trialing', 'active', 'suspended', 'paused')`),
      auto_renew_off: count(sql`${s.autoRenew} = 0 AND ${s.status} IN ('trialing', 'active', 'suspended', 'paused')`),
      ...Object.fromEntries(dated),
      mrr_minor: sql<number>`coalesce(sum(CASE WHEN ${s.status} IN ('active', 'trialing')
        THEN ${s.unitPriceMinor} * ${s.quantity} / ${monthsOfPeriod} ELSE 0 END), 0)`,
    })
    .from(s)
    .where(live(s, ctx.appId))
    .get() as Promise<unknown> as Promise<Record<string, number>>;
}

/**
 * MS3: counts by status, new and cancelled in [from, to], renewals due in 7 days, MRR. One
 * statement, sent with the store's settings (one round trip): the store's today is UTC's, the day
 * before or the day after, so the dated counts are taken for each of the three.
 */
export async function subscriptionStatistics(ctx: ServiceContext, q: Query) {
  const utcToday = todayIn("UTC");
  const candidates = [-1, 0, 1].map((d) => addDuration(utcToday, d, "day"));
  const [settings, rowOfCandidates] = await Promise.all([
    readStoreSettings(ctx.db, ctx.appId),
    statisticsRow(
      ctx,
      candidates.map((today) => windowOf(today, q)),
    ),
  ]);
  const w = windowOf(todayIn(settings.timezone), q);
  if (w.from > w.to) throw ApiError.validation({ from: ["Must be on or before `to`."] });
  let i = candidates.indexOf(w.today);
  // A today none of the three (never, by the time zones there are): counted for it alone.
  const r = i >= 0 ? rowOfCandidates : await statisticsRow(ctx, [w]);
  if (i < 0) i = 0;
  const dated = (name: (typeof DATED)[number]) => Number(r[`${name}_${i}`]);
  return {
    from: w.from,
    to: w.to,
    total: Number(r.total),
    by_status: Object.fromEntries(SUBSCRIPTION_STATUSES.map((st) => [st, Number(r[st])])) as Record<
      (typeof SUBSCRIPTION_STATUSES)[number],
      number
    >,
    auto_renew_on: Number(r.auto_renew_on),
    auto_renew_off: Number(r.auto_renew_off),
    new_in_period: dated("new_in_period"),
    cancelled_in_period: dated("cancelled_in_period"),
    renewals_due_7d: dated("renewals_due_7d"),
    mrr: toMajor(Math.round(Number(r.mrr_minor))),
  };
}
