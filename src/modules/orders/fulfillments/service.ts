import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import type { ListQuery, ListSpec, Page } from "../../../core/listing";
import { searchColumns } from "../../../core/listing";
import { todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { fulfillmentBranch, type RawRow, rowsCte, rowsOf, views } from "./rows";
import { type Fulfillment, type FulfillmentsOverview, LISTED_STATUSES, LISTED_TYPES } from "./schemas";

const r = rowsOf;

export const FULFILLMENT_LIST: ListSpec = {
  fields: {
    id: { column: r.id, kind: "integer" },
    type: { column: r.type, kind: "string", values: LISTED_TYPES },
    status: { column: r.status, kind: "string", values: LISTED_STATUSES },
    order_id: { column: r.orderId, kind: "integer", nullable: true },
    order_item_id: { column: r.orderItemId, kind: "integer", nullable: true },
    item: { column: r.itemId, kind: "integer" },
    name_en: { column: r.nameEn, kind: "string" },
    name_ar: { column: r.nameAr, kind: "string" },
    qty: { column: r.qty, kind: "integer" },
    total_amount: { column: r.totalAmountMinor, kind: "money" },
    date: { column: r.date, kind: "date", nullable: true },
    time: { column: r.time, kind: "time", nullable: true },
    location_id: { column: r.locationId, kind: "integer", nullable: true },
    pickup_location_id: { column: r.pickupLocationId, kind: "integer", nullable: true },
    shipment_id: { column: r.shipmentId, kind: "integer", nullable: true },
    tracking_number: { column: r.trackingNumber, kind: "string", nullable: true },
    customer_id: { column: r.customerId, kind: "integer", nullable: true },
    customer_name: { column: r.customerName, kind: "string", nullable: true },
    customer_email: { column: r.customerEmail, kind: "string", nullable: true },
    customer_phone: { column: r.customerPhone, kind: "string", nullable: true },
    fulfilled_at: { column: r.fulfilledAt, kind: "datetime", nullable: true },
    delivered_at: { column: r.deliveredAt, kind: "datetime", nullable: true },
    created_at: { column: r.createdAt, kind: "datetime" },
  },
  search: searchColumns(r.nameEn, r.nameAr, r.customerName, r.customerEmail, r.customerPhone, r.trackingNumber),
  searchDescription:
    "Matches text in the names (en, ar), the customer's name, email and phone, and the tracking number. " +
    "May repeat: every term must match.",
  defaultOrder: "-created_at",
  idColumn: r.id,
};

/**
 * List Fulfillments: the page and its count in one statement over fulfillments and tickets together
 * (for a customer: their own fulfillments), then their items in one batch.
 */
export async function listFulfillments(
  ctx: ServiceContext,
  q: ListQuery,
  customerId?: number,
): Promise<Page<Fulfillment>> {
  const cte = rowsCte(ctx, customerId);
  const where = q.where ?? sql`1`;
  // One statement: the window count is the total before LIMIT (a page past the last counts apart).
  const rows = await ctx.db.all<RawRow & { total_count: number }>(
    sql`${cte} SELECT *, count(*) OVER () AS total_count FROM fulfillment_rows WHERE ${where}
      ORDER BY ${sql.join(q.orderBy, sql`, `)} LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
  );
  const total =
    rows[0]?.total_count ??
    (q.page === 1
      ? 0
      : ((await ctx.db.all<{ n: number }>(sql`${cte} SELECT count(*) AS n FROM fulfillment_rows WHERE ${where}`))[0]
          ?.n ?? 0));
  const lastPage = Math.max(1, Math.ceil(total / q.pageSize));
  if (q.page > lastPage)
    throw ApiError.validation(
      { page: [`Out of range: this list has ${lastPage} page(s) of ${q.pageSize}.`] },
      "Invalid query parameters; see `errors`.",
    );
  return {
    count: total,
    page: q.page,
    pageSize: q.pageSize,
    results: await views(
      ctx,
      rows.map(({ total_count: _, ...r }) => r),
    ),
  };
}

/** The raw row of a fulfillment (not a ticket) of the store, of `customerId` when given; else a 404. */
export async function findFulfillment(ctx: ServiceContext, id: number, customerId?: number): Promise<RawRow> {
  const mine: SQL = customerId === undefined ? sql`1` : sql`customer_id = ${customerId}`;
  const [row] = await ctx.db.all<RawRow>(fulfillmentBranch(ctx, sql`id = ${id} AND ${mine}`));
  if (!row) throw ApiError.notFound("fulfillment_not_found", `Fulfillment ${id}`);
  return row;
}

export async function fulfillmentDetails(ctx: ServiceContext, id: number, customerId?: number): Promise<Fulfillment> {
  return (await views(ctx, [await findFulfillment(ctx, id, customerId)]))[0]!;
}

const zeros = <T extends readonly string[]>(keys: T) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<T[number], number>;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const UPCOMING_DAYS = 7;
/** Open statuses, a ticket's included: what is overdue once its date has passed. */
const OPEN_LISTED = ["pending", "processing", "confirmed"];

/** Fulfillments Overview: one grouped query over fulfillments and tickets, in the store's calendar. */
export async function fulfillmentsOverview(ctx: ServiceContext): Promise<FulfillmentsOverview> {
  const settings = await readStoreSettings(ctx.db, ctx.appId);
  const today = todayIn(settings.timezone);
  const lastDay = addDays(today, UPCOMING_DAYS - 1);
  const open = sql.join(
    OPEN_LISTED.map((s) => sql`${s}`),
    sql`, `,
  );
  const groups = await ctx.db.all<{ type: string; status: string; bucket: string; day: string | null; n: number }>(
    sql`${rowsCte(ctx)} SELECT type, status,
        CASE WHEN date = ${today} THEN 'today' WHEN date > ${today} THEN 'upcoming'
          WHEN date < ${today} AND status IN (${open}) THEN 'overdue' ELSE 'other' END AS bucket,
        CASE WHEN date >= ${today} AND date <= ${lastDay} THEN date END AS day,
        count(*) AS n
      FROM fulfillment_rows GROUP BY 1, 2, 3, 4`,
  );
  const out: FulfillmentsOverview = {
    today,
    total: 0,
    by_status: zeros(LISTED_STATUSES),
    by_type: zeros(LISTED_TYPES),
    due_today: { total: 0, by_status: zeros(LISTED_STATUSES) },
    upcoming: { total: 0, by_status: zeros(LISTED_STATUSES) },
    overdue: 0,
    upcoming_days: Array.from({ length: UPCOMING_DAYS }, (_, i) => ({ date: addDays(today, i), count: 0 })),
  };
  const status = (s: string) => s as (typeof LISTED_STATUSES)[number];
  for (const g of groups) {
    out.total += g.n;
    out.by_status[status(g.status)] += g.n;
    out.by_type[g.type as (typeof LISTED_TYPES)[number]] += g.n;
    if (g.bucket === "today" || g.bucket === "upcoming") {
      const bucket = g.bucket === "today" ? out.due_today : out.upcoming;
      bucket.total += g.n;
      bucket.by_status[status(g.status)] += g.n;
    }
    if (g.bucket === "overdue") out.overdue += g.n;
    const day = g.day && out.upcoming_days.find((d) => d.date === g.day);
    if (day) day.count += g.n;
  }
  return out;
}
