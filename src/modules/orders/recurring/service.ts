import { and, desc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { intLiteral } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { type Customer, customersFromJson, customersJson } from "../../customers";
import { cartDetails } from "../carts/details";
import { CART_PROVIDERS, carts, DURATION_UNITS, orders, PAYMENT_PROVIDERS } from "../tables";
import { recurringMachine } from "./machine";
import { HISTORY_MAX, type RecurringPurchase, type RecurringPurchaseDetails } from "./schemas";
import { RECURRING_STATUSES, recurringCharges, recurringPurchases } from "./tables";

type PurchaseRow = typeof recurringPurchases.$inferSelect;

export const RECURRING_LIST: ListSpec = {
  fields: {
    id: { column: recurringPurchases.id, kind: "integer" },
    status: { column: recurringPurchases.status, kind: "string", values: RECURRING_STATUSES },
    customer_id: { column: recurringPurchases.customerId, kind: "integer" },
    cart_id: { column: recurringPurchases.cartId, kind: "integer" },
    cart_provider: { column: recurringPurchases.cartProvider, kind: "string", values: CART_PROVIDERS },
    duration_unit: { column: recurringPurchases.durationUnit, kind: "string", values: DURATION_UNITS },
    payment_provider: {
      column: recurringPurchases.paymentProvider,
      kind: "string",
      values: PAYMENT_PROVIDERS,
      nullable: true,
    },
    next_order_date: { column: recurringPurchases.nextOrderDate, kind: "date", nullable: true },
    last_order_date: { column: recurringPurchases.lastOrderDate, kind: "date", nullable: true },
    last_charge_date: { column: recurringPurchases.lastChargeDate, kind: "date", nullable: true },
    charge_attempts: { column: recurringPurchases.chargeAttempts, kind: "integer" },
    created_at: { column: recurringPurchases.createdAt, kind: "datetime" },
  },
  defaultOrder: "-id",
  idColumn: recurringPurchases.id,
  sync: { modifiedAt: recurringPurchases.modifiedAt, softDeleted: false },
};

const notFound = (id: number) => ApiError.notFound("recurring_purchase_not_found", `Recurring purchase ${id}`);

/** The purchase (of `customerId` when given: another customer's is a 404, not a 403). */
const purchaseRow = (ctx: ServiceContext, id: number, customerId?: number) =>
  ctx.db
    .select()
    .from(recurringPurchases)
    .where(
      and(
        eq(recurringPurchases.id, id),
        live(recurringPurchases, ctx.appId),
        customerId === undefined ? undefined : eq(recurringPurchases.customerId, customerId),
      ),
    );

function view(r: PurchaseRow, customer: Customer | null, totalCartMinor: number): RecurringPurchase {
  return {
    id: r.id,
    app_id: r.appId,
    custom_fields: r.customFields ?? null,
    customer_id: r.customerId,
    customer,
    customer_details: customer
      ? { name: customer.name, mobile_number: customer.mobile_number, email: customer.email }
      : null,
    cart_id: r.cartId,
    cart_provider: r.cartProvider,
    total_cart_price: toMajor(totalCartMinor),
    duration: r.duration,
    duration_unit: r.durationUnit,
    status: r.status,
    payment_provider: r.paymentProvider,
    next_order_date: r.nextOrderDate,
    last_order_date: r.lastOrderDate,
    last_charge_date: r.lastChargeDate,
    charge_attempts: r.chargeAttempts,
    inactive_reason: r.inactiveReason,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

/** MO5 list; CA11 with `customerId`: each with its cart's total as last priced (the details price it now). */
export async function listRecurringPurchases(
  ctx: ServiceContext,
  q: ListQuery,
  customerId?: number,
): Promise<Page<RecurringPurchase>> {
  const scope = and(
    live(recurringPurchases, ctx.appId),
    customerId === undefined ? undefined : eq(recurringPurchases.customerId, customerId),
  )!;
  const { page, nested } = await listPageWith(ctx.db, q, { table: recurringPurchases, scope: () => scope }, (rows) => ({
    customers: customersJson(ctx.appId, sql`(SELECT customer_id FROM ${rows})`),
    totals: sql`(SELECT json_group_array(json_array(id, quoted_total_minor)) FROM ${carts}
      WHERE app_id = ${intLiteral(ctx.appId)} AND id IN (SELECT cart_id FROM ${rows}))`,
  }));
  const customers = customersFromJson(nested.customers);
  const total = new Map((nested.totals as [number, number][]).map(([id, t]) => [id, t]));
  return {
    ...page,
    results: page.results.map((r) => view(r, customers.get(r.customerId) ?? null, total.get(r.cartId) ?? 0)),
  };
}

/** The purchase, its charges and its orders: ONE batch of reads, keyed by the purchase's id. */
const purchaseReads = (ctx: ServiceContext, id: number, customerId?: number) =>
  [
    purchaseRow(ctx, id, customerId),
    ctx.db
      .select()
      .from(recurringCharges)
      .where(and(eq(recurringCharges.appId, ctx.appId), eq(recurringCharges.recurringPurchaseId, id)))
      .orderBy(desc(recurringCharges.cycleDate))
      .limit(HISTORY_MAX),
    ctx.db
      .select({
        id: orders.id,
        totalMinor: orders.totalMinor,
        status: orders.status,
        paymentStatus: orders.paymentStatus,
        paymentProvider: orders.paymentProvider,
        paymentMethod: orders.paymentMethod,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .where(and(live(orders, ctx.appId), eq(orders.recurringPurchaseId, id)))
      .orderBy(desc(orders.id))
      .limit(HISTORY_MAX),
  ] as const;

/** What a purchase's details show, read in one round trip: its row, charges, orders and cart priced now. */
async function readDetails(ctx: ServiceContext, id: number, customerId?: number) {
  const cartId = sql`(SELECT cart_id FROM recurring_purchases WHERE id = ${id} AND app_id = ${ctx.appId})`;
  const [[rows, charges, orderRows], cart] = await Promise.all([
    ctx.db.batch(purchaseReads(ctx, id, customerId)),
    cartDetails(ctx, cartId).catch((error: unknown) => {
      // A purchase outlives nothing of its cart, but a missing one must not hide the purchase.
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
  ]);
  return { row: rows[0], charges, orderRows, cart };
}

/**
 * MO5 details; CA11 details with `customerId`: the saved cart priced now, its charges and its
 * orders, in one round trip (the cart keyed by the purchase's id in SQL).
 */
export async function recurringPurchaseDetails(
  ctx: ServiceContext,
  id: number,
  customerId?: number,
): Promise<RecurringPurchaseDetails> {
  const read = await readDetails(ctx, id, customerId);
  if (!read.row) throw notFound(id);
  return detailsView(read.row, read);
}

function detailsView(
  r: PurchaseRow,
  { charges, orderRows, cart }: Awaited<ReturnType<typeof readDetails>>,
): RecurringPurchaseDetails {
  return {
    ...view(r, cart?.customer ?? null, cart ? Math.round(cart.total_cart_price * 100) : 0),
    cart_items: cart?.cart_items ?? [],
    charge_history: charges.map((c) => ({
      id: c.id,
      cycle_date: c.cycleDate,
      created_at: c.createdAt,
      status: c.status,
      order_id: c.orderId,
      amount: toMajor(c.amountMinor),
      error_message: c.errorMessage,
    })),
    orders: orderRows.map((o) => ({
      id: o.id,
      total_amount: toMajor(o.totalMinor),
      status: o.status,
      payment_status: o.paymentStatus,
      payment_provider: o.paymentProvider,
      payment_method: o.paymentMethod,
      created_at: o.createdAt,
    })),
  };
}

/**
 * Stops a recurring purchase (MO5 PATCH `status: inactive`; CA11 deactivate): pending or active to
 * inactive through the state machine, guarded on the status it read, with `recurring_purchase.updated`.
 * `alreadyDone: "ok"` answers an inactive one as it is (the customer's action is idempotent);
 * otherwise it is a 409 `invalid_state_transition`.
 */
export async function deactivateRecurringPurchase(
  ctx: ServiceContext,
  id: number,
  opts: { by: "merchant" | "customer"; customerId?: number; alreadyDone?: "ok" | "conflict" },
): Promise<RecurringPurchaseDetails> {
  // The details are read with the purchase (a deactivation changes nothing of them but the row),
  // and the batch reads the row back: two round trips, one more for each time the status moved.
  const read = await readDetails(ctx, id, opts.customerId);
  let r = read.row;
  // Twice at most: a first order paid meanwhile (pending → active) is stopped from its new status.
  for (let attempt = 0; ; attempt++) {
    if (!r) throw notFound(id);
    if (r.status === "inactive" && opts.alreadyDone === "ok") return detailsView(r, read);
    const to = recurringMachine.next(r.status, "deactivate", `Recurring purchase ${id}`);
    if (attempt === 2) throw ApiError.conflict("concurrent_update", `Recurring purchase ${id} kept changing; retry.`);
    const at = nowIso();
    const { applied, results } = await emit(
      ctx.db,
      ctx.events,
      [
        ctx.db
          .update(recurringPurchases)
          .set({ status: to, inactiveReason: `Stopped by the ${opts.by}.`, modifiedAt: at })
          .where(and(eq(recurringPurchases.id, id), eq(recurringPurchases.status, r.status))),
      ],
      [newEvent(ctx.appId, "recurring_purchase.updated", { id, customer_id: r.customerId, status: to })],
      {
        guard: sql`EXISTS (SELECT 1 FROM recurring_purchases WHERE id = ${id} AND status = ${r.status})`,
        after: [purchaseRow(ctx, id, opts.customerId)],
      },
    );
    r = (results[1] as PurchaseRow[])[0];
    if (applied && r) return detailsView(r, read);
  }
}
