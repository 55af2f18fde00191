import { sql } from "drizzle-orm";
import { BatchPlan, batchStatement, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { literalEvent } from "../../../core/events/outbox";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { readStoreSettings, type StoreSettings } from "../../account";
import { addCashbackMovement, cashbackBalanceOf } from "../../customers";
import { availableUnits, takeStockStatements } from "../../items";
import { useVoucherStatements, voucherUsedEventsSql } from "../../vouchers";
import { invoiceEventSql, orderEventSql, transactionEventSql } from "../events-sql";
import { readInvoiceConfig } from "../invoices/config";
import type { InvoiceConfig } from "../invoices/schemas";
import type { Order } from "../orders/schemas";
import { type LinkContext, ordersOfRow, ordersStatement } from "../orders/views";
import { paidStatements } from "../payments/paid";
import type { Quote } from "../pricing/quote";
import { carts } from "../tables";
import { type CheckoutConfigRow, readCheckoutConfig } from "./config";
import {
  invoiceInsert,
  invoiceItemsInsert,
  orderInsert,
  orderItemsInsert,
  paymentTransactionInsert,
} from "./order-rows";
import type { OrderStep, Payment, PlacedOrder, PlaceOrder } from "./order-step";

export type { OrderStep, PlacedOrder, PlaceOrder };

/** What placing an order reads before its batch: the store's rules and the customer's cashback. */
export type OrderInputs = {
  config: CheckoutConfigRow;
  settings: StoreSettings;
  invoiceConfig: InvoiceConfig;
  /** The customer's spendable cashback (0 without a customer). */
  cashbackMinor: number;
};

/** `placeOrder`'s reads in ONE round trip: a caller sends them beside its own first reads. */
export async function readOrderInputs(ctx: ServiceContext, customerId: number | null): Promise<OrderInputs> {
  const [config, settings, invoiceConfig, cashback] = await Promise.all([
    readCheckoutConfig(ctx.db, ctx.appId),
    readStoreSettings(ctx.db, ctx.appId),
    readInvoiceConfig(ctx.db, ctx.appId),
    customerId === null ? 0 : cashbackBalanceOf(ctx, customerId),
  ]);
  return { config, settings, invoiceConfig, cashbackMinor: cashback ?? 0 };
}

/**
 * Places an order from a quote in ONE guarded D1 batch: the cart still open, every line's stock
 * taken, the voucher under its limits, the wallet covering its part, the order, its lines, its
 * invoice and transactions, the callers' steps, and all their events, or nothing at all. A free
 * order (or one the wallet pays whole) is paid in the same batch. Returns the new order's id.
 * `inputs`, when the caller read them beside its own reads (`readOrderInputs`), saves their round trip.
 */
export async function placeOrder(
  ctx: ServiceContext,
  q: Quote,
  o: PlaceOrder,
  steps: OrderStep[] = [],
  inputs?: OrderInputs,
): Promise<number> {
  const { plan, order } = planOrder(ctx, q, o, steps, inputs ?? (await readOrderInputs(ctx, o.customerId)));
  return (await runOrder(ctx, plan)).id(order);
}

/**
 * `placeOrder`, answering the placed order in full, read at the end of its own batch (no round trip
 * after the write): what a checkout shows.
 */
export async function placeOrderShown(
  ctx: ServiceContext,
  q: Quote,
  o: PlaceOrder,
  steps: OrderStep[],
  inputs: OrderInputs,
  links: LinkContext,
): Promise<Order> {
  const { plan, order } = planOrder(ctx, q, o, steps, inputs);
  const now = nowIso();
  const { query, columns } = ordersStatement(
    ctx.appId,
    sql`(SELECT id FROM batch_handles WHERE name = ${order.name})`,
    now,
  );
  const shown = plan.read<Record<string, unknown>>(batchStatement(ctx.db, query, selectColumns(columns)));
  const result = await runOrder(ctx, plan);
  const id = result.id(order);
  return (await ordersOfRow(result.rows(shown)[0], columns, links, now)).get(id)!;
}

const runOrder = (ctx: ServiceContext, plan: BatchPlan) =>
  plan.run(
    ctx.events,
    ApiError.conflict("concurrent_update", "The cart changed while it was checked out; nothing was written, retry."),
  );

/** The order's batch: its refusals are thrown before anything is sent. */
function planOrder(ctx: ServiceContext, q: Quote, o: PlaceOrder, steps: OrderStep[], inputs: OrderInputs) {
  const { config, settings, invoiceConfig } = inputs;
  refuseUnplaceable(config, q, o);
  // One instant for the order: its payment window and its invoice's due date run from its creation.
  const at = nowIso();
  const pay = paymentOf(config, q, o, Date.parse(at));
  if (pay.walletMinor > 0) {
    const balance = o.customerId === null ? 0 : inputs.cashbackMinor;
    if (balance < pay.walletMinor) throw insufficientBalance(balance, pay.walletMinor);
  }
  const dueAt = invoiceConfig.due_days
    ? new Date(Date.parse(at) + invoiceConfig.due_days * 86400_000).toISOString()
    : pay.expiresAt;
  const plan = new BatchPlan(ctx.db);
  const cartId = o.cartId;
  if (cartId !== null)
    plan.guard(sql`EXISTS (SELECT 1 FROM carts WHERE id = ${cartId} AND status = 'open')`, "cart", () =>
      cartRefusal(ctx, cartId),
    );
  const stock = q.lines.map((l) => ({ itemId: l.itemId, qty: l.qty }));
  plan.guarded(takeStockStatements(ctx, stock, at), () => stockRefusal(ctx, stock));
  const order = plan.insert("order", orderInsert(ctx, q, o, pay, at));
  plan.add(orderItemsInsert(ctx, q, o.kind, order, at));
  const invoice = plan.insert("invoice", invoiceInsert(ctx, q, order, dueAt, at));
  plan.add(invoiceItemsInsert(ctx, order, invoice, at));
  plan.event(
    orderEventSql("order.created", order.id),
    invoiceEventSql("invoice.created", sql`id = ${invoice.id}`),
    ...[...new Set(stock.map((l) => l.itemId))].map((id) =>
      literalEvent(ctx.appId, "item.updated", {
        id,
        purchased: stock.filter((l) => l.itemId === id).reduce((s, l) => s + l.qty, 0),
      }),
    ),
  );
  const placed: PlacedOrder = { order, invoice, provider: pay.provider, currency: q.currency, at, settings };
  addVoucherUse(ctx, plan, q, o, placed);
  addPayments(ctx, plan, o, pay, placed);
  if (cartId !== null)
    plan.add(
      ctx.db
        .update(carts)
        .set({ status: "checked_out", orderId: order.id, checkedOutAt: at, modifiedAt: at })
        .where(sql`${carts.id} = ${cartId}`),
    );
  for (const step of steps) step(plan, placed);
  if (pay.paidNow) {
    const paid = paidStatements(ctx, {
      orderId: order.id,
      kind: o.kind,
      at,
      settings,
      serialPrefix: invoiceConfig.serial_prefix,
    });
    plan.add(...paid.statements).event(...paid.events);
  }
  return { plan, order };
}

/** The store's checkout rules, for a customer's order (a top-up is the merchant paying for their own balance). */
function refuseUnplaceable(config: CheckoutConfigRow, q: Quote, o: PlaceOrder): void {
  if (o.kind === "wallet_topup") return;
  if (!config.enabledProviders.includes(o.provider))
    throw ApiError.conflict("payment_provider_disabled", `This store does not take ${o.provider} payments.`, {
      enabled_providers: config.enabledProviders,
    });
  if (q.lines.length === 0 && !q.serviceLines?.length) throw ApiError.conflict("cart_empty", "The order has no lines.");
  if (q.totalMinor < config.minOrderMinor)
    throw ApiError.conflict(
      "below_minimum_order",
      `The total ${toMajor(q.totalMinor)} is below the store's minimum order of ${toMajor(config.minOrderMinor)}.`,
      { min_order_amount: toMajor(config.minOrderMinor) },
    );
}

/** Paying with the wallet means all of it; otherwise the cart's partial redemption, if the store allows it. */
function paymentOf(config: CheckoutConfigRow, q: Quote, o: PlaceOrder, atMs: number): Payment {
  const walletMinor = o.provider === "wallet" ? q.totalMinor : config.isWalletRedeemEnabled ? q.walletRedeemMinor : 0;
  const owed = q.totalMinor - walletMinor;
  const paidNow = owed === 0;
  const provider = paidNow ? (walletMinor > 0 ? "wallet" : "free") : o.provider;
  const ttlMs =
    provider === "bank_transfer" ? config.bankTransferTtlHours * 3600_000 : config.paymentTtlMinutes * 60_000;
  const expiresAt = paidNow || provider === "cash_on_delivery" ? null : new Date(atMs + ttlMs).toISOString();
  return { walletMinor, owed, paidNow, provider, expiresAt };
}

function addVoucherUse(ctx: ServiceContext, plan: BatchPlan, q: Quote, o: PlaceOrder, placed: PlacedOrder): void {
  const voucher = q.voucher?.isSuccess ? q.voucher : null;
  if (!voucher?.voucherId) return;
  const { order, at } = placed;
  plan.guarded(
    useVoucherStatements(ctx, { voucherId: voucher.voucherId, customerId: o.customerId, orderId: order.id, at }),
    ApiError.conflict(
      "voucher_usage_limit_reached",
      `Voucher ${voucher.code} reached its usage limit meanwhile; check out without it or with another.`,
    ),
  );
  plan.event(voucherUsedEventsSql(ctx, { orderId: order.id, action: "use", at }));
}

/** The wallet's part, captured now; a bank transfer's or cash payment, pending the merchant's capture. */
function addPayments(ctx: ServiceContext, plan: BatchPlan, o: PlaceOrder, pay: Payment, placed: PlacedOrder): void {
  const { order } = placed;
  const customerId = o.customerId;
  if (pay.walletMinor > 0 && customerId !== null) {
    addCashbackMovement(
      plan,
      ctx,
      customerId,
      { type: "redeem", units: pay.walletMinor, orderId: order.id, reason: "Order payment" },
      async () => {
        const balance = (await cashbackBalanceOf(ctx, customerId)) ?? 0;
        return balance < pay.walletMinor ? insufficientBalance(balance, pay.walletMinor) : null;
      },
    );
    plan
      .add(paymentTransactionInsert(ctx, placed, "wallet", "captured", pay.walletMinor))
      .event(transactionEventSql("transaction.captured", sql`order_id = ${order.id} AND payment_provider = 'wallet'`));
  }
  const provider = pay.provider;
  if (!pay.paidNow && (provider === "bank_transfer" || provider === "cash_on_delivery")) {
    // The merchant captures these by hand (MO10) once the money arrives, or declines a transfer (MO11).
    const status = provider === "bank_transfer" ? "pending_review" : "pending";
    plan.add(paymentTransactionInsert(ctx, placed, provider, status, pay.owed));
    plan.event(
      transactionEventSql("transaction.created", sql`order_id = ${order.id} AND payment_provider = ${provider}`),
    );
  }
}

const insufficientBalance = (available: number, needed: number) =>
  ApiError.conflict(
    "insufficient_balance",
    `The customer's cashback balance is ${toMajor(available)}, less than the ${toMajor(needed)} to pay from it.`,
    { kind: "cashback", available: toMajor(available) },
  );

async function cartRefusal(ctx: ServiceContext, cartId: number): Promise<ApiError | null> {
  const cart = await ctx.db
    .select({ status: carts.status, orderId: carts.orderId })
    .from(carts)
    .where(sql`${carts.id} = ${cartId}`)
    .get();
  if (!cart || cart.status === "open") return null;
  return ApiError.conflict("cart_checked_out", `Cart ${cartId} was already checked out.`, { order_id: cart.orderId });
}

async function stockRefusal(ctx: ServiceContext, lines: { itemId: number; qty: number }[]): Promise<ApiError | null> {
  const wanted = new Map<number, number>();
  for (const l of lines) wanted.set(l.itemId, (wanted.get(l.itemId) ?? 0) + l.qty);
  const available = await availableUnits(ctx, [...wanted.keys()]);
  for (const [itemId, qty] of wanted) {
    const has = available.get(itemId) ?? 0;
    if (has < qty)
      return ApiError.conflict("insufficient_stock", `Item ${itemId} has ${has} unit(s) available; ${qty} asked.`, {
        item_id: itemId,
        available: has,
      });
  }
  return null;
}
