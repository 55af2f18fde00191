import { type Column, getTableColumns, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * Rows assembled as JSON by SQLite, so that a read and all its nested levels come back from ONE
 * statement (one D1 round trip): each level is a scalar subquery `json_group_array(...)` of
 * positional rows, decoded here through the table's own column mappings, so that a decoded row is
 * what `db.select().from(table)` gives.
 */

/** SQLite takes at most 127 arguments a function (older builds): rows are arrays of chunks. */
const CHUNK = 100;

const COLUMNS = new WeakMap<SQLiteTable, [string, Column][]>();

/** A table's columns by key, in order: read once per table, since every decoded row walks them. */
function columnsOf(table: SQLiteTable): [string, Column][] {
  let columns = COLUMNS.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)) as [string, Column][];
    COLUMNS.set(table, columns);
  }
  return columns;
}

/** Renders the fixed fragments below once, as drizzle's SQLite dialect writes them. */
const dialect = new SQLiteAsyncDialect();
const ROW_ARRAYS = new WeakMap<SQLiteTable, Map<string, string>>();

/**
 * A row of `table` as `json_array(json_array(c1, …), …)`, its columns read through `alias`. Its
 * text is written once per table and alias: building a statement's SQL costs CPU per fragment, and a
 * list's rows name every column of every nested level.
 */
export function rowArray(table: SQLiteTable, alias: string): SQL {
  let byAlias = ROW_ARRAYS.get(table);
  if (!byAlias) {
    byAlias = new Map();
    ROW_ARRAYS.set(table, byAlias);
  }
  let text = byAlias.get(alias);
  if (text === undefined) {
    const refs = columnsOf(table).map(([, c]) => sql`${sql.identifier(alias)}.${sql.identifier(c.name)}`);
    const chunks: SQL[] = [];
    for (let i = 0; i < refs.length; i += CHUNK)
      chunks.push(sql`json_array(${sql.join(refs.slice(i, i + CHUNK), sql`, `)})`);
    text = dialect.sqlToQuery(sql`json_array(${sql.join(chunks, sql`, `)})`).sql;
    byAlias.set(alias, text);
  }
  // A fragment of its own each time: an SQL object can be changed by whoever holds it (`mapWith`).
  return sql.raw(text);
}

/** The rows of `table` under `where`, in `orderBy`'s order, as one JSON array (`decodeRows` reads it). */
export function rowsJson(table: SQLiteTable, where: SQL, orderBy: SQL[] = []): SQL {
  const alias = "r";
  const order = orderBy.length ? sql` ORDER BY ${sql.join(orderBy, sql`, `)}` : sql``;
  return sql`(SELECT json_group_array(${rowArray(table, alias)}) FROM (SELECT * FROM ${table} WHERE ${where}${order}) AS ${sql.identifier(alias)})`;
}

/** One positional row (from `rowArray`) as drizzle maps a row of `table`. */
export function decodeRow<T extends SQLiteTable>(table: T, chunks: unknown[][]): T["$inferSelect"] {
  // Walked in place, without flattening the chunks first: every row of every list comes through here.
  const columns = columnsOf(table);
  const row: Record<string, unknown> = {};
  let i = 0;
  for (const chunk of chunks)
    for (const v of chunk) {
      if (i >= columns.length) break;
      const [key, column] = columns[i++]!;
      row[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
  for (; i < columns.length; i++) row[columns[i]![0]] = null;
  return row as T["$inferSelect"];
}

/** The rows of a `rowsJson` (as text, or already parsed as part of a larger document). */
export function decodeRows<T extends SQLiteTable>(table: T, json: unknown): T["$inferSelect"][] {
  const rows = (typeof json === "string" ? JSON.parse(json) : (json ?? [])) as unknown[][][];
  return rows.map((r) => decodeRow(table, r));
}

/**
 * A validated integer (a tenant's id, an id) written into the statement rather than bound: D1
 * binds at most 100 parameters a statement, and a read's nested levels repeat the tenant's id.
 */
export function intLiteral(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return sql.raw(String(n));
}
