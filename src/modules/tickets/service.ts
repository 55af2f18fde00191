import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { live, liveOffIndex } from "../../core/crud/tenant-table";
import { randomToken } from "../../core/crypto";
import { ApiError } from "../../core/errors";
import { emit, eventPayloadSql, newEvent, newEventId } from "../../core/events/outbox";
import { decodeRows, rowsJson } from "../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page, searchColumns } from "../../core/listing";
import { toMajor } from "../../core/money";
import { chunkRows, inList } from "../../core/sql";
import { apps } from "../../core/tenancy";
import { nowIso } from "../../core/time";
import { assembleItems, type Item, itemFamily, itemsJson, itemsJsonOfFamily } from "../items";
import type { Ticket } from "./schemas";
import { TICKET_STATUSES, type TicketStatus, tickets } from "./tables";

type TicketRow = typeof tickets.$inferSelect;

/**
 * The ticket lifecycle. `checked_in` is reached only by check-in with the ticket's token;
 * `checked_in` and `cancelled` are final.
 */
export const TRANSITIONS: Record<TicketStatus, readonly TicketStatus[]> = {
  pending: ["confirmed", "cancelled", "checked_in"],
  confirmed: ["pending", "cancelled", "checked_in"],
  checked_in: [],
  cancelled: [],
};
const ADMITTABLE: TicketStatus[] = ["pending", "confirmed"];

const searchTicket = searchColumns(
  tickets.nameEn,
  tickets.nameAr,
  tickets.customerName,
  tickets.customerEmail,
  tickets.customerPhone,
);

/**
 * Search goes through the FTS index of migration 0001: a term matches the words of the ticket's
 * names and customer fields that start with it (`sar` finds "Sara", `omar@exa` finds
 * "omar@example.com"). A term of one character, or of no letter or digit, falls back to a
 * substring match over the same columns.
 */
function ticketSearch(term: string) {
  if ([...term].length < 2 || !/[\p{L}\p{N}]/u.test(term)) return searchTicket(term);
  const prefixPhrase = `"${term.replaceAll('"', '""')}" *`;
  return {
    where: sql`${tickets.id} IN (SELECT rowid FROM tickets_fts WHERE tickets_fts MATCH ${prefixPhrase})`,
    indexed: true,
  };
}

export const TICKET_LIST: ListSpec = {
  fields: {
    id: { column: tickets.id, kind: "integer" },
    created_at: { column: tickets.createdAt, kind: "datetime" },
    invoice_item_id: { column: tickets.invoiceItemId, kind: "integer" },
    item: { column: tickets.itemId, kind: "integer" },
    name_en: { column: tickets.nameEn, kind: "string" },
    name_ar: { column: tickets.nameAr, kind: "string" },
    status: { column: tickets.status, kind: "string", values: TICKET_STATUSES },
    total_amount: { column: tickets.totalAmountMinor, kind: "money" },
    date: { column: tickets.date, kind: "date" },
    time: { column: tickets.time, kind: "time", nullable: true },
    customer_name: { column: tickets.customerName, kind: "string", nullable: true },
    customer_email: { column: tickets.customerEmail, kind: "string", nullable: true },
    customer_phone: { column: tickets.customerPhone, kind: "string", nullable: true },
  },
  search: ticketSearch,
  searchDescription:
    "Matches words, and the starts of words, in the ticket names (en, ar) and the customer " +
    "name, email and phone. May repeat: every term must match.",
  defaultOrder: "-created_at",
  idColumn: tickets.id,
  // Tickets are never deleted: a cancelled one is a status the mirror keeps.
  sync: { modifiedAt: tickets.modifiedAt, softDeleted: false },
};

/**
 * The store's tickets under `where`, by id, with their full items: ONE statement, to run alone or
 * in a batch (after the write it reads back). `ticketsWithItems` decodes its row.
 */
function ticketsWithItemsRead(ctx: ServiceContext, where: SQL, now: string) {
  const parts: Record<string, SQL> = {
    rows: rowsJson(tickets, where, [asc(tickets.id)]),
    ...itemsJson(ctx.appId, sql`(SELECT item_id FROM tickets WHERE ${where})`, now),
  };
  const fields = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, sql<string | null>`${v}`]));
  return ctx.db.select(fields).from(apps).where(eq(apps.id, ctx.appId));
}

type TicketsRead = Record<string, string | null>[];

function ticketsWithItems(read: TicketsRead, now: string): { rows: TicketRow[]; items: Map<number, Item> } {
  const parts = read[0] ?? {};
  const json = (k: string) => (parts[k] ? JSON.parse(String(parts[k])) : []);
  const rows = decodeRows(tickets, json("rows"));
  const itemParts = Object.fromEntries(Object.keys(parts).map((k) => [k, json(k)]));
  const items = assembleItems(
    itemParts as Parameters<typeof assembleItems>[0],
    rows.map((r) => r.itemId),
    now,
  );
  return { rows, items };
}

