import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { containsText, inList } from "../../../core/sql";
import { todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { type Customer, loadCustomers } from "../../customers";
import { addDuration } from "../recurring/dates";
import { DURATION_UNITS, PAYMENT_PROVIDERS } from "../tables";
import type { MerchantSubscription, Subscription, SubscriptionInvoice, SubscriptionUpdate } from "./schemas";
import { SUBSCRIPTION_STATUSES, subscriptions, subscriptionUpdates } from "./tables";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type UpdateRow = typeof subscriptionUpdates.$inferSelect;

/** Invoices a subscription shows, newest first. */
const INVOICES_MAX = 24;

const s = subscriptions;
export const SUBSCRIPTION_LIST: ListSpec = {
  fields: {
    id: { column: s.id, kind: "integer" },
    status: { column: s.status, kind: "string", values: SUBSCRIPTION_STATUSES },
    customer_id: { column: s.customerId, kind: "integer" },
    item_id: { column: s.itemId, kind: "integer" },
    order: { column: s.orderId, kind: "integer" },
    payment_provider: { column: s.paymentProvider, kind: "string", values: PAYMENT_PROVIDERS, nullable: true },
    duration: { column: s.duration, kind: "integer" },
    duration_unit: { column: s.durationUnit, kind: "string", values: DURATION_UNITS },
    in_trial: { column: s.inTrial, kind: "boolean" },
    auto_renew: { column: s.autoRenew, kind: "boolean" },
    auto_increment_usage: { column: s.autoIncrementUsage, kind: "boolean" },
    start_date: { column: s.startDate, kind: "date", nullable: true },
    end_date: { column: s.endDate, kind: "date", nullable: true },
    trial_end_date: { column: s.trialEndDate, kind: "date", nullable: true },
    current_period_start_date: { column: s.currentPeriodStartDate, kind: "date", nullable: true },
    current_period_end_date: { column: s.currentPeriodEndDate, kind: "date", nullable: true },
    last_billing_date: { column: s.lastBillingDate, kind: "date", nullable: true },
    next_billing_date: { column: s.nextBillingDate, kind: "date", nullable: true },
    remaining_billing_cycles: { column: s.remainingBillingCycles, kind: "integer", nullable: true },
    usage_counter: { column: s.usageCounter, kind: "integer" },
    usage_limit: { column: s.usageLimit, kind: "integer", nullable: true },
    paused_at: { column: s.pausedAt, kind: "datetime", nullable: true },
    cancelled_at: { column: s.cancelledAt, kind: "datetime", nullable: true },
    created_at: { column: s.createdAt, kind: "datetime" },
  },
  // Customer ids are global: the subquery is not correlated, so SQLite runs it once (as orders' search does).
  search: (term: string) => ({
    where: sql`(${containsText(s.nameEn, term)} OR ${containsText(s.nameAr, term)} OR ${s.customerId} IN
      (SELECT id FROM customers WHERE ${containsText(sql`name`, term)} OR ${containsText(sql`mobile_number`, term)}))`,
    indexed: false,
  }),
  searchDescription: "The plan's name, or the customer's name or mobile number.",
  defaultOrder: "-id",
  idColumn: s.id,
};

export const subscriptionNotFound = (id: number) => ApiError.notFound("subscription_not_found", `Subscription ${id}`);

/** The subscription (of `customerId` when given: another customer's is a 404). */
export async function findSubscription(ctx: ServiceContext, id: number, customerId?: number): Promise<SubscriptionRow> {
  const row = await ctx.db
    .select()
    .from(s)
    .where(and(eq(s.id, id), live(s, ctx.appId), customerId === undefined ? undefined : eq(s.customerId, customerId)))
    .get();
  if (!row) throw subscriptionNotFound(id);
  return row;
}

export function updateView(u: UpdateRow): SubscriptionUpdate {
  const { price_minor, ...rest } = u.changes;
  return {
    id: u.id,
    subscription_id: u.subscriptionId,
    changes: { ...rest, ...(price_minor !== undefined && { price: toMajor(price_minor) }) },
    effective: u.effective,
    effective_at: u.effectiveAt,
    status: u.status,
    proration_amount: toMajor(u.prorationMinor),
    created_at: u.createdAt,
    applied_at: u.appliedAt,
    cancelled_at: u.cancelledAt,
  };
}

const LIVE = new Set(["trialing", "active", "suspended", "paused"]);

/** What the next renewal will charge: unit × quantity and what mid-period changes owe, never below 0. */
export const renewalAmountMinor = (r: SubscriptionRow) => Math.max(0, r.unitPriceMinor * r.quantity + r.prorationMinor);

/** Whether another period will be charged: live, renewing, cycles left. */
export const willRenew = (r: SubscriptionRow) =>
  LIVE.has(r.status) && r.autoRenew && r.remainingBillingCycles !== 0 && r.nextBillingDate !== null;

function nextInvoice(r: SubscriptionRow): SubscriptionInvoice | null {
  if (!willRenew(r)) return null;
  return {
    id: null,
    serial: null,
    amount: toMajor(renewalAmountMinor(r)),
    status: r.status === "suspended" ? "unpaid" : "upcoming",
    payment_url: null,
    created_at: null,
    due_date: r.status === "suspended" ? r.retryDate : r.nextBillingDate,
    payment_method: null,
    payment_provider: r.paymentProvider,
  };
}

export function subscriptionView(
  r: SubscriptionRow,
  invoices: SubscriptionInvoice[],
  pending: UpdateRow | undefined,
): Subscription {
  const ends = r.endDate ?? (LIVE.has(r.status) && !willRenew(r) ? r.currentPeriodEndDate : null);
  return {
    id: r.id,
    app_id: r.appId,
    custom_fields: r.customFields ?? null,
    customer_id: r.customerId,
    item_id: r.itemId,
    name_en: r.nameEn,
    name_ar: r.nameAr,
    order: r.orderId,
    status: r.status,
    price: toMajor(r.unitPriceMinor * r.quantity),
    quantity: r.quantity,
    currency: r.currency,
    payment_provider: r.paymentProvider,
    duration: r.duration,
    duration_unit: r.durationUnit,
    start_date: r.startDate,
    end_date: ends,
    in_trial: r.inTrial,
    trial_start_date: r.trialStartDate,
    trial_end_date: r.trialEndDate,
    paused_at: r.pausedAt,
    pause_resumes_at: r.pauseResumesAt,
    total_billing_cycles: r.totalBillingCycles,
    remaining_billing_cycles: r.remainingBillingCycles,
    auto_renew: r.autoRenew,
    cancel_at_period_end: !r.autoRenew && LIVE.has(r.status),
    current_period_start_date: r.currentPeriodStartDate,
    current_period_end_date: r.currentPeriodEndDate,
    last_billing_date: r.lastBillingDate,
    next_billing_date: r.nextBillingDate,
    retry_date: r.retryDate,
    usage_counter: r.usageCounter,
    usage_limit: r.usageLimit,
    usage_unit: r.usageUnit,
    auto_increment_usage: r.autoIncrementUsage,
    cancelled_at: r.cancelledAt,
    cancellation_reason: r.cancellationReason,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
    invoices,
    next_invoice: nextInvoice(r),
    pending_update: pending ? updateView(pending) : null,
  };
}

type InvoiceRow = {
  sid: number;
  id: number;
  serial: string | null;
  total_minor: number;
  status: "unpaid" | "paid" | "void";
  created_at: string;
  due_at: string | null;
  payment_method: string | null;
  payment_provider: SubscriptionInvoice["payment_provider"];
};

/**
 * The invoices (the first order's and every renewal order's) and pending updates of several
 * subscriptions: two statements in one batch, whatever their number.
 */
async function nestedOf(ctx: ServiceContext, ids: number[]) {
  const out = { invoices: new Map<number, SubscriptionInvoice[]>(), pending: new Map<number, UpdateRow>() };
  if (!ids.length) return out;
  const list = JSON.stringify(ids);
  const [invoiceRows, pending] = await Promise.all([
    ctx.db.all<InvoiceRow>(sql`WITH so AS (
        SELECT id AS sid, order_id FROM subscriptions WHERE id IN (SELECT value FROM json_each(${list}))
        UNION ALL SELECT subscription_id, order_id FROM subscription_renewals
          WHERE subscription_id IN (SELECT value FROM json_each(${list})) AND order_id IS NOT NULL)
      SELECT * FROM (SELECT so.sid, i.id, i.serial, i.total_minor, i.status, i.created_at, i.due_at,
          i.payment_method, i.payment_provider, row_number() OVER (PARTITION BY so.sid ORDER BY i.id DESC) AS rn
        FROM so JOIN invoices i ON i.order_id = so.order_id AND i.type = 'invoice')
      WHERE rn <= ${INVOICES_MAX} ORDER BY sid, id DESC`),
    ctx.db
      .select()
      .from(subscriptionUpdates)
      .where(and(inList(subscriptionUpdates.subscriptionId, ids), eq(subscriptionUpdates.status, "pending"))),
  ]);
  for (const i of invoiceRows) {
    const list = out.invoices.get(i.sid) ?? [];
    list.push({
      id: i.id,
      serial: i.serial,
      amount: toMajor(i.total_minor),
      status: i.status,
      payment_url: null,
      created_at: i.created_at,
      due_date: i.due_at,
      payment_method: i.payment_method,
      payment_provider: i.payment_provider,
    });
    out.invoices.set(i.sid, list);
  }
  for (const u of pending) out.pending.set(u.subscriptionId, u);
  return out;
}

async function viewsOf(ctx: ServiceContext, rows: SubscriptionRow[]): Promise<Subscription[]> {
  const nested = await nestedOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => subscriptionView(r, nested.invoices.get(r.id) ?? [], nested.pending.get(r.id)));
}

