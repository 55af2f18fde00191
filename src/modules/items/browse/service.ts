import { and, asc, desc, eq, gte, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { live, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, intLiteral, rowsJson } from "../../../core/json-rows";
import {
  type ListQuery,
  listPageWith,
  mapPage,
  namedListSpec,
  PAGE_SIZE_DEFAULT,
  type Page,
} from "../../../core/listing";
import { containsText } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import type { Item } from "../catalogue-items/schemas";
import { assembleItems, itemsJson } from "../catalogue-items/views";
import { itemCategories, itemCategoryLinks, items } from "../tables";
import type { BrowseItemsQuery, CatalogueCategory } from "./schemas";

/**
 * The customer app's reads of the catalogue. An item is *active* when it is the store's, not
 * deleted, not a variant (variants show inside their item), not plan-only (sold only inside a
 * plan), and today is within its served dates. Served times, off days and off dates do not hide
 * an item: they say when it is served (the app shows them, a booking or an order picks a slot),
 * and a catalogue that changed with the hour of the day would be empty at night and never cached.
 *
 * Each read says until when it stays right without a write (`validUntil`): the end of the store's
 * day (served dates), and the next start or end of a shown discount or expiry of a shown
 * reservation (the `discount` and `stock` objects change then).
 */

/**
 * The store's time zone, for "today". Store settings keep one (default Asia/Riyadh), but the
 * account module does not expose it yet; until it does, every store's day is Riyadh's.
 */
const STORE_TIME_ZONE = "Asia/Riyadh";

export type StoreDay = { date: string; endsAt: number };

const HOUR_MS = 3_600_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The date (YYYY-MM-DD) and the milliseconds since midnight at `at`, where the store is. */
function localAt(timeZone: string, at: number) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
  const seconds = (Number(p.hour) * 60 + Number(p.minute)) * 60 + Number(p.second);
  return { date: `${p.year}-${p.month}-${p.day}`, sinceMidnight: seconds * 1000 + (at % 1000) };
}

/** Today's date where the store is, and the instant (epoch ms) it ends. */
export function storeDay(now = nowMs(), timeZone = STORE_TIME_ZONE): StoreDay {
  const { date, sinceMidnight } = localAt(timeZone, now);
  let endsAt = now - sinceMidnight + 24 * HOUR_MS;
  // A daylight-saving change makes the day 23 or 25 hours long: step to the real change.
  while (localAt(timeZone, endsAt).date === date) endsAt += HOUR_MS;
  while (endsAt - HOUR_MS > now && localAt(timeZone, endsAt - HOUR_MS).date !== date) endsAt -= HOUR_MS;
  return { date, endsAt };
}

const activeItems = (appId: number, today: string): SQL =>
  and(
    live(items, appId),
    isNull(items.parentId),
    eq(items.isPlanOnly, false),
    lte(items.servedFromDate, today),
    gte(items.servedToDate, today),
  )!;

/** Units live reservations hold of item `id` (a column or an alias's column). */
const heldOf = (id: SQL, at: string) =>
  sql`coalesce((SELECT sum(r.qty) FROM item_reservations r WHERE r.item_id = ${id}
      AND r.consumed_at IS NULL AND r.expires_at > ${at}), 0)`;

/** The item, or one of its live variants, has units to sell (as `stock.in_stock` shows them). */
const inStock = (at: string): SQL =>
  or(
    sql`${items.stockQty} > ${heldOf(sql`${items.id}`, at)}`,
    sql`EXISTS (SELECT 1 FROM items v WHERE v.parent_id = ${items.id} AND ${notDeletedRow("v")}
        AND v.stock_qty > ${heldOf(sql`v.id`, at)})`,
  )!;

const ORDER_COLUMNS = {
  ordering: items.ordering,
  price: items.priceMinor,
  created_at: items.createdAt,
  name_en: items.nameEn,
  name_ar: items.nameAr,
} as const;

