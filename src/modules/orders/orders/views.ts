import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { decodeRows, intLiteral, rowsJson } from "../../../core/json-rows";
import { offIndex } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { customersFromJson, customersJson } from "../../customers";
import { assembleItems, itemFamily, itemsJson, itemsJsonOfFamily } from "../../items";
import { signedQuery } from "../payments/gateways/links";
import { vatSplit } from "../pricing/vat";
import { percentOfBp, totalsView } from "../shared";
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

/** The nested levels of full orders, as parts of one statement (core/json-rows). */
const ORDER_PARTS = ["lines", "invoices", "customers"] as const;
type OrderParts = Record<(typeof ORDER_PARTS)[number] | `item_${ItemPart}`, unknown>;
type ItemPart = keyof ReturnType<typeof itemsJson>;

/** The items of the lines of the orders that `ids` selects (a subquery). */
const lineItemIds = (appId: number, ids: SQL) =>
  sql`(SELECT item_id FROM order_items WHERE app_id = ${intLiteral(appId)} AND order_id IN ${ids} AND item_id IS NOT NULL)`;

/**
 * A list's `with` and nested levels (`listPageWith`) for full orders: `orderPartsJson` of the page,
 * its items read from one `itemFamily` set, compiled once, not once per level.
 */
export function orderListParts(appId: number, now: string) {
  const page = (rows: SQL) => sql`(SELECT id FROM ${rows})`;
  return {
    with: (rows: SQL) => itemFamily(appId, lineItemIds(appId, page(rows))),
    nested: (rows: SQL) => orderPartsJson(appId, page(rows), now, { itemFamily: true }),
  };
}

/**
 * The lines, invoices, customers and full items of the orders that `ids` selects (a subquery), as
 * scalar subqueries of ONE statement: a list puts them beside its page (`listPageWith`). With
 * `itemFamily`, the items are those of the statement's `itemFamily` set (see `orderListParts`).
 */
export function orderPartsJson(
  appId: number,
  ids: SQL,
  now: string,
  opts: { itemFamily?: boolean } = {},
): Record<keyof OrderParts, SQL> {
  const items = opts.itemFamily ? itemsJsonOfFamily(appId, now) : itemsJson(appId, lineItemIds(appId, ids), now);
  return {
    lines: rowsJson(orderItems, and(eq(orderItems.appId, appId), sql`${orderItems.orderId} IN ${ids}`)!, [
      asc(orderItems.id),
    ]),
    // The store's column off its index (`+`), here and below: by it, SQLite would walk all the
    // store's invoices (orders) to find the page's few.
    invoices: rowsJson(invoices, and(eq(offIndex(invoices.appId), appId), sql`${invoices.orderId} IN ${ids}`)!, [
      asc(invoices.id),
    ]),
    customers: customersJson(appId, sql`(SELECT customer_id FROM orders WHERE +app_id = ${appId} AND id IN ${ids})`),
    ...(Object.fromEntries(Object.entries(items).map(([k, v]) => [`item_${k}`, v])) as Record<`item_${ItemPart}`, SQL>),
  };
}

/**
 * The ONE statement of full orders for `wanted` (a subquery; those meeting `only`, when given): a
 * single row, the orders and each nested level a JSON column named in `columns` (`ordersOfRow`
 * reads it). A batch that places an order reads it after its inserts (`wanted`: the order's handle).
 */
export function ordersStatement(
  appId: number,
  wanted: SQL,
  now: string,
  only?: SQL,
): { query: SQL; columns: string[] } {
  const parts = orderPartsJson(appId, wanted, now);
  const query = sql`SELECT ${rowsJson(orders, and(eq(orders.appId, appId), sql`${orders.id} IN ${wanted}`, only)!)} AS "rows", ${sql.join(
    Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
    sql`, `,
  )}`;
  return { query, columns: ["rows", ...Object.keys(parts)] };
}

/** Full orders, by id, from the row of `ordersStatement` (none when the row is missing). */
export function ordersOfRow(
  row: Record<string, unknown> | undefined,
  columns: readonly string[],
  links: LinkContext,
  now: string,
): Promise<Map<number, Order>> {
  const parsed: Record<string, unknown> = {};
  for (const k of columns) if (k !== "rows") parsed[k] = JSON.parse(String(row?.[k] ?? "[]"));
  return assembleOrders(decodeRows(orders, row?.rows ?? "[]"), parsed as OrderParts, links, now);
}

/**
 * Full orders for `ids` (those meeting `only`, when given): their lines, invoices, customers and
 * items, in ONE statement whatever the number of orders.
 */
export async function loadOrders(
  ctx: ServiceContext,
  ids: readonly number[],
  links: LinkContext,
  only?: SQL,
): Promise<Map<number, Order>> {
  if (!ids.length) return new Map();
  const now = nowIso();
  const wanted = sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`;
  const { query, columns } = ordersStatement(ctx.appId, wanted, now, only);
  return ordersOfRow(await ctx.db.get<Record<string, string | null>>(query), columns, links, now);
}

/** Full orders of `rows` from the parts `orderPartsJson` fetched (parsed JSON), by id. */
export async function assembleOrders(
  rows: OrderRow[],
  parts: OrderParts,
  links: LinkContext,
  now: string,
): Promise<Map<number, Order>> {
  const out = new Map<number, Order>();
  const lines = decodeRows(orderItems, parts.lines);
  const invoiceRows = decodeRows(invoices, parts.invoices);
  const itemParts = Object.fromEntries(
    Object.entries(parts)
      .filter(([k]) => k.startsWith("item_"))
      .map(([k, v]) => [k.slice(5), v]),
  ) as Record<ItemPart, unknown>;
  const itemIds = lines.map((l) => l.itemId).filter((i): i is number => i !== null);
  const items = assembleItems(itemParts, itemIds, now);
  const customers = customersFromJson(parts.customers);
  for (const r of rows) {
    const mine = lines.filter((l) => l.orderId === r.id);
    // The lines' VAT and the delivery fee's (as the quote priced them: pricing/quote.ts).
    const shippingTax = vatSplit(r.shippingMinor - r.shippingDiscountsMinor, mine[0]?.taxPercentageBp ?? 0).taxMinor;
    const taxMinor = mine.reduce((s, l) => s + l.taxMinor, 0) + shippingTax;
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
      buyer: r.buyer ?? null,
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