async function merchantViewsOf(ctx: ServiceContext, rows: SubscriptionRow[]): Promise<MerchantSubscription[]> {
  const [views, customers] = await Promise.all([
    viewsOf(ctx, rows),
    loadCustomers(
      ctx,
      rows.map((r) => r.customerId),
    ),
  ]);
  return views.map((v) => ({ ...v, customer: (customers.get(v.customer_id) as Customer | undefined) ?? null }));
}

/** MS1; U1 with `customerId` (the customer's own, without the embedded customer). */
export async function listSubscriptions(ctx: ServiceContext, q: ListQuery): Promise<Page<MerchantSubscription>> {
  const page = await listPage(ctx.db, q, { table: s, scope: () => live(s, ctx.appId) });
  return { ...page, results: await merchantViewsOf(ctx, page.results) };
}

export async function listMySubscriptions(
  ctx: ServiceContext,
  q: ListQuery,
  customerId: number,
): Promise<Page<Subscription>> {
  const scope = and(live(s, ctx.appId), eq(s.customerId, customerId))!;
  const page = await listPage(ctx.db, q, { table: s, scope: () => scope });
  return { ...page, results: await viewsOf(ctx, page.results) };
}

/** MS2. */
export async function subscriptionDetails(ctx: ServiceContext, id: number): Promise<MerchantSubscription> {
  return (await merchantViewsOf(ctx, [await findSubscription(ctx, id)]))[0]!;
}