function itemsQuery(q: BrowseItemsQuery, at: string): ListQuery {
  const where: SQL[] = [];
  if (q.category_id !== undefined)
    where.push(sql`${items.id} IN (SELECT item_id FROM item_category_links WHERE category_id = ${q.category_id})`);
  if (q.type !== undefined) where.push(eq(items.type, q.type));
  if (q.in_stock !== undefined) where.push(q.in_stock === "true" ? inStock(at) : sql`NOT (${inStock(at)})`);
  if (q.min_price !== undefined) where.push(gte(items.priceMinor, q.min_price));
  if (q.max_price !== undefined) where.push(lte(items.priceMinor, q.max_price));
  if (q.search !== undefined)
    where.push(
      or(
        containsText(items.nameEn, q.search),
        containsText(items.nameAr, q.search),
        containsText(items.sku, q.search),
      )!,
    );
  const order = q.order_by ?? "ordering";
  const column = ORDER_COLUMNS[order.replace(/^-/, "") as keyof typeof ORDER_COLUMNS];
  return {
    page: q.page ?? 1,
    pageSize: q.page_size ?? PAGE_SIZE_DEFAULT,
    where: where.length ? and(...where) : undefined,
    orderBy: [order.startsWith("-") ? desc(column) : asc(column), desc(items.id)],
    searchDriven: false,
  };
}

/**
 * The next instant after `at` when the `discount` or `stock` of the items `ids` selects (a
 * subquery) and their live variants changes without a write: a discount starts or ends, a
 * reservation expires. A scalar subquery (JSON: the instant's text, or null), for the statement that
 * reads the items.
 */
function nextChangeSql(appId: number, ids: SQL, at: string): SQL {
  return sql`(WITH family AS (
      SELECT id FROM items WHERE app_id = ${intLiteral(appId)}
        AND (id IN ${ids} OR (parent_id IN ${ids} AND ${notDeletedRow()})))
    SELECT json_quote(min(t)) FROM (
      SELECT min(expires_at) AS t FROM item_reservations WHERE item_id IN family
        AND consumed_at IS NULL AND expires_at > ${at}
      UNION ALL SELECT min(starts_at) FROM item_discounts WHERE item_id IN family
        AND ${notDeletedRow()} AND starts_at > ${at}
      UNION ALL SELECT min(ends_at) FROM item_discounts WHERE item_id IN family
        AND ${notDeletedRow()} AND ends_at > ${at}))`;
}

/** The full items and the next change of the items `ids` selects, as parts of one statement. */
const itemsAndChangeJson = (appId: number, ids: SQL, at: string) => ({
  ...itemsJson(appId, ids, at),
  nextChange: nextChangeSql(appId, ids, at),
});

/** `itemsAndChangeJson`'s parts (parsed) as the items of `ids` by id, and the next change's instant. */
function itemsAndChange(parts: Record<string, unknown>, ids: readonly number[], at: string) {
  const t = parts.nextChange;
  return {
    full: assembleItems(parts as Parameters<typeof assembleItems>[0], ids, at),
    change: typeof t === "string" ? Date.parse(t) : undefined,
  };
}

const earliest = (a: number, b: number | undefined) => (b === undefined ? a : Math.min(a, b));

export type Valid<T> = { value: T; validUntil: number };

/** List Items (customer app): a page of active items, each the full Item, in one batch. */
export async function listActiveItems(
  ctx: ServiceContext,
  q: BrowseItemsQuery,
  day = storeDay(),
): Promise<Valid<Page<Item>>> {
  const at = nowIso();
  const { page, nested } = await listPageWith(
    ctx.db,
    itemsQuery(q, at),
    { table: items, scope: () => activeItems(ctx.appId, day.date) },
    (rows) => itemsAndChangeJson(ctx.appId, sql`(SELECT id FROM ${rows})`, at),
  );
  const { full, change } = itemsAndChange(
    nested,
    page.results.map((r) => r.id),
    at,
  );
  return { value: mapPage(page, (r) => full.get(r.id)!), validUntil: earliest(day.endsAt, change) };
}

