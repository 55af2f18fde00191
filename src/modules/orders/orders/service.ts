import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan, batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live, liveOffIndex } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { containsText } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { addCashbackMovement, findCustomer, getLocation } from "../../customers";
import { returnStockStatements } from "../../items";
import { releaseVoucherStatements, voucherUsedEventsSql } from "../../vouchers";
import { pricingOf } from "../carts/pricing";
import { placeOrderShown, readOrderInputs } from "../checkout/place";
import { invoiceEventSql, orderEventSql } from "../events-sql";
import { quoteOf, readQuoteFacts } from "../pricing/quote";
import { linesOf } from "../shared";
import { subscriptionsStep } from "../subscriptions/plan";
import {
  CART_PROVIDERS,
  FULFILLMENT_STATUSES,
  invoices,
  ORDER_KINDS,
  ORDER_STATUSES,
  orderCounts,
  orderItems,
  orders,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  transactions,
} from "../tables";
import { orderMachine } from "./machine";
import type { CreateOrder, Order, UpdateOrder } from "./schemas";
import { assembleOrders, type LinkContext, loadOrders, orderListParts, ordersOfRow, ordersStatement } from "./views";

type OrderRow = typeof orders.$inferSelect;

const ORDER_FIELDS: ListSpec["fields"] = {
  id: { column: orders.id, kind: "integer" },
  kind: { column: orders.kind, kind: "string", values: ORDER_KINDS },
  status: { column: orders.status, kind: "string", values: ORDER_STATUSES },
  payment_status: { column: orders.paymentStatus, kind: "string", values: PAYMENT_STATUSES },
  fulfillment_status: { column: orders.fulfillmentStatus, kind: "string", values: FULFILLMENT_STATUSES },
  payment_provider: { column: orders.paymentProvider, kind: "string", values: PAYMENT_PROVIDERS, nullable: true },
  cart_provider: { column: orders.cartProvider, kind: "string", values: CART_PROVIDERS },
  customer_id: { column: orders.customerId, kind: "integer", nullable: true },
  reference: { column: orders.reference, kind: "string", nullable: true },
  voucher_code: { column: orders.voucherCode, kind: "string", nullable: true },
  total_amount: { column: orders.totalMinor, kind: "money" },
  created_at: { column: orders.createdAt, kind: "datetime" },
  paid_at: { column: orders.paidAt, kind: "datetime", nullable: true },
};

/**
 * A store's orders whose reference, or whose customer's name or mobile number, contains the term
 * (`containsText`). The matches drive the query (`indexed`), the matching customers' orders coming
 * by `orders_customer_idx`; neither subquery is correlated with the outer order, so SQLite runs each
 * once. A term of 3 characters or more is looked up in the trigram indexes (migration 0014) instead
 * of tested against every customer and reference of the store; they fold case beyond ASCII, which
 * `containsText` does not, so it still decides among the rows they return. A shorter term has no
 * trigram, and FTS5 cannot parse a NUL: those test the store's rows.
 */
const searchOrders = (appId: number) => (term: string) => {
  const matches = (column: string) => containsText(sql.raw(column), term);
  const whose = sql`(${matches("name")} OR ${matches("mobile_number")})`;
  if ([...term].length < 3 || term.includes("\0"))
    return {
      where: sql`${orders.id} IN (SELECT id FROM orders WHERE app_id = ${appId} AND reference IS NOT NULL
          AND ${matches("reference")}
        UNION ALL SELECT id FROM orders WHERE app_id = ${appId} AND customer_id IN (SELECT id FROM customers
          WHERE app_id = ${appId} AND ${whose}))`,
      indexed: true,
    };
  // A phrase: the term's characters in a row, quotes doubled. Other stores' matching orders are left
  // out by the list's scope (a parameter less a term: five terms still bind at most D1's 100).
  // `+app_id`: on its index, SQLite would walk every customer of the store, testing each.
  const phrase = `"${term.replaceAll('"', '""')}"`;
  return {
    where: sql`${orders.id} IN (SELECT id FROM orders WHERE id IN (SELECT rowid FROM orders_fts
        WHERE orders_fts MATCH ${phrase}) AND ${matches("reference")}
      UNION ALL SELECT id FROM orders WHERE app_id = ${appId} AND customer_id IN (SELECT id FROM customers
        WHERE id IN (SELECT rowid FROM customers_fts WHERE customers_fts MATCH ${phrase})
          AND +app_id = ${appId} AND ${whose}))`,
    indexed: true,
  };
};