/** U2. */
export async function mySubscriptionDetails(
  ctx: ServiceContext,
  id: number,
  customerId: number,
): Promise<Subscription> {
  return (await viewsOf(ctx, [await findSubscription(ctx, id, customerId)]))[0]!;
}

/** Months of one period, to bring a price to a monthly one (MRR). */
const monthsOfPeriod = sql`(CASE ${s.durationUnit} WHEN 'month' THEN ${s.duration}
  WHEN 'week' THEN ${s.duration} * 7 * 12.0 / 365 ELSE ${s.duration} * 12.0 / 365 END)`;

/** MS3: counts by status, new and cancelled in [from, to], renewals due in 7 days, MRR. One statement. */
export async function subscriptionStatistics(ctx: ServiceContext, q: { from?: string; to?: string }) {
  const settings = await readStoreSettings(ctx.db, ctx.appId);
  const today = todayIn(settings.timezone);
  const to = q.to ?? today;
  const from = q.from ?? addDuration(to, -30, "day");
  if (from > to) throw ApiError.validation({ from: ["Must be on or before `to`."] });
  const count = (cond: SQL) => sql<number>`coalesce(sum(CASE WHEN ${cond} THEN 1 ELSE 0 END), 0)`;
  const row = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      ...Object.fromEntries(SUBSCRIPTION_STATUSES.map((st) => [st, count(sql`${s.status} = ${st}`)])),
      auto_renew_on: count(sql`${s.autoRenew} = 1 AND ${s.status} IN ('trialing', 'active', 'suspended', 'paused')`),
      auto_renew_off: count(sql`${s.autoRenew} = 0 AND ${s.status} IN ('trialing', 'active', 'suspended', 'paused')`),
      new_in_period: count(sql`substr(${s.createdAt}, 1, 10) BETWEEN ${from} AND ${to}`),
      cancelled_in_period: count(sql`substr(${s.cancelledAt}, 1, 10) BETWEEN ${from} AND ${to}`),
      renewals_due_7d: count(
        sql`${s.status} IN ('trialing', 'active') AND ${s.autoRenew} = 1 AND ${s.nextBillingDate}
          BETWEEN ${today} AND ${addDuration(today, 7, "day")}`,
      ),
      mrr_minor: sql<number>`coalesce(sum(CASE WHEN ${s.status} IN ('active', 'trialing')
        THEN ${s.unitPriceMinor} * ${s.quantity} / ${monthsOfPeriod} ELSE 0 END), 0)`,
    })
    .from(s)
    .where(live(s, ctx.appId))
    .get();
  const r = row as unknown as Record<string, number>;
  return {
    from,
    to,
    total: Number(r.total),
    by_status: Object.fromEntries(SUBSCRIPTION_STATUSES.map((st) => [st, Number(r[st])])) as Record<
      (typeof SUBSCRIPTION_STATUSES)[number],
      number
    >,
    auto_renew_on: Number(r.auto_renew_on),
    auto_renew_off: Number(r.auto_renew_off),
    new_in_period: Number(r.new_in_period),
    cancelled_in_period: Number(r.cancelled_in_period),
    renewals_due_7d: Number(r.renewals_due_7d),
    mrr: toMajor(Math.round(Number(r.mrr_minor))),
  };
}