function shapeWith(rows: TicketRow[], itemsById: Map<number, Item>): Ticket[] {
  return rows.map((r) => {
    const item = itemsById.get(r.itemId);
    // A ticket's item is never hard-deleted (items are soft-deleted), so this is a broken invariant.
    if (!item) throw new Error(`ticket ${r.id} points at missing item ${r.itemId}`);
    return {
      id: r.id,
      created_at: r.createdAt,
      invoice_item_id: r.invoiceItemId,
      item,
      name_en: r.nameEn,
      name_ar: r.nameAr,
      status: r.status,
      total_amount: toMajor(r.totalAmountMinor),
      date: r.date,
      time: r.time,
      customer_name: r.customerName,
      customer_email: r.customerEmail,
      customer_phone: r.customerPhone,
      modified_at: r.modifiedAt,
    };
  });
}

/** List Tickets: the count, the page and the tickets' full items in one statement (one round trip). */
export async function listTickets(ctx: ServiceContext, q: ListQuery): Promise<Page<Ticket>> {
  const now = nowIso();
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    {
      table: tickets,
      scope: (searchDriven) => (searchDriven ? liveOffIndex(tickets, ctx.appId) : live(tickets, ctx.appId)),
      with: (rows) => itemFamily(ctx.appId, sql`(SELECT item_id FROM ${rows})`),
    },
    () => itemsJsonOfFamily(ctx.appId, now),
  );
  const itemsById = assembleItems(
    nested,
    page.results.map((r) => r.itemId),
    now,
  );
  return { ...page, results: shapeWith(page.results, itemsById) };
}

export type NewTicket = {
  invoiceItemId: number;
  itemId: number;
  nameEn: string;
  nameAr: string;
  totalAmountMinor: number;
  date: string;
  time?: string | null;
  customerName?: string | null;
  customerEmail?: string | null;
  customerPhone?: string | null;
};

/** Issues tickets (status `pending`, each with a fresh token) and emits `ticket.created`. */
export async function createTickets(ctx: ServiceContext, input: NewTicket[]): Promise<{ id: number; token: string }[]> {
  if (input.length === 0) return [];
  const rows = input.map((t) => ({
    ...t,
    appId: ctx.appId,
    status: "pending" as const,
    token: randomToken("tkt_", 24),
  }));
  const keys = JSON.stringify(rows.map((r) => ({ token: r.token, event: newEventId() })));
  // Ticket ids are assigned by the insert, so the events are selected from the new rows in the
  // same batch: the tickets and their `ticket.created` events land together.
  const ticketCreatedData = sql`json_object('id', t.id, 'status', t.status, 'item', t.item_id, 'date', t.date,
    'time', t.time)`;
  const { results } = await emit(
    ctx.db,
    ctx.events,
    chunkRows(tickets, rows).map((chunk) =>
      ctx.db.insert(tickets).values(chunk).returning({ id: tickets.id, token: tickets.token }),
    ),
    sql`SELECT j.value ->> '$.event' AS id, t.app_id, 'ticket.created' AS type,
          ${eventPayloadSql("ticket.created", sql`j.value ->> '$.event'`, sql`t.app_id`, ticketCreatedData)} AS payload
        FROM json_each(${keys}) AS j JOIN tickets AS t ON t.token = j.value ->> '$.token'`,
  );
  return (results as { id: number; token: string }[][]).flat();
}

export type BulkUpdate = {
  ids: number[];
  status?: Exclude<TicketStatus, "checked_in">;
  date?: string;
  time?: string | null;
};

/**
 * Bulk Update Tickets: all or nothing. Every id must be a live ticket of this tenant whose status
 * allows the change; otherwise nothing is written and the refusal names each offending id.
 */
