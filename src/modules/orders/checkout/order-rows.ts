import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Handle, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import type { Quote } from "../pricing/quote";
import { invoiceItems, invoices, orderItems, orders, transactions } from "../tables";
import type { Payment, PlaceOrder } from "./order-step";

/** The order row, pending (a bank transfer waits on the merchant's review). */
export function orderInsert(
  ctx: ServiceContext,
  q: Quote,
  o: PlaceOrder,
  pay: Payment,
  at: string,
): BatchItem<"sqlite"> {
  const voucher = q.voucher?.isSuccess ? q.voucher : null;
  return ctx.db.insert(orders).values({
    appId: ctx.appId,
    kind: o.kind,
    customerId: o.customerId,
    cartId: o.cartId,
    recurringPurchaseId: o.recurringPurchaseId ?? null,
    reference: o.reference ?? null,
    paymentProvider: pay.provider,
    paymentMethod: pay.paidNow ? pay.provider : o.paymentMethod,
    cartProvider: o.cartProvider,
    currency: q.currency,
    subTotalMinor: q.subTotalMinor,
    shippingMinor: q.shippingMinor,
    setupMinor: q.setupMinor,
    subTotalDiscountsMinor: q.subTotalDiscountsMinor,
    shippingDiscountsMinor: q.shippingDiscountsMinor,
    totalMinor: q.totalMinor,
    walletRedeemMinor: pay.walletMinor,
    voucherId: voucher?.voucherId ?? null,
    voucherCode: voucher?.code ?? null,
    notes: o.notes ?? null,
    receiver: o.receiver ?? null,
    buyer: o.buyer ?? null,
    location: o.location ?? null,
    expiresAt: pay.expiresAt,
    paymentStatus: pay.provider === "bank_transfer" ? "pending_review" : "unpaid",
    customFields: o.customFields ?? null,
    createdAt: at,
    modifiedAt: at,
  });
}

type LineRow = {
  itemId: number | null;
  nameEn: string;
  nameAr: string;
  sku: string | null;
  qty: number;
  unit: number;
  amount: number;
  discount: number;
  total: number;
  bp: number;
  tax: number;
  excl: number;
  modifiers: unknown[];
  bundles: unknown[];
};

/** The order's lines: the quote's items, then its service lines (a meal order's), or a top-up's one line. */
function lineRowsOf(q: Quote, kind: PlaceOrder["kind"]): LineRow[] {
  const rows: LineRow[] = q.lines.map((l) => ({
    itemId: l.item.id,
    nameEn: l.item.nameEn,
    nameAr: l.item.nameAr,
    sku: l.item.sku,
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
    rows.push({
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
  // A top-up is a service the store buys: one line, taxed like any other.
  if (kind === "wallet_topup" && !q.lines.length) {
    const t = q.totalMinor;
    rows.push({
      itemId: null,
      nameEn: "Wallet top-up",
      nameAr: "شحن المحفظة",
      sku: "wallet-topup",
      qty: 1,
      unit: t,
      amount: t,
      discount: 0,
      total: t,
      bp: q.vatBp,
      tax: q.taxMinor,
      excl: t - q.taxMinor,
      modifiers: [],
      bundles: [],
    });
  }
  return rows;
}

export function orderItemsInsert(ctx: ServiceContext, q: Quote, kind: PlaceOrder["kind"], order: Handle, at: string) {
  const v = (key: keyof LineRow) => sql.raw(`value ->> '$.${key}'`);
  return insertSelect(
    ctx.db,
    orderItems,
    {
      appId: ctx.appId,
      orderId: order.id,
      itemId: v("itemId"),
      nameEn: v("nameEn"),
      nameAr: v("nameAr"),
      sku: v("sku"),
      qty: v("qty"),
      unitPriceMinor: v("unit"),
      amountMinor: v("amount"),
      voucherDiscountMinor: v("discount"),
      totalMinor: v("total"),
      isTaxable: true,
      taxPercentageBp: v("bp"),
      taxMinor: v("tax"),
      totalExcludingTaxMinor: v("excl"),
      modifierValueIds: sql`value -> '$.modifiers'`,
      bundleSelections: sql`value -> '$.bundles'`,
      createdAt: at,
    },
    sql`FROM json_each(${JSON.stringify(lineRowsOf(q, kind))})`,
  );
}

/** The order's invoice, unpaid, its totals copied from the order row. */
export function invoiceInsert(ctx: ServiceContext, q: Quote, order: Handle, dueAt: string | null, at: string) {
  return insertSelect(
    ctx.db,
    invoices,
    {
      appId: ctx.appId,
      createdAt: at,
      modifiedAt: at,
      orderId: sql`id`,
      customerId: sql`customer_id`,
      type: "invoice",
      status: "unpaid",
      dueAt,
      currency: sql`currency`,
      subTotalMinor: sql`sub_total_minor`,
      shippingMinor: sql`shipping_minor`,
      setupMinor: sql`setup_minor`,
      subTotalDiscountsMinor: sql`sub_total_discounts_minor`,
      shippingDiscountsMinor: sql`shipping_discounts_minor`,
      totalMinor: sql`total_minor`,
      totalExcludingTaxMinor: q.totalExcludingTaxMinor,
      taxMinor: q.taxMinor,
      taxPercentageBp: q.vatBp,
      walletRedeemMinor: sql`wallet_redeem_minor`,
      paymentProvider: sql`payment_provider`,
      paymentMethod: sql`payment_method`,
    },
    sql`FROM orders WHERE id = ${order.id}`,
  );
}

/** The invoice's lines, one per order line, in the order's line order. */
export function invoiceItemsInsert(ctx: ServiceContext, order: Handle, invoice: Handle, at: string) {
  return insertSelect(
    ctx.db,
    invoiceItems,
    {
      appId: ctx.appId,
      invoiceId: invoice.id,
      orderItemId: sql`id`,
      itemId: sql`item_id`,
      nameEn: sql`name_en`,
      nameAr: sql`name_ar`,
      qty: sql`qty`,
      refundedQty: 0,
      amountMinor: sql`amount_minor`,
      voucherDiscountMinor: sql`voucher_discount_minor`,
      totalMinor: sql`total_minor`,
      taxPercentageBp: sql`tax_percentage_bp`,
      taxMinor: sql`tax_minor`,
      totalExcludingTaxMinor: sql`total_excluding_tax_minor`,
      createdAt: at,
    },
    sql`FROM order_items WHERE order_id = ${order.id} ORDER BY id`,
  );
}

/** A payment transaction of the order's invoice: the wallet's part (captured) or a manual one (pending). */
export function paymentTransactionInsert(
  ctx: ServiceContext,
  placed: { order: Handle; invoice: Handle; at: string; currency: string },
  provider: "wallet" | "bank_transfer" | "cash_on_delivery",
  status: "captured" | "pending" | "pending_review",
  amountMinor: number,
) {
  return ctx.db.insert(transactions).values({
    appId: ctx.appId,
    createdAt: placed.at,
    modifiedAt: placed.at,
    orderId: placed.order.id,
    invoiceId: placed.invoice.id,
    type: "payment",
    status,
    amountMinor,
    currency: placed.currency,
    paymentProvider: provider,
    paymentMethod: provider,
  });
}
