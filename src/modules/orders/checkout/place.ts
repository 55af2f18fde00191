import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, literalEvent, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { toMajor } from "../../../core/money";
import { insertedId } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { cashbackBalanceOf, cashbackMovementStatements } from "../../customers";
import { availableUnits, takeStockStatements } from "../../items";
import { useVoucherStatements, voucherUsedEventsSql } from "../../vouchers";
import { invoiceEventSql, orderEventSql, transactionEventSql } from "../events-sql";
import { readInvoiceConfig } from "../invoices/config";
import { paidStatements } from "../payments/paid";
import type { Quote } from "../pricing/quote";
import { recurringPurchaseStatements } from "../recurring/create";
import type { DurationUnit } from "../recurring/dates";
import { subscriptionCreateStatements } from "../subscriptions/plan";
import { carts, invoiceItems, invoices, orderItems, orders, transactions } from "../tables";
import { type CheckoutProvider, readCheckoutConfig } from "./config";

export type PlaceOrder = {
  /** `meal`: an order the meals side places (service lines; `also` writes its own rows, a paid hook acts on it). */
  kind: "purchase" | "wallet_topup" | "meal";
  customerId: number | null;
  cartId: number | null;
  provider: CheckoutProvider;
  paymentMethod: string | null;
  cartProvider: "web" | "app" | "pos" | "other";
  reference?: string | null;
  notes?: string | null;
  receiver?: Record<string, unknown> | null;
  location?: Record<string, unknown> | null;
  locationId?: number | null;
  customFields?: Record<string, unknown> | null;
  recurringPurchaseId?: number | null;
  /** A recurring cart's checkout: the recurring purchase is created in the same batch (recurring/create.ts). */
  recurring?: { duration: number; durationUnit: DurationUnit } | null;
  /** A subscription's renewal order: it renews its subscription and creates none. */
  subscriptionRenewal?: boolean;
  /** More of this batch, after the order, before "paid" (a recurring cycle's charge): `insertedId(orders)` is the order. */
  also?: { statements: BatchItem<"sqlite">[]; events: SQL[] };
};

/** The order this batch inserted: a batch is one transaction and D1 runs one at a time. */
const ORDER = insertedId(orders);
/** The order `placeOrder`'s batch inserts, for the statements of its `also`. */
export const PLACED_ORDER_ID: SQL = ORDER;

/**
 * Places an order from a quote in ONE guarded D1 batch: the cart still open, every line's stock
 * taken, the voucher under its limits, the wallet covering its part, the order, its lines, its
 * invoice and transactions, and all their events, or nothing at all. A free order (or one the
 * wallet pays whole) is paid in the same batch. Returns the new order's id.
 */