export async function bulkUpdateTickets(
  ctx: ServiceContext,
  input: BulkUpdate,
): Promise<{ count: number; results: Ticket[] }> {
  const scope = and(live(tickets, ctx.appId), inList(tickets.id, input.ids))!;
  const now = nowIso();
  // One round trip reads the tickets with their items (an update changes none of those), one
  // guarded batch writes and reads the tickets back.
  const { rows: current, items } = ticketsWithItems(await ticketsWithItemsRead(ctx, scope, now), now);
  const refusal = refuseBulk(input, current);
  if (refusal) throw refusal;

  // Guard: every ticket still in a status that allows the change, as checked above; a concurrent
  // check-in or update between the read and the write makes the whole batch write nothing.
  const fromStatuses = TICKET_STATUSES.filter((s) => allowsBulk(s, input));
  const guard = sql`(SELECT count(*) FROM tickets
      WHERE ${and(scope, inList(tickets.status, fromStatuses))}) = ${input.ids.length}`;
  const set: Partial<TicketRow> = { modifiedAt: now };
  if (input.status !== undefined) set.status = input.status;
  if (input.date !== undefined) set.date = input.date;
  if (input.time !== undefined) set.time = input.time;
  const before = new Map(current.map((t) => [t.id, t.status]));
  const events = input.ids.map((id) =>
    newEvent(ctx.appId, "ticket.updated", {
      id,
      // Every id was found above (refuseBulk), so each has its status.
      previous_status: before.get(id)!,
      changes: {
        ...(input.status !== undefined && { status: input.status }),
        ...(input.date !== undefined && { date: input.date }),
        ...(input.time !== undefined && { time: input.time }),
      },
    }),
  );
  const { applied, results } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(tickets).set(set).where(and(scope, guard))],
    events,
    { guard, after: [ctx.db.select().from(tickets).where(scope).orderBy(tickets.id)] },
  );
  if (!applied) {
    const now = await ctx.db.select({ id: tickets.id, status: tickets.status }).from(tickets).where(scope);
    throw (
      refuseBulk(input, now) ??
      ApiError.conflict("concurrent_update", "The tickets changed while updating them; retry.")
    );
  }
  const rows = results[1] as TicketRow[];
  return { count: rows.length, results: shapeWith(rows, items) };
}

function allowsBulk(status: TicketStatus, input: BulkUpdate): boolean {
  if (status === "checked_in" || status === "cancelled") return false;
  return input.status === undefined || input.status === status || TRANSITIONS[status].includes(input.status);
}

function refuseBulk(input: BulkUpdate, current: { id: number; status: TicketStatus }[]): ApiError | null {
  const found = new Map(current.map((t) => [t.id, t.status]));
  const missing = input.ids.filter((id) => !found.has(id));
  if (missing.length) {
    return new ApiError(
      404,
      "tickets_not_found",
      `No ticket with id ${missing.join(", ")} in this store; nothing was changed.`,
      {
        errors: Object.fromEntries(missing.map((id) => [String(id), ["Not found."]])),
      },
    );
  }
  const blocked = current.filter((t) => !allowsBulk(t.status, input));
  if (blocked.length) {
    return ApiError.conflict(
      "invalid_transition",
      "Some tickets cannot take this change; nothing was changed. See `errors` per ticket id.",
      {
        errors: Object.fromEntries(
          blocked.map((t) => [
            String(t.id),
            [
              t.status === "checked_in" || t.status === "cancelled"
                ? `The ticket is ${t.status}, which is final.`
                : `A ${t.status} ticket cannot become ${input.status}.`,
            ],
          ]),
        ),
      },
    );
  }
  return null;
}

/**
 * Validate Token and Check in Ticket. The token finds the ticket in this tenant only. A guarded
 * UPDATE admits it once: of two scanners racing on one ticket, one wins and the other gets 409.
 */
export async function checkInTicket(
  ctx: ServiceContext,
  input: { token: string; validate_only: boolean },
): Promise<{ checked_in: boolean; checked_in_at: string | null; ticket: Ticket }> {
  const byToken = and(live(tickets, ctx.appId), eq(tickets.token, input.token))!;
  const at = nowIso();
  // The ticket with its item in one round trip; the check-in's batch reads the ticket back.
  const { rows, items } = ticketsWithItems(await ticketsWithItemsRead(ctx, byToken, at), at);
  const row = rows[0];
  if (!row) throw new ApiError(404, "ticket_not_found", "No ticket of this store has that token.");
  refuseAdmission(row);
  if (input.validate_only) return { checked_in: false, checked_in_at: null, ticket: shapeWith([row], items)[0]! };

  const admittable = and(byToken, inList(tickets.status, ADMITTABLE))!;
  const guard = sql`EXISTS (SELECT 1 FROM tickets WHERE ${admittable})`;
  const { applied, results } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(tickets).set({ status: "checked_in", checkedInAt: at, modifiedAt: at }).where(admittable)],
    [newEvent(ctx.appId, "ticket.checked_in", { id: row.id, checked_in_at: at, previous_status: row.status })],
    { guard, after: [ctx.db.select().from(tickets).where(byToken)] },
  );
  const after = (results[1] as TicketRow[])[0]!;
  if (!applied) refuseAdmission(after);
  return { checked_in: true, checked_in_at: after.checkedInAt, ticket: shapeWith([after], items)[0]! };
}

function refuseAdmission(row: TicketRow): void {
  if (row.status === "checked_in") {
    throw ApiError.conflict("ticket_already_checked_in", `This ticket was already checked in at ${row.checkedInAt}.`, {
      checked_in_at: row.checkedInAt,
      ticket_id: row.id,
    });
  }
  if (row.status === "cancelled")
    throw ApiError.conflict("ticket_cancelled", "This ticket was cancelled and cannot be used.", { ticket_id: row.id });
}