/** The list of a store's orders (its search is the store's own). */
export const orderListOf = (appId: number): ListSpec => ({
  fields: ORDER_FIELDS,
  search: searchOrders(appId),
  searchDescription: "The order's reference, or its customer's name or mobile number.",
  defaultOrder: "-id",
  idColumn: orders.id,
  // Orders are never deleted (a cancelled order is a status): no `include_deleted`.
  sync: { modifiedAt: orders.modifiedAt, softDeleted: false },
});

/** The list's parameters, as the API document shows them (no store: a request uses `orderListOf`). */
export const ORDER_LIST: ListSpec = orderListOf(0);

const notFound = (id: number) => ApiError.notFound("order_not_found", `Order ${id}`);

/**
 * The count of the store's live orders from its kept counters (`order_counts`), when the list is
 * filtered by nothing but its status: counting 100,000 orders' index entries costs more than all
 * the rest of the statement.
 */
function keptCount(appId: number, q: ListQuery): SQL | undefined {
  const given = q.given ? Object.keys(q.given) : undefined;
  if (!given || given.some((k) => k !== "status")) return undefined;
  const status = given.length ? sql` AND ${orderCounts.status} = ${q.given!.status}` : sql``;
  return sql`(SELECT coalesce(sum(${orderCounts.n}), 0) FROM ${orderCounts} WHERE ${orderCounts.appId} = ${appId}${status})`;
}

/** A list of orders: the count, the page and every nested level in one statement (one round trip). */
async function listOf(
  ctx: ServiceContext,
  q: ListQuery,
  links: LinkContext,
  scope: (searchDriven: boolean) => SQL,
  count?: SQL,
): Promise<Page<Order>> {
  const now = nowIso();
  const of = orderListParts(ctx.appId, now);
  const { page, nested } = await listPageWith(ctx.db, q, { table: orders, scope, count, with: of.with }, of.nested);
  const loaded = await assembleOrders(page.results, nested, links, now);
  return { ...page, results: page.results.map((r) => loaded.get(r.id)!) };
}

/** MO4 list. */
export const listOrders = (ctx: ServiceContext, q: ListQuery, links: LinkContext) =>
  listOf(
    ctx,
    q,
    links,
    (searchDriven) => (searchDriven ? liveOffIndex(orders, ctx.appId) : live(orders, ctx.appId)),
    keptCount(ctx.appId, q),
  );

/** CA11: the customer's own orders (their index keeps driving a search: they are few). */
export const listMyOrders = (ctx: ServiceContext, customerId: number, q: ListQuery, links: LinkContext) =>
  listOf(ctx, q, links, () => and(live(orders, ctx.appId), eq(orders.customerId, customerId))!);

async function findOrder(ctx: ServiceContext, id: number, customerId?: number): Promise<OrderRow> {
  const row = await ctx.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.id, id),
        live(orders, ctx.appId),
        customerId === undefined ? undefined : eq(orders.customerId, customerId),
      ),
    )
    .get();
  if (!row) throw notFound(id);
  return row;
}

/** MO4 details; CA11 details with `customerId` (another customer's order is a 404). */
export async function orderDetails(ctx: ServiceContext, id: number, links: LinkContext, customerId?: number) {
  // One round trip: the order only when it is live and (for a customer) theirs, with every nested level.
  const only = and(live(orders, ctx.appId), customerId === undefined ? undefined : eq(orders.customerId, customerId));
  const order = (await loadOrders(ctx, [id], links, only)).get(id);
  if (!order) throw notFound(id);
  return order;
}

