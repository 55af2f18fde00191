import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { containsText } from "../../../core/sql";
import { type Customer, customersFromJson, customersJson } from "../../customers";
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
  sync: { modifiedAt: s.modifiedAt, softDeleted: false },
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

/** An invoice a subscription shows, as `nestedJson` reads it: the subscription's id first. */
type InvoiceTuple = [
  sid: number,
  id: number,
  serial: string | null,
  totalMinor: number,
  status: SubscriptionInvoice["status"],
  createdAt: string,
  dueAt: string | null,
  paymentMethod: string | null,
  paymentProvider: SubscriptionInvoice["payment_provider"],
];

/**
 * The invoices (the first order's and every renewal order's), the pending updates and, for the
 * merchant, the customers of the subscriptions that `ids` selects (a subquery): scalar subqueries
 * of ONE statement, beside a list's page (`listPageWith`) or a subscription's row.
 */
function nestedJson(appId: number, ids: SQL, withCustomers: boolean): Record<string, SQL> {
  const invoices = sql`(SELECT json_group_array(json_array(sid, id, serial, total_minor, status, created_at, due_at,
      payment_method, payment_provider)) FROM (
      SELECT * FROM (SELECT so.sid, i.id, i.serial, i.total_minor, i.status, i.created_at, i.due_at,
          i.payment_method, i.payment_provider, row_number() OVER (PARTITION BY so.sid ORDER BY i.id DESC) AS rn
        FROM (SELECT id AS sid, order_id FROM subscriptions WHERE id IN ${ids}
          UNION ALL SELECT subscription_id, order_id FROM subscription_renewals
            WHERE subscription_id IN ${ids} AND order_id IS NOT NULL) AS so
        JOIN invoices i ON i.order_id = so.order_id AND i.type = 'invoice')
      WHERE rn <= ${INVOICES_MAX}))`;
  const pending = rowsJson(
    subscriptionUpdates,
    and(sql`${subscriptionUpdates.subscriptionId} IN ${ids}`, eq(subscriptionUpdates.status, "pending"))!,
  );
  if (!withCustomers) return { invoices, pending };
  return {
    invoices,
    pending,
    customers: customersJson(appId, sql`(SELECT customer_id FROM subscriptions WHERE id IN ${ids})`),
  };
}

/** The views of `rows` from `nestedJson`'s parts (parsed JSON). */
function viewsOf(rows: SubscriptionRow[], nested: Record<string, unknown>): Subscription[] {
  const invoices = new Map<number, SubscriptionInvoice[]>();
  // Newest first within a subscription: json_group_array's order is not promised.
  const tuples = ((nested.invoices ?? []) as InvoiceTuple[]).sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  for (const [sid, id, serial, totalMinor, status, createdAt, dueAt, paymentMethod, paymentProvider] of tuples) {
    const list = invoices.get(sid) ?? [];
    list.push({
      id,
      serial,
      amount: toMajor(totalMinor),
      status,
      payment_url: null,
      created_at: createdAt,
      due_date: dueAt,
      payment_method: paymentMethod,
      payment_provider: paymentProvider,
    });
    invoices.set(sid, list);
  }
  const pending = new Map(decodeRows(subscriptionUpdates, nested.pending).map((u) => [u.subscriptionId, u]));
  return rows.map((r) => subscriptionView(r, invoices.get(r.id) ?? [], pending.get(r.id)));
}

function merchantViewsOf(rows: SubscriptionRow[], nested: Record<string, unknown>): MerchantSubscription[] {
  const customers = customersFromJson(nested.customers);
  return viewsOf(rows, nested).map((v) => ({
    ...v,
    customer: (customers.get(v.customer_id) as Customer | undefined) ?? null,
  }));
}

/**
 * The subscription (of `customerId` when given) and `nestedJson`'s parts as ONE statement, and the
 * view of its row (else a 404): read alone (`read`) or at the end of a write's batch (`statement`),
 * so that a change answers what it wrote without another round trip.
 */
export type SubscriptionAnswer<View> = {
  read(): Promise<{ row: SubscriptionRow; view: View }>;
  statement(): BatchItem<"sqlite">;
  /** The row and view from `statement`'s rows. */
  of(rows: unknown): { row: SubscriptionRow; view: View };
};

function answerOf<View>(
  ctx: ServiceContext,
  id: number,
  customerId: number | undefined,
  withCustomers: boolean,
  viewOf: (rows: SubscriptionRow[], nested: Record<string, unknown>) => View[],
): SubscriptionAnswer<View> {
  const mine = and(
    eq(s.id, id),
    live(s, ctx.appId),
    customerId === undefined ? undefined : eq(s.customerId, customerId),
  )!;
  const parts = nestedJson(ctx.appId, sql`(SELECT id FROM subscriptions WHERE ${mine})`, withCustomers);
  const query = sql`SELECT ${rowsJson(s, mine)} AS "rows", ${sql.join(
    Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
    sql`, `,
  )}`;
  const decode = (row: Record<string, string | null> | undefined) => {
    const [found] = decodeRows(s, row?.rows ?? "[]");
    if (!found) throw subscriptionNotFound(id);
    const nested = Object.fromEntries(Object.keys(parts).map((k) => [k, JSON.parse(row?.[k] ?? "[]")]));
    return { row: found, view: viewOf([found], nested)[0]! };
  };
  return {
    read: async () => decode(await ctx.db.get<Record<string, string | null>>(query)),
    statement: () => batchStatement(ctx.db, query, selectColumns(["rows", ...Object.keys(parts)])),
    of: (rows) => decode((rows as Record<string, string | null>[])[0]),
  };
}

/** MS2's answer. */
export const merchantSubscriptionAnswer = (ctx: ServiceContext, id: number) =>
  answerOf(ctx, id, undefined, true, merchantViewsOf);

/** U2's answer: the customer's own subscription (another's is a 404). */
export const mySubscriptionAnswer = (ctx: ServiceContext, id: number, customerId: number) =>
  answerOf(ctx, id, customerId, false, viewsOf);

/** MS1; U1 with `customerId` (the customer's own, without the embedded customer). */
export async function listSubscriptions(ctx: ServiceContext, q: ListQuery): Promise<Page<MerchantSubscription>> {
  const { page, nested } = await listPageWith(ctx.db, q, { table: s, scope: () => live(s, ctx.appId) }, (rows) =>
    nestedJson(ctx.appId, sql`(SELECT id FROM ${rows})`, true),
  );
  return { ...page, results: merchantViewsOf(page.results, nested) };
}

export async function listMySubscriptions(
  ctx: ServiceContext,
  q: ListQuery,
  customerId: number,
): Promise<Page<Subscription>> {
  const scope = and(live(s, ctx.appId), eq(s.customerId, customerId))!;
  const { page, nested } = await listPageWith(ctx.db, q, { table: s, scope: () => scope }, (rows) =>
    nestedJson(ctx.appId, sql`(SELECT id FROM ${rows})`, false),
  );
  return { ...page, results: viewsOf(page.results, nested) };
}

/** MS2. */
export async function subscriptionDetails(ctx: ServiceContext, id: number): Promise<MerchantSubscription> {
  return (await merchantSubscriptionAnswer(ctx, id).read()).view;
}

/** U2. */
export async function mySubscriptionDetails(
  ctx: ServiceContext,
  id: number,
  customerId: number,
): Promise<Subscription> {
  return (await mySubscriptionAnswer(ctx, id, customerId).read()).view;
}