export async function placeOrder(ctx: ServiceContext, q: Quote, o: PlaceOrder): Promise<number> {
  const [config, settings, invoiceConfig] = await Promise.all([
    readCheckoutConfig(ctx.db, ctx.appId),
    readStoreSettings(ctx.db, ctx.appId),
    readInvoiceConfig(ctx.db, ctx.appId),
  ]);
  // A top-up is the merchant paying for their own balance: the store's checkout rules are for customers.
  const customerOrder = o.kind !== "wallet_topup";
  if (customerOrder && !config.enabledProviders.includes(o.provider))
    throw ApiError.conflict("payment_provider_disabled", `This store does not take ${o.provider} payments.`, {
      enabled_providers: config.enabledProviders,
    });
  if (q.lines.length === 0 && !q.serviceLines?.length && customerOrder)
    throw ApiError.conflict("cart_empty", "The order has no lines.");
  if (customerOrder && q.totalMinor < config.minOrderMinor)
    throw ApiError.conflict(
      "below_minimum_order",
      `The total ${toMajor(q.totalMinor)} is below the store's minimum order of ${toMajor(config.minOrderMinor)}.`,
      { min_order_amount: toMajor(config.minOrderMinor) },
    );
  // Paying with the wallet means all of it; otherwise the cart's partial redemption, if the store allows it.
  const walletMinor = o.provider === "wallet" ? q.totalMinor : config.isWalletRedeemEnabled ? q.walletRedeemMinor : 0;
  const owed = q.totalMinor - walletMinor;
  const paidNow = owed === 0;
  const provider = paidNow ? (walletMinor > 0 ? "wallet" : "free") : o.provider;
  if (walletMinor > 0) {
    const balance = o.customerId === null ? 0 : ((await cashbackBalanceOf(ctx, o.customerId)) ?? 0);
    if (balance < walletMinor) throw insufficientBalance(balance, walletMinor);
  }

  const at = nowIso();
  const expiresAt =
    paidNow || provider === "cash_on_delivery"
      ? null
      : new Date(
          Date.now() +
            (provider === "bank_transfer" ? config.bankTransferTtlHours * 3600_000 : config.paymentTtlMinutes * 60_000),
        ).toISOString();
  const voucher = q.voucher?.isSuccess ? q.voucher : null;
  const statements: BatchItem<"sqlite">[] = [];
  const events: SQL[] = [];

  if (o.cartId !== null)
    statements.push(
      abortUnless(ctx.db, sql`EXISTS (SELECT 1 FROM carts WHERE id = ${o.cartId} AND status = 'open')`, "cart"),
    );
  statements.push(
    ...takeStockStatements(
      ctx,
      q.lines.map((l) => ({ itemId: l.itemId, qty: l.qty })),
      at,
    ),
  );
  const orderAt = statements.length;
  statements.push(
    ctx.db
      .insert(orders)
      .values({
        appId: ctx.appId,
        kind: o.kind,
        customerId: o.customerId,
        cartId: o.cartId,
        recurringPurchaseId: o.recurringPurchaseId ?? null,
        reference: o.reference ?? null,
        paymentProvider: provider,
        paymentMethod: paidNow ? (walletMinor > 0 ? "wallet" : "free") : o.paymentMethod,
        cartProvider: o.cartProvider,
        currency: q.currency,
        subTotalMinor: q.subTotalMinor,
        shippingMinor: q.shippingMinor,
        setupMinor: q.setupMinor,
        subTotalDiscountsMinor: q.subTotalDiscountsMinor,
        shippingDiscountsMinor: q.shippingDiscountsMinor,
        totalMinor: q.totalMinor,
        walletRedeemMinor: walletMinor,
        voucherId: voucher?.voucherId ?? null,
        voucherCode: voucher?.code ?? null,
        notes: o.notes ?? null,
        receiver: o.receiver ?? null,
        location: o.location ?? null,
        expiresAt,
        paymentStatus: provider === "bank_transfer" ? "pending_review" : "unpaid",
        customFields: o.customFields ?? null,
        createdAt: at,
        modifiedAt: at,
      })
      .returning({ id: orders.id }),
  );
  const lineRows = q.lines.map((l) => ({
    itemId: l.item.id as number | null,
    nameEn: l.item.nameEn,
    nameAr: l.item.nameAr,
    sku: l.item.sku as string | null,
    qty: l.qty,
    unit: l.unitPriceMinor,
    amount: l.amountMinor,
    discount: l.voucherDiscountMinor,
    total: l.totalMinor,
    bp: l.taxPercentageBp,
    tax: l.taxMinor,
    excl: l.totalExcludingTaxMinor,
    modifiers: l.modifierValueIds,
    bundles: l.bundleSelections,
  }));
  for (const l of q.serviceLines ?? [])
    lineRows.push({
      itemId: null,
      nameEn: l.nameEn,
      nameAr: l.nameAr,
      sku: l.sku,
      qty: l.qty,
      unit: l.unitPriceMinor,
      amount: l.amountMinor,
      discount: l.voucherDiscountMinor,
      total: l.totalMinor,
      bp: l.taxPercentageBp,
      tax: l.taxMinor,
      excl: l.totalExcludingTaxMinor,
      modifiers: [],
      bundles: [],
    });
  if (o.kind === "wallet_topup") {
    // A top-up is a service the store buys: one line, taxed like any other.
    const t = q.lines.length ? null : { total: q.totalMinor, tax: q.taxMinor };
    if (t)
      lineRows.push({
        itemId: null,
        nameEn: "Wallet top-up",
        nameAr: "شحن المحفظة",
        sku: "wallet-topup",
        qty: 1,
        unit: t.total,
        amount: t.total,
        discount: 0,
        total: t.total,
        bp: q.vatBp,
        tax: t.tax,
        excl: t.total - t.tax,
        modifiers: [],
        bundles: [],
      });
  }
  statements.push(
    ctx.db.insert(orderItems).select(
      sql`SELECT NULL, ${ctx.appId}, ${ORDER}, value ->> '$.itemId', value ->> '$.nameEn', value ->> '$.nameAr',
          value ->> '$.sku', value ->> '$.qty', value ->> '$.unit', value ->> '$.amount', value ->> '$.discount',
          value ->> '$.total', 1, value ->> '$.bp', value ->> '$.tax', value ->> '$.excl', value -> '$.modifiers',
          value -> '$.bundles', NULL, ${at}
        FROM json_each(${JSON.stringify(lineRows)})`,
    ),
    ctx.db.insert(invoices).select(
      sql`SELECT NULL, ${ctx.appId}, ${at}, ${at}, NULL, 0, 0, id, customer_id, 'invoice', 'unpaid', NULL, NULL, NULL,
          NULL, ${invoiceConfig.due_days ? new Date(Date.now() + invoiceConfig.due_days * 86400_000).toISOString() : expiresAt},
          currency, sub_total_minor, shipping_minor, setup_minor, sub_total_discounts_minor, shipping_discounts_minor,
          total_minor, ${q.totalExcludingTaxMinor}, ${q.taxMinor}, ${q.vatBp}, wallet_redeem_minor, payment_provider,
          payment_method, 0, NULL, NULL, NULL, NULL
        FROM orders WHERE id = ${ORDER}`,
    ),
    ctx.db.insert(invoiceItems).select(
      sql`SELECT NULL, ${ctx.appId}, ${insertedId(invoices)}, id, NULL, item_id, name_en, name_ar, qty, 0, amount_minor,
          voucher_discount_minor, total_minor, tax_percentage_bp, tax_minor, total_excluding_tax_minor, NULL, ${at}
        FROM order_items WHERE order_id = ${ORDER} ORDER BY id`,
    ),
  );
  events.push(
    orderEventSql("order.created", ORDER),
    invoiceEventSql("invoice.created", sql`id = ${insertedId(invoices)}`),
    ...[...new Set(q.lines.map((l) => l.itemId))].map((id) =>
      literalEvent(ctx.appId, "item.updated", {
        id,
        purchased: q.lines.filter((l) => l.itemId === id).reduce((s, l) => s + l.qty, 0),
      }),
    ),
  );
  if (voucher?.voucherId) {
    statements.push(
      ...useVoucherStatements(ctx, { voucherId: voucher.voucherId, customerId: o.customerId, orderId: ORDER, at }),
    );
    events.push(voucherUsedEventsSql(ctx, { orderId: ORDER, action: "use", at }));
  }
  if (walletMinor > 0 && o.customerId !== null) {
    const move = cashbackMovementStatements(ctx, o.customerId, {
      type: "redeem",
      units: walletMinor,
      orderId: ORDER,
      reason: "Order payment",
    });
    statements.push(...move.statements, transactionInsert(ctx, "wallet", "captured", walletMinor, q.currency, at));
    // Named by what it is, not max(id): a manual payment's transaction is inserted after it in this batch.
    events.push(
      move.event,
      transactionEventSql("transaction.captured", sql`order_id = ${ORDER} AND payment_provider = 'wallet'`),
    );
  }
  if (!paidNow && (provider === "bank_transfer" || provider === "cash_on_delivery")) {
    // The merchant captures these by hand (MO10) once the money arrives, or declines a transfer (MO11).
    const status = provider === "bank_transfer" ? "pending_review" : "pending";
    statements.push(transactionInsert(ctx, provider, status, owed, q.currency, at));
    events.push(
      transactionEventSql("transaction.created", sql`order_id = ${ORDER} AND payment_provider = ${provider}`),
    );
  }
  if (o.cartId !== null)
    statements.push(
      ctx.db
        .update(carts)
        .set({ status: "checked_out", orderId: sql`${ORDER}`, checkedOutAt: at, modifiedAt: at })
        .where(sql`${carts.id} = ${o.cartId}`),
    );
  if (o.recurring && o.customerId !== null && o.cartId !== null) {
    const r = recurringPurchaseStatements(ctx, {
      customerId: o.customerId,
      cartId: o.cartId,
      duration: o.recurring.duration,
      durationUnit: o.recurring.durationUnit,
      provider: o.provider,
      cartProvider: o.cartProvider,
      orderId: ORDER,
      timeZone: settings.timezone,
    });
    statements.push(...r.statements);
    events.push(r.event);
  }
  if (o.kind === "purchase" && o.customerId !== null && !o.subscriptionRenewal) {
    const subs = subscriptionCreateStatements(ctx, {
      lines: q.lines,
      customerId: o.customerId,
      orderId: ORDER,
      provider,
      currency: q.currency,
      at,
    });
    statements.push(...subs.statements);
    events.push(...subs.events);
  }
  if (o.also) {
    statements.push(...o.also.statements);
    events.push(...o.also.events);
  }
  if (paidNow) {
    const paid = paidStatements(ctx, {
      orderId: ORDER,
      kind: o.kind,
      at,
      settings,
      serialPrefix: invoiceConfig.serial_prefix,
    });
    statements.push(...paid.statements);
    events.push(...paid.events);
  }

  try {
    const { results } = await emit(ctx.db, ctx.events, statements, unionEvents(events));
    return (results[orderAt] as { id: number }[])[0]!.id;
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    throw await whyRefused(ctx, q, o, walletMinor);
  }
}

