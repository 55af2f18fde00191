import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { assembleItems, type Item, itemsJson } from "../../items";
import { ticketFulfillmentRowsSql } from "../../tickets";
import type { Fulfillment } from "./schemas";
import { fulfillments } from "./tables";

/**
 * Fulfillments and tickets read as one set of rows, `fulfillment_rows`, with the columns below in this
 * order (a UNION ALL matches by position). The list filters, orders and pages that set in SQL, so a
 * page mixes both kinds in the order asked, with one count; the alias names its columns for the
 * list spec (core/listing builds the WHERE and ORDER BY from them).
 */
export const rowsOf = alias(fulfillments, "fulfillment_rows");

export type RawRow = {
  id: number;
  app_id: number;
  type: Fulfillment["type"];
  status: Fulfillment["status"];
  order_id: number | null;
  order_item_id: number | null;
  invoice_item_id: number | null;
  item_id: number;
  name_en: string;
  name_ar: string;
  qty: number;
  total_amount_minor: number;
  date: string | null;
  time: string | null;
  location: string | null;
  location_id: number | null;
  pickup_location_id: number | null;
  shipment_id: number | null;
  tracking_number: string | null;
  fulfilled_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  notes: string | null;
  customer_id: number | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  custom_fields: string | null;
  created_at: string;
  modified_at: string;
};

/** The fulfillments table's branch: live rows of the store meeting `where`. */
export function fulfillmentBranch(ctx: ServiceContext, where: SQL = sql`1`): SQL {
  return sql`SELECT id, app_id, type, status, order_id, order_item_id, NULL AS invoice_item_id, item_id,
      name_en, name_ar, qty, total_amount_minor, date, time, location, location_id, pickup_location_id,
      shipment_id, tracking_number, fulfilled_at, delivered_at, cancelled_at, notes, customer_id,
      customer_name, customer_email, customer_phone, custom_fields, created_at, modified_at
    FROM ${fulfillments} WHERE ${live(fulfillments, ctx.appId)} AND ${where}`;
}

/** The tickets' branch: a ticket's order and customer are its invoice line's. */
function ticketBranch(ctx: ServiceContext): SQL {
  const invoiceOf = (column: string) =>
    sql.raw(`(SELECT i.${column} FROM invoice_items ii JOIN invoices i ON i.id = ii.invoice_id
      WHERE ii.id = t.invoice_item_id)`);
  return sql`SELECT t.id, t.app_id, 'ticket', t.status, ${invoiceOf("order_id")},
      (SELECT ii.order_item_id FROM invoice_items ii WHERE ii.id = t.invoice_item_id), t.invoice_item_id, t.item_id,
      t.name_en, t.name_ar, 1, t.total_amount_minor, t.date, t.time, NULL, NULL, NULL,
      NULL, NULL, t.checked_in_at, t.checked_in_at, NULL, NULL, ${invoiceOf("customer_id")},
      t.customer_name, t.customer_email, t.customer_phone, NULL, t.created_at, t.modified_at
    FROM (${ticketFulfillmentRowsSql(ctx.appId)}) AS t`;
}

/** `WITH fulfillment_rows AS (…)`: every kind for the merchant; a customer's own fulfillments only. */
export function rowsCte(ctx: ServiceContext, customerId?: number): SQL {
  const body =
    customerId === undefined
      ? sql`${fulfillmentBranch(ctx)} UNION ALL ${ticketBranch(ctx)}`
      : fulfillmentBranch(ctx, sql`customer_id = ${customerId}`);
  return sql`WITH fulfillment_rows AS (${body})`;
}

const parsed = (s: string | null): Record<string, unknown> | null => (s === null ? null : JSON.parse(s));

/**
 * The rows `select` gives (a SELECT over `cte`'s `fulfillment_rows`, in its order) with their full
 * items, in ONE statement: the items' parts (the items module's `itemsJson`) ride on the first row.
 */
export async function readWithItems<T extends RawRow>(
  ctx: ServiceContext,
  cte: SQL,
  select: SQL,
): Promise<{ rows: T[]; items: Map<number, Item> }> {
  const { query, parse } = withItemsStatement<T>(ctx, cte, select);
  return parse(await ctx.db.all<Record<string, unknown>>(query));
}

/** `readWithItems` as its statement and what parses its rows, for a batch to carry (a write's answer). */
export function withItemsStatement<T extends RawRow>(ctx: ServiceContext, cte: SQL, select: SQL) {
  const now = nowIso();
  const parts = itemsJson(ctx.appId, sql`(SELECT item_id FROM fulfillment_page)`, now);
  const names = Object.keys(parts) as (keyof typeof parts)[];
  const query = sql`${cte}, fulfillment_page AS MATERIALIZED (SELECT p.*, row_number() OVER () AS page_n FROM (${select}) AS p)
      SELECT *, ${sql.join(
        names.map((n) => sql`CASE WHEN page_n = 1 THEN ${parts[n]} END AS ${sql.identifier(`item_part_${n}`)}`),
        sql`, `,
      )} FROM fulfillment_page ORDER BY page_n`;
  const parse = (raw: Record<string, unknown>[]): { rows: T[]; items: Map<number, Item> } => {
    const first = raw[0] ?? {};
    const parsed = Object.fromEntries(names.map((n) => [n, JSON.parse(String(first[`item_part_${n}`] ?? "[]"))]));
    const rows = raw.map((r) => {
      const row: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) if (k !== "page_n" && !k.startsWith("item_part_")) row[k] = v;
      return row as T;
    });
    const items = assembleItems(
      parsed as Parameters<typeof assembleItems>[0],
      rows.map((r) => r.item_id),
      now,
    );
    return { rows, items };
  };
  return { query, parse };
}

/** The responses of raw rows, with their items (`readWithItems`). */
export function views(rows: RawRow[], items: Map<number, Item>): Fulfillment[] {
  return rows.map(({ item_id, total_amount_minor, location, custom_fields, ...r }) => ({
    ...r,
    item: items.get(item_id) ?? null,
    total_amount: toMajor(total_amount_minor),
    location: parsed(location),
    custom_fields: parsed(custom_fields),
  }));
}
