import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import type { ListQuery, ListSpec, Page } from "../../../core/listing";
import { searchColumns } from "../../../core/listing";
import { todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { fulfillmentBranch, type RawRow, readWithItems, rowsCte, rowsOf, views, withItemsStatement } from "./rows";
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
  sync: { modifiedAt: r.modifiedAt, softDeleted: false },
};

/**
 * List Fulfillments: the page, its count and its items in one statement over fulfillments and
 * tickets together (for a customer: their own fulfillments).
 */
export async function listFulfillments(
  ctx: ServiceContext,
  q: ListQuery,
  customerId?: number,
): Promise<Page<Fulfillment>> {
  const cte = rowsCte(ctx, customerId);
  const where = q.where ?? sql`1`;
  // The window count is the total before LIMIT (a page past the last counts apart).
  const { rows, items } = await readWithItems<RawRow & { total_count: number }>(
    ctx,
    cte,
    sql`SELECT *, count(*) OVER () AS total_count FROM fulfillment_rows WHERE ${where}
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
    results: views(
      rows.map(({ total_count: _, ...r }) => r),
      items,
    ),
  };
}

const mineOnly = (customerId?: number): SQL => (customerId === undefined ? sql`1` : sql`customer_id = ${customerId}`);
const notFound = (id: number) => ApiError.notFound("fulfillment_not_found", `Fulfillment ${id}`);

/** The raw row of a fulfillment (not a ticket) of the store, of `customerId` when given; else a 404. */
export async function findFulfillment(ctx: ServiceContext, id: number, customerId?: number): Promise<RawRow> {
  const [row] = await ctx.db.all<RawRow>(fulfillmentBranch(ctx, sql`id = ${id} AND ${mineOnly(customerId)}`));
  if (!row) throw notFound(id);
  return row;
}

/** A fulfillment (not a ticket) of the store with its item, in one statement; else a 404. */
export async function fulfillmentDetails(ctx: ServiceContext, id: number, customerId?: number): Promise<Fulfillment> {
  const { query, answer } = fulfillmentDetailsStatement(ctx, id, customerId);
  return answer(await ctx.db.all<Record<string, unknown>>(query));
}

/** `fulfillmentDetails` as a statement (a write's batch reads its answer with it) and its rows' answer. */
export function fulfillmentDetailsStatement(ctx: ServiceContext, id: number, customerId?: number) {
  const { query, parse } = withItemsStatement(
    ctx,
    sql`WITH fulfillment_rows AS (${fulfillmentBranch(ctx, sql`id = ${id} AND ${mineOnly(customerId)}`)})`,
    sql`SELECT * FROM fulfillment_rows`,
  );
  const answer = (raw: Record<string, unknown>[]): Fulfillment => {
    const { rows, items } = parse(raw);
    if (!rows.length) throw notFound(id);
    return views(rows, items)[0]!;
  };
  return { query, answer };
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
/** How far from UTC's today a store's today can be, in days (UTC-12 to UTC+14), with a margin. */
const NEAR_DAYS = 2;
/** A date before (after) the near ones, as the overview query groups it. */
const BEFORE = "before";
const AFTER = "after";

/** The overview's bucket and upcoming day of a date (or `BEFORE`/`AFTER`) in the store's calendar. */
function bucketOf(near: string | null, status: string, today: string, lastDay: string) {
  if (near === null) return { bucket: "other", day: null };
  if (near === BEFORE) return { bucket: OPEN_LISTED.includes(status) ? "overdue" : "other", day: null };
  if (near === AFTER) return { bucket: "upcoming", day: null };
  const bucket =
    near === today ? "today" : near > today ? "upcoming" : OPEN_LISTED.includes(status) ? "overdue" : "other";
  return { bucket, day: near >= today && near <= lastDay ? near : null };
}

/**
 * Fulfillments Overview: one grouped query over fulfillments and tickets, sent with the store's
 * settings (one round trip), then read in the store's calendar. The store's today is within a day
 * of UTC's, so the query groups by date only near it (`NEAR_DAYS`): an earlier date is before any
 * today it can be (overdue when open), a later one after any last upcoming day (upcoming).
 */
export async function fulfillmentsOverview(ctx: ServiceContext): Promise<FulfillmentsOverview> {
  const utcToday = todayIn("UTC");
  const first = addDays(utcToday, -NEAR_DAYS);
  const last = addDays(utcToday, UPCOMING_DAYS + NEAR_DAYS);
  const [settings, groups] = await Promise.all([
    readStoreSettings(ctx.db, ctx.appId),
    ctx.db.all<{ type: string; status: string; near: string | null; n: number }>(
      sql`${rowsCte(ctx)} SELECT type, status,
          CASE WHEN date < ${first} THEN ${BEFORE} WHEN date > ${last} THEN ${AFTER} ELSE date END AS near,
          count(*) AS n
        FROM fulfillment_rows GROUP BY 1, 2, 3`,
    ),
  ]);
  const today = todayIn(settings.timezone);
  const lastDay = addDays(today, UPCOMING_DAYS - 1);
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
  for (const { near, ...rest } of groups) {
    const g = { ...rest, ...bucketOf(near, rest.status, today, lastDay) };
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