function transactionInsert(
  ctx: ServiceContext,
  provider: "wallet" | "bank_transfer" | "cash_on_delivery",
  status: "captured" | "pending" | "pending_review",
  amountMinor: number,
  currency: string,
  at: string,
) {
  return ctx.db.insert(transactions).select(
    sql`SELECT NULL, ${ctx.appId}, ${at}, ${at}, NULL, 0, 0, ${ORDER}, (SELECT max(id) FROM invoices WHERE order_id = ${ORDER}),
        'payment', ${status}, ${amountMinor}, ${currency}, ${provider}, ${provider === "wallet" ? "wallet" : provider},
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
  );
}

const insufficientBalance = (available: number, needed: number) =>
  ApiError.conflict(
    "insufficient_balance",
    `The customer's cashback balance is ${toMajor(available)}, less than the ${toMajor(needed)} to pay from it.`,
    { kind: "cashback", available: toMajor(available) },
  );

/** After a guard aborted the batch: which condition failed, read again (exactly, and rarely). */
async function whyRefused(ctx: ServiceContext, q: Quote, o: PlaceOrder, walletMinor: number): Promise<ApiError> {
  if (o.cartId !== null) {
    const cart = await ctx.db
      .select({ status: carts.status, orderId: carts.orderId })
      .from(carts)
      .where(sql`${carts.id} = ${o.cartId}`)
      .get();
    if (cart && cart.status !== "open")
      return ApiError.conflict("cart_checked_out", `Cart ${o.cartId} was already checked out.`, {
        order_id: cart.orderId,
      });
  }
  const wanted = new Map<number, number>();
  for (const l of q.lines) wanted.set(l.itemId, (wanted.get(l.itemId) ?? 0) + l.qty);
  const available = await availableUnits(ctx, [...wanted.keys()]);
  for (const [itemId, qty] of wanted) {
    const has = available.get(itemId) ?? 0;
    if (has < qty)
      return ApiError.conflict("insufficient_stock", `Item ${itemId} has ${has} unit(s) available; ${qty} asked.`, {
        item_id: itemId,
        available: has,
      });
  }
  if (walletMinor > 0 && o.customerId !== null) {
    const balance = (await cashbackBalanceOf(ctx, o.customerId)) ?? 0;
    if (balance < walletMinor) return insufficientBalance(balance, walletMinor);
  }
  if (q.voucher?.voucherId)
    return ApiError.conflict(
      "voucher_usage_limit_reached",
      `Voucher ${q.voucher.code} reached its usage limit meanwhile; check out without it or with another.`,
    );
  return ApiError.conflict(
    "concurrent_update",
    "The cart changed while it was checked out; nothing was written, retry.",
  );
}