/** MO4 create: a phone order, pending with a pay link (or waiting for its transfer or its delivery). */
export async function createOrder(ctx: ServiceContext, input: CreateOrder, links: LinkContext): Promise<Order> {
  // Everything at once, the quote's reads too (they need only the body); a refusal is answered in the
  // order it was checked before.
  const lines = linesOf(input.items);
  const voucherCode = input.voucher_code ?? null;
  const [customer, located, inputs, facts] = await Promise.all([
    settled(findCustomer(ctx, input.customer_id)),
    settled(input.location_id ? getLocation(ctx, input.customer_id, input.location_id) : Promise.resolve(null)),
    readOrderInputs(ctx, input.customer_id),
    settled(readQuoteFacts(ctx, { lines, voucherCode, customerId: input.customer_id })),
  ]);
  if (!customer.ok) throw customer.error; // 404 customer_not_found: not a live customer of the store
  if (!located.ok) {
    if (located.error instanceof ApiError && located.error.status === 404)
      throw ApiError.validation({
        location_id: [`Location ${input.location_id} is not one of customer ${input.customer_id}'s.`],
      });
    throw located.error;
  }
  const location = located.value;
  if (!facts.ok) throw facts.error;
  const q = quoteOf(facts.value, {
    lines,
    customerId: input.customer_id,
    voucherCode,
    walletRedeemMinor: 0,
    ...pricingOf(inputs.settings, inputs.config),
  });
  if (input.voucher_code && !q.voucher?.isSuccess)
    throw ApiError.validation({ voucher_code: [q.voucher?.errorReason ?? "The voucher does not apply."] });
  const customerId = input.customer_id;
  // The order is read back in its own batch.
  return placeOrderShown(
    ctx,
    q,
    {
      kind: "purchase",
      customerId,
      cartId: null,
      provider: input.payment_provider,
      paymentMethod: null,
      cartProvider: "other",
      reference: input.reference ?? null,
      notes: input.notes ?? null,
      location: location as Record<string, unknown> | null,
      customFields: input.custom_fields ?? null,
    },
    customerId === null ? [] : [subscriptionsStep(ctx, q.lines, customerId)],
    inputs,
    links,
  ).catch((error: unknown) => {
    if (
      error instanceof Error &&
      /orders_app_reference_idx|UNIQUE.*orders\.reference/.test(String(error.cause ?? error.message))
    )
      throw ApiError.conflict("conflict", `Another order of the store has the reference ${input.reference}.`);
    throw error;
  });
}

/** A read's outcome, held so that reads sent together are refused in the order they were checked one by one. */
const settled = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** The lines whose stock a release gives back, of the order `orderId` names (a value or a subquery). */
export const orderLinesToRelease = (ctx: ServiceContext, orderId: SQL) =>
  ctx.db
    .select({ itemId: orderItems.itemId, qty: orderItems.qty })
    .from(orderItems)
    .where(sql`${orderItems.orderId} = ${orderId}`);

/**
 * Adds to `plan` what gives an unpaid order's holds back (cancel, expire): its stock, its voucher
 * use, the cashback it took, its unpaid invoice (voided) and its open transactions (failed); with
 * their events. `lines` are the order's (`orderLinesToRelease`), when the caller read them already.
 */