/** Item Details (customer app): one active item, else 404 `item_not_found`. */
export async function getActiveItem(ctx: ServiceContext, id: number, day = storeDay()): Promise<Valid<Item>> {
  const at = nowIso();
  const parts = itemsAndChangeJson(ctx.appId, sql`(${id})`, at);
  const row = await ctx.db.get<Record<string, string | number | null>>(
    sql`SELECT EXISTS (SELECT 1 FROM ${items} WHERE ${and(activeItems(ctx.appId, day.date), eq(items.id, id))}) AS "active", ${sql.join(
      Object.entries(parts).map(([k, v]) => sql`${v} AS ${sql.identifier(k)}`),
      sql`, `,
    )}`,
  );
  const parsed = Object.fromEntries(Object.keys(parts).map((k) => [k, JSON.parse(String(row?.[k] ?? "[]"))]));
  const { full, change } = itemsAndChange(parsed, [id], at);
  const item = full.get(id);
  if (!row?.active || !item) throw ApiError.notFound("item_not_found", `Item ${id}`);
  return { value: item, validUntil: earliest(day.endsAt, change) };
}

export const CATALOGUE_CATEGORY_LIST = namedListSpec(itemCategories);

/** How many active items each category that `ids` selects (a subquery) has: `[category_id, n]` pairs as JSON. */
function activeCountsJson(ctx: ServiceContext, ids: SQL, today: string): SQL {
  return sql`(SELECT json_group_array(json_array(category_id, n)) FROM (
      SELECT ${itemCategoryLinks.categoryId} AS category_id, count(*) AS n FROM ${itemCategoryLinks}
        INNER JOIN ${items} ON ${items.id} = ${itemCategoryLinks.itemId}
      WHERE ${itemCategoryLinks.categoryId} IN ${ids} AND ${activeItems(ctx.appId, today)}
      GROUP BY ${itemCategoryLinks.categoryId}))`;
}

const countsOf = (json: unknown) => new Map((json as [number, number][] | null) ?? []);

const categoryView = (c: typeof itemCategories.$inferSelect, n: number | undefined): CatalogueCategory => ({
  id: c.id,
  name_en: c.nameEn,
  name_ar: c.nameAr,
  ordering: c.ordering,
  created_at: c.createdAt,
  items_count: n ?? 0,
});

/** List Categories (customer app): the store's item categories, each with its count of active items. */
export async function listCatalogueCategories(
  ctx: ServiceContext,
  q: ListQuery,
  day = storeDay(),
): Promise<Valid<Page<CatalogueCategory>>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: itemCategories, scope: () => live(itemCategories, ctx.appId) },
    (rows) => ({ counts: activeCountsJson(ctx, sql`(SELECT id FROM ${rows})`, day.date) }),
  );
  const counts = countsOf(nested.counts);
  return { value: mapPage(page, (c) => categoryView(c, counts.get(c.id))), validUntil: day.endsAt };
}

/** Category Details (customer app), else 404 `item_category_not_found`. */
export async function getCatalogueCategory(
  ctx: ServiceContext,
  id: number,
  day = storeDay(),
): Promise<Valid<CatalogueCategory>> {
  const found = await ctx.db.get<{ rows: string | null; counts: string | null }>(
    sql`SELECT ${rowsJson(itemCategories, and(live(itemCategories, ctx.appId), eq(itemCategories.id, id))!)} AS "rows",
      ${activeCountsJson(ctx, sql`(${id})`, day.date)} AS "counts"`,
  );
  const [row] = decodeRows(itemCategories, found?.rows ?? "[]");
  if (!row) throw ApiError.notFound("item_category_not_found", `Item category ${id}`);
  return { value: categoryView(row, countsOf(JSON.parse(found?.counts ?? "[]")).get(id)), validUntil: day.endsAt };
}
