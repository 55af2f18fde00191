import { and, asc, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { toMajor } from "../../../core/money";
import { inList } from "../../../core/sql";
import { loadCustomers } from "../../customers";
import { loadItems } from "../../items";
import { signedQuery } from "../payments/gateways/links";
import { percentOfBp } from "../pricing/vat";
import { totalsView } from "../shared";
import { invoices, orderItems, orders } from "../tables";
import { orderMachine } from "./machine";
import type { Order } from "./schemas";

type OrderRow = typeof orders.$inferSelect;

/** Where links that carry no token point, and what signs them. */
export type LinkContext = { origin: string; secret: string };

/**
 * The signed pay link of a pending order (FOUND path and parameters: /order/v1/checkout/{id}/?entity=order
 * &lang=&success_url=&error_url=). The signature binds the order, the store and the return URLs, so
 * the link cannot be pointed at another order or turned into an open redirect.
 */
export async function payLink(
  links: LinkContext,
  appId: number,
  orderId: number,
  urls: { successUrl?: string | null; errorUrl?: string | null; lang?: "ar" | "en" } = {},
): Promise<string> {
  const query = await signedQuery(links.secret, `pay:${orderId}`, {
    entity: "order",
    app_id: String(appId),
    lang: urls.lang ?? "ar",
    success_url: urls.successUrl ?? "",
    error_url: urls.errorUrl ?? "",
  });
  return `${links.origin}/order/v1/checkout/${orderId}/?${query}`;
}

/** Pending orders that a customer pays through a link: a card payment, not yet captured. */
const payable = (r: OrderRow) => r.status === "pending" && r.paymentProvider === "card";

/**
 * Full orders for `ids`: their lines, invoices, customers and items, in three round trips whatever
 * the number of orders (one batch, then customers and items side by side).
 */
export async function loadOrders(
  ctx: ServiceContext,
  ids: readonly number[],
  links: LinkContext,
): Promise<Map<number, Order>> {
  const out = new Map<number, Order>();
  if (!ids.length) return out;
  const [rows, lines, invoiceRows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.appId, ctx.appId), inList(orders.id, ids))),
    ctx.db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.appId, ctx.appId), inList(orderItems.orderId, ids)))
      .orderBy(asc(orderItems.id)),
    ctx.db
      .select({
        id: invoices.id,
        orderId: invoices.orderId,
        serial: invoices.serial,
        type: invoices.type,
        status: invoices.status,
        totalMinor: invoices.totalMinor,
      })
      .from(invoices)
      .where(and(eq(invoices.appId, ctx.appId), inList(invoices.orderId, ids)))
      .orderBy(asc(invoices.id)),
  ]);
  const itemIds = lines.map((l) => l.itemId).filter((i): i is number => i !== null);
  const customerIds = rows.map((r) => r.customerId).filter((i): i is number => i !== null);
  const [items, customers] = await Promise.all([
    loadItems(ctx.db, ctx.appId, itemIds),
    loadCustomers(ctx, customerIds),
  ]);
  for (const r of rows) {
    const mine = lines.filter((l) => l.orderId === r.id);
    const taxMinor = mine.reduce((s, l) => s + l.taxMinor, 0);
    out.set(r.id, {
      id: r.id,
      app_id: r.appId,
      custom_fields: r.customFields ?? null,
      kind: r.kind,
      reference: r.reference,
      status: r.status,
      payment_status: r.paymentStatus,
      fulfillment_status: r.fulfillmentStatus,
      payment_provider: r.paymentProvider,
      payment_method: r.paymentMethod,
      cart_provider: r.cartProvider,
      customer_id: r.customerId,
      customer: r.customerId === null ? null : (customers.get(r.customerId) ?? null),
      receiver: r.receiver ?? null,
      location: r.location ?? null,
      cart_id: r.cartId,
      recurring_purchase_id: r.recurringPurchaseId,
      items: mine.map((l) => ({
        id: l.id,
        custom_fields: l.customFields ?? null,
        item_id: l.itemId,
        item: l.itemId === null ? null : (items.get(l.itemId) ?? null),
        name_en: l.nameEn,
        name_ar: l.nameAr,
        sku: l.sku,
        qty: l.qty,
        unit_price: toMajor(l.unitPriceMinor),
        amount: toMajor(l.amountMinor),
        voucher_discount_amount: toMajor(l.voucherDiscountMinor),
        total_amount: toMajor(l.totalMinor),
        tax_percentage: percentOfBp(l.taxPercentageBp),
        tax_amount: toMajor(l.taxMinor),
        total_amount_excluding_tax: toMajor(l.totalExcludingTaxMinor),
        modifier_values: l.modifierValueIds,
        bundle_selections: l.bundleSelections,
      })),
      ...totalsView({
        ...r,
        taxMinor,
        taxPercentageBp: mine[0]?.taxPercentageBp ?? 0,
      }),
      refunded_amount: toMajor(r.refundedMinor),
      voucher_code: r.voucherCode,
      notes: r.notes,
      invoices: invoiceRows
        .filter((i) => i.orderId === r.id)
        .map((i) => ({
          id: i.id,
          serial: i.serial ?? "-",
          type: i.type,
          status: i.status,
          total_amount: toMajor(i.totalMinor),
        })),
      payment_url: payable(r) ? await payLink(links, r.appId, r.id) : null,
      allowed_actions: orderMachine.allowed(r.status),
      expires_at: r.expiresAt,
      paid_at: r.paidAt,
      cancelled_at: r.cancelledAt,
      created_at: r.createdAt,
      modified_at: r.modifiedAt,
    });
  }
  return out;
}
