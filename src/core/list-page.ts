/**
 * Reading a page of a list (core/listing parses the query): the count, the page and its nested
 * levels in one statement, or in two when the statement would bind more than D1 allows.
 */
import { and, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { ApiError } from "./errors";
import { decodeRow, rowArray } from "./json-rows";
import type { ListQuery, Page } from "./list-spec";

/**
 * A page of `table`'s rows for a parsed list query: the count and the page in ONE statement (one
 * D1 round trip; see `listPageWith` for nested levels in the same statement). `scope` is the
 * tenant condition every row must meet; when the search drives the query it gets `true`, and
 * should keep its columns off their indexes (`liveOffIndex`). A page past the last is a 400
 * naming how many there are.
 */
export async function listPage<T extends SQLiteTable>(
  db: Db,
  q: ListQuery,
  opts: { table: T; scope: (searchDriven: boolean) => SQL; parent?: ListParent },
): Promise<Page<T["$inferSelect"]>> {
  return (await listPageWith(db, q, opts, () => ({}))).page;
}

/**
 * The resource a list is of (a restaurant's branches): checked in the list's own statement, so
 * that a missing parent is its 404 (before a page out of range) without a round trip of its own.
 * `exists` is 1 when the parent is there; any other value (0, NULL) is handed to `notFound`, so a
 * parent reached through another (a plan's menu) can say which one is missing.
 */
export type ListParent = { exists: SQL; notFound: (found: unknown) => ApiError };

/** The parent's check as a column of the list's statement (1 when the list has no parent). */
const parentFound = (parent: ListParent | undefined) => parent?.exists ?? sql`1`;

/** A missing parent is the list's 404, before anything else is said of the page. */
function checkParent(parent: ListParent | undefined, found: unknown) {
  if (parent && Number(found) !== 1) throw parent.notFound(found);
}

/** The page's rows inside `listPageWith`'s statement: `SELECT … FROM ${PAGE_ROWS}`. */
const PAGE_ALIAS = "list_page";
export const PAGE_ROWS = sql.identifier(PAGE_ALIAS);

/**
 * `listPage`, with nested levels fetched by the same statement: `nested` names scalar
 * subqueries (JSON text, see core/json-rows' `rowsJson`) that may read the page's rows from
 * `PAGE_ROWS` (`(SELECT item_id FROM ${PAGE_ROWS})`); each comes back parsed under its name.
 * The count is the page's own when the page is not full (no second scan); else `count` when given
 * (a scalar subquery, e.g. a counter kept exact by triggers), else the rows counted.
 * `with` names sets the nested levels share (materialized once, after the page's rows, which they
 * may read): a set that every level would otherwise repeat as a subquery is compiled once, and
 * compiling the statement is most of what SQLite spends on a list with many nested levels.
 */
export async function listPageWith<T extends SQLiteTable, K extends string>(
  db: Db,
  q: ListQuery,
  opts: {
    table: T;
    scope: (searchDriven: boolean) => SQL;
    count?: SQL;
    parent?: ListParent;
    with?: (page: SQL) => Record<string, SQL>;
  },
  nested: (page: SQL) => Record<K, SQL>,
): Promise<{ page: Page<T["$inferSelect"]>; nested: Record<K, unknown> }> {
  const scope = opts.scope(q.searchDriven);
  const where = q.where ? and(scope, q.where)! : scope;
  const extra = nested(sql`${PAGE_ROWS}`);
  const names = Object.keys(extra) as K[];
  const parts = sql.join(
    names.map((n) => sql`, ${extra[n]} AS ${sql.identifier(`n_${n}`)}`),
    sql``,
  );
  const shared = sharedSets(opts.with?.(sql`${PAGE_ROWS}`));
  const { dialect, $client } = db as unknown as DrizzleD1Internals;
  const query = listStatement(dialect, { ...opts, where, count: opts.count, shared }, q, parts);
  if (query.params.length > D1_MAX_PARAMS) return listPageInTwo(db, q, { ...opts, where, shared }, names, parts);
  const row = (
    await $client
      .prepare(query.sql)
      .bind(...query.params)
      .all<Record<string, string | number | null>>()
  ).results[0];
  checkParent(opts.parent, row?.parent_found);
  const total = Number(row?.count ?? 0);
  checkPageInRange(q, total);
  const numbered = JSON.parse(String(row?.rows ?? "[]")) as [number, unknown[][]][];
  numbered.sort((a, b) => a[0] - b[0]);
  const results = numbered.map(([, r]) => decodeRow(opts.table, r));
  return { page: { count: total, page: q.page, pageSize: q.pageSize, results }, nested: parsedParts(row, names) };
}

/** `listPageWith`'s `with` as the rest of a WITH clause: `, "name" AS MATERIALIZED (…)` each. */
function sharedSets(sets: Record<string, SQL> | undefined): SQL {
  return sql.join(
    Object.entries(sets ?? {}).map(([name, body]) => sql`, ${sql.identifier(name)} AS MATERIALIZED (${body})`),
    sql``,
  );
}

/**
 * `listPageWith`'s statement as D1 takes it. The page is numbered as it comes (row_number over the
 * ordered, limited subquery), and sorted by that number after: json_group_array's order is not
 * promised. The page's count and rows are read by one aggregate in FROM, not by a scalar subquery
 * each (three, with the CASE's counts): SQLite compiles every statement afresh on the local
 * runtime, and each subquery over the page cost it about as much as the page itself.
 *
 * Its pieces are rendered once each and put together as text: building a statement's SQL is the
 * largest CPU cost of a list read in the isolate (docs/benchmarks.md, Public reads: KV cache and D1),
 * and the filter appears twice (the page and its count). The text and parameters are the ones
 * drizzle renders for the same statement, in the same order.
 */
function listStatement(
  dialect: SQLiteDialect,
  s: { table: SQLiteTable; where: SQL; count?: SQL; parent?: ListParent; shared: SQL },
  q: ListQuery,
  parts: SQL,
): { sql: string; params: unknown[] } {
  const table = dialect.sqlToQuery(sql`${s.table}`).sql;
  const where = dialect.sqlToQuery(s.where);
  const order = dialect.sqlToQuery(sql.join(q.orderBy, sql`, `));
  const count = s.count
    ? dialect.sqlToQuery(s.count)
    : { sql: `(SELECT count(*) FROM ${table} WHERE ${where.sql})`, params: where.params };
  const parent = dialect.sqlToQuery(parentFound(s.parent));
  const shared = dialect.sqlToQuery(s.shared);
  const nested = dialect.sqlToQuery(parts);
  const rowText = dialect.sqlToQuery(rowArray(s.table, PAGE_ALIAS)).sql;
  const pageRows = dialect.sqlToQuery(sql`${PAGE_ROWS}`).sql;
  const offset = (q.page - 1) * q.pageSize;
  const inPage = `"page_summary"."in_page"`;
  return {
    sql: `WITH ${pageRows} AS MATERIALIZED (
      SELECT p.*, row_number() OVER () AS "_n" FROM (SELECT * FROM ${table} WHERE ${where.sql}
        ORDER BY ${order.sql} LIMIT ? OFFSET ?) AS p)${shared.sql}
    SELECT CASE WHEN ${inPage} BETWEEN 1 AND ? OR (? = 0 AND ${inPage} = 0)
        THEN ? + ${inPage} ELSE ${count.sql} END AS "count",
      "page_summary"."rows" AS "rows",
      ${parent.sql} AS "parent_found"
      ${nested.sql}
    FROM (SELECT count(*) AS "in_page", json_group_array(json_array("_n", ${rowText})) AS "rows"
      FROM ${pageRows}) AS "page_summary"`,
    params: [
      ...where.params,
      ...order.params,
      q.pageSize,
      offset,
      ...shared.params,
      q.pageSize - 1,
      offset,
      offset,
      ...count.params,
      ...parent.params,
      ...nested.params,
    ],
  };
}

/** What drizzle's D1 database holds beside its builders, missing from its types: its dialect and its D1 client. */
type DrizzleD1Internals = { dialect: SQLiteDialect; $client: D1Database | D1DatabaseSession };

/** D1 binds at most 100 parameters a statement. */
const D1_MAX_PARAMS = 100;

function checkPageInRange(q: ListQuery, total: number) {
  const lastPage = Math.max(1, Math.ceil(total / q.pageSize));
  if (q.page > lastPage) {
    throw ApiError.validation(
      { page: [`Out of range: this list has ${lastPage} page(s) of ${q.pageSize}.`] },
      "Invalid query parameters; see `errors`.",
    );
  }
}

function parsedParts<K extends string>(row: Record<string, unknown> | undefined, names: K[]): Record<K, unknown> {
  const parsed = {} as Record<K, unknown>;
  for (const n of names) {
    const v = row?.[`n_${n}`];
    parsed[n] = typeof v === "string" ? JSON.parse(v) : (v ?? null);
  }
  return parsed;
}

/**
 * `listPageWith` for the rare query whose one statement would bind more than D1 takes (many
 * filter values and search terms, bound twice: page and count): the count and the page in one
 * batch, then the nested levels of the page's ids. Two round trips.
 */
async function listPageInTwo<T extends SQLiteTable, K extends string>(
  db: Db,
  q: ListQuery,
  opts: { table: T; where: SQL; parent?: ListParent; shared: SQL },
  names: K[],
  parts: SQL,
): Promise<{ page: Page<T["$inferSelect"]>; nested: Record<K, unknown> }> {
  const table = opts.table as SQLiteTable;
  const [countRows, rows] = await db.batch([
    db
      // Named: D1 gives drizzle's batch each row as an object, where a column named "1" would come first.
      .select({
        count: sql<number>`count(*)`,
        parentFound: sql<number>`${parentFound(opts.parent)}`.as("parent_found"),
      })
      .from(table)
      .where(opts.where),
    db
      .select()
      .from(table)
      .where(opts.where)
      .orderBy(...q.orderBy)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
  ]);
  checkParent(opts.parent, countRows[0]?.parentFound);
  const total = Number(countRows[0]?.count ?? 0);
  checkPageInRange(q, total);
  const results = rows as T["$inferSelect"][];
  if (!names.length || !results.length)
    return {
      page: { count: total, page: q.page, pageSize: q.pageSize, results },
      nested: parsedParts(undefined, names),
    };
  const id = getTableColumns(table).id!;
  const ids = JSON.stringify(results.map((r) => (r as Record<string, unknown>).id));
  const row = await db.get<Record<string, string | null>>(sql`WITH ${PAGE_ROWS} AS MATERIALIZED (
      SELECT * FROM ${table} WHERE ${id} IN (SELECT value FROM json_each(${ids})))${opts.shared}
    SELECT 1 ${parts}`);
  return { page: { count: total, page: q.page, pageSize: q.pageSize, results }, nested: parsedParts(row, names) };
}
