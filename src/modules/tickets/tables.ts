import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";
import { items } from "../items/tables";

/** The ticket lifecycle; see `TRANSITIONS` in service.ts and docs/interface-decisions.md. */
export const TICKET_STATUSES = ["pending", "confirmed", "checked_in", "cancelled"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** A ticket: a fulfillment record of one invoice line, admitted once by its token. */
export const tickets = sqliteTable(
  "tickets",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    invoiceItemId: integer("invoice_item_id").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    nameEn: text("name_en").notNull(),
    nameAr: text("name_ar").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("pending"),
    totalAmountMinor: integer("total_amount_minor").notNull(),
    date: text("date").notNull(),
    time: text("time"),
    customerName: text("customer_name"),
    customerEmail: text("customer_email"),
    customerPhone: text("customer_phone"),
    /** The unguessable token printed in the ticket's QR code. */
    token: text("token").notNull(),
    checkedInAt: text("checked_in_at"),
  },
  (t) => [
    uniqueIndex("tickets_token_uq").on(t.token),
    // Every list filter leads with app_id; soft-deleted rows are filtered in the same index.
    index("tickets_app_created_idx").on(t.appId, t.isDeleted, t.createdAt),
    index("tickets_app_status_date_idx").on(t.appId, t.isDeleted, t.status, t.date),
    // A day's tickets of a status in time order (the door list): the page is the index's first rows;
    // its prefix serves a date filter alone.
    index("tickets_app_date_status_time_idx").on(t.appId, t.isDeleted, t.date, t.status, t.time, sql`${t.id} DESC`),
    index("tickets_app_item_idx").on(t.appId, t.itemId),
    index("tickets_app_invoice_item_idx").on(t.appId, t.invoiceItemId),
    index("tickets_app_customer_email_idx").on(t.appId, t.customerEmail),
  ],
);
