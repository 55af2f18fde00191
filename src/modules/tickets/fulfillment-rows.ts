import { type SQL, sql } from "drizzle-orm";
import { live } from "../../core/crud/tenant-table";
import { tickets } from "./tables";

/**
 * The store's live tickets as a sub-select with the tickets table's own column names, for the orders
 * module's list of every fulfillment (a ticket is one kind): it maps them onto its own columns and
 * pages both tables in one query, without reading this module's table itself.
 */
export function ticketFulfillmentRowsSql(appId: number): SQL {
  return sql`SELECT id, app_id, created_at, modified_at, invoice_item_id, item_id, name_en, name_ar, status,
      total_amount_minor, date, time, customer_name, customer_email, customer_phone, checked_in_at
    FROM ${tickets} WHERE ${live(tickets, appId)}`;
}