export async function addOrderRelease(
  plan: BatchPlan,
  ctx: ServiceContext,
  order: OrderRow,
  to: "cancelled" | "expired",
  at: string,
  lines?: { itemId: number | null; qty: number }[],
): Promise<void> {
  lines ??= await orderLinesToRelease(ctx, sql`${order.id}`);
  const id = sql`${order.id}`;
  const statements: BatchItem<"sqlite">[] = [
    // Everything below gives back what a PENDING order holds: a payment that landed first wins.
    abortUnless(ctx.db, sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND status = 'pending')`, "pending"),
    ctx.db
      .update(orders)
      .set({
        status: to,
        paymentStatus: order.walletRedeemMinor > 0 ? "refunded" : order.paymentStatus === "paid" ? "paid" : "failed",
        cancelledAt: to === "cancelled" ? at : null,
        expiresAt: null,
        modifiedAt: at,
      })
      .where(and(eq(orders.id, order.id), eq(orders.status, "pending"))),
    ...returnStockStatements(
      ctx,
      lines.filter((l) => l.itemId !== null).map((l) => ({ itemId: l.itemId!, qty: l.qty })),
      at,
    ),
    ...releaseVoucherStatements(ctx, order.id, at),
    ctx.db
      .update(invoices)
      .set({ status: "void", modifiedAt: at })
      .where(and(eq(invoices.orderId, order.id), eq(invoices.status, "unpaid"))),
    ctx.db
      .update(transactions)
      .set({ status: "failed", modifiedAt: at })
      // A card payment may still land at its gateway: it stays pending, and settle refunds it if it does.
      .where(
        and(
          eq(transactions.orderId, order.id),
          sql`${transactions.status} IN ('pending', 'pending_review') AND ${transactions.paymentProvider} <> 'card'`,
        ),
      ),
  ];
  const events: SQL[] = [
    orderEventSql(to === "cancelled" ? "order.cancelled" : "order.expired", id),
    invoiceEventSql("invoice.voided", sql`order_id = ${order.id} AND status = 'void'`),
    voucherUsedEventsSql(ctx, { orderId: order.id, action: "release", at }),
  ];
  plan.add(...statements).event(...events);
  if (order.walletRedeemMinor > 0 && order.customerId !== null)
    addCashbackMovement(plan, ctx, order.customerId, {
      type: "refund",
      units: order.walletRedeemMinor,
      orderId: id,
      reason: to === "cancelled" ? "Order cancelled" : "Order expired unpaid",
    });
}

/**
 * MO4 update: notes, reference, custom fields, and `status: cancelled` through the state machine
 * (everything a pending order held given back; a 409 naming the status when it is not pending, read
 * before, or a payment that landed meanwhile). The order and the lines a cancellation gives back are
 * read at once; the change and its answer are one batch.
 */
export async function updateOrder(ctx: ServiceContext, id: number, input: UpdateOrder, links: LinkContext) {
  const released = input.status === "cancelled";
  const ofStore = sql`(SELECT ${orders.id} FROM ${orders} WHERE ${and(eq(orders.id, id), live(orders, ctx.appId))})`;
  const [order, lines] = await Promise.all([
    findOrder(ctx, id),
    released ? orderLinesToRelease(ctx, ofStore) : undefined,
  ]);
  const fields = {
    ...(input.notes !== undefined && { notes: input.notes }),
    ...(input.reference !== undefined && { reference: input.reference }),
    ...(input.custom_fields !== undefined && { customFields: input.custom_fields }),
  };
  const changed = Object.keys(fields).length > 0;
  if (!released && !changed) return (await loadOrders(ctx, [id], links)).get(id)!;
  if (released) orderMachine.next(order.status, "cancel", `Order ${id}`);
  const at = nowIso();
  const plan = new BatchPlan(ctx.db);
  if (released) await addOrderRelease(plan, ctx, order, "cancelled", at, lines);
  // The event's data is the row as the batch leaves it (after a cancellation, which moved its status).
  if (changed)
    plan
      .add(
        ctx.db
          .update(orders)
          .set({ ...fields, modifiedAt: at })
          .where(eq(orders.id, id)),
      )
      .event(orderEventSql("order.updated", sql`${id}`));
  const { query, columns } = ordersStatement(ctx.appId, sql`(${id})`, at);
  const answer = plan.read<Record<string, string | null>>(batchStatement(ctx.db, query, selectColumns(columns)));
  try {
    const result = await plan.run(ctx.events);
    return (await ordersOfRow(result.rows(answer)[0], columns, links, at)).get(id)!;
  } catch (error) {
    if (isGuardAbort(error)) {
      const now = await findOrder(ctx, id);
      orderMachine.next(now.status, "cancel", `Order ${id}`);
      throw error;
    }
    if (/UNIQUE/.test(String((error as Error).cause ?? (error as Error).message)))
      throw ApiError.conflict("conflict", `Another order of the store has the reference ${input.reference}.`);
    throw error;
  }
}

/** The scheduled sweep: pending orders past their payment deadline give their stock back. */
export async function expireUnpaidOrders(
  contextOf: (appId: number) => ServiceContext,
  db: ServiceContext["db"],
  now = nowIso(),
  limit = 100,
  /** Stock went back: the store's cached catalogue reads are made fresh. */
  onStockReturned?: (appId: number) => Promise<void>,
): Promise<number> {
  const due = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, "pending"), sql`${orders.expiresAt} <= ${now}`))
    .limit(limit);
  let expired = 0;
  for (const order of due) {
    const ctx = contextOf(order.appId);
    const plan = new BatchPlan(ctx.db);
    await addOrderRelease(plan, ctx, order, "expired", now);
    try {
      await plan.run(ctx.events);
      expired += 1;
      await onStockReturned?.(order.appId);
    } catch (error) {
      // A payment that landed meanwhile: the order is no longer pending, nothing was written.
      if (!isGuardAbort(error)) throw error;
    }
  }
  return expired;
}
