import { type Column, getTableColumns, type SQL, sql, type Table } from "drizzle-orm";

/**
 * `column IN (values)` bound as ONE JSON parameter, so that a statement never approaches D1's
 * limit of 100 bound parameters and the statement count does not grow with the list.
 */
export function inList(column: Column | SQL, values: readonly (number | string)[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/**
 * `column` contains `term`, case-insensitively for ASCII letters (as LIKE is; other scripts match as
 * written). Not a LIKE pattern: D1 refuses one of more than 50 bytes ("LIKE or GLOB pattern too
 * complex"), which a search term of 25 Arabic letters, or 25 escaped `%`, already is; `instr` has
 * no such limit and no wildcards to escape. A NULL column contains nothing.
 */
export function containsText(column: Column | SQL, term: string): SQL {
  return sql`instr(lower(${column}), lower(${term})) > 0`;
}

/** D1 binds at most 100 parameters a statement. */
export const D1_MAX_PARAMS = 100;

/**
 * Splits rows for multi-row INSERTs so that none binds more than D1 allows; the chunks go in one
 * `db.batch()` so that they still land together.
 */
export function chunkRows<T extends object>(table: Table, rows: T[]): T[][] {
  // drizzle binds every column of the table for each row, defaults included.
  const columns = Object.keys(getTableColumns(table)).length;
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * The id of the row the previous statement of the same D1 batch inserted into `table`. A batch
 * is one transaction and D1 runs one at a time, so right after the insert it is the largest id;
 * the subquery is not correlated, so SQLite evaluates it once even inside a multi-row insert.
 */
export function insertedId(table: Table): SQL {
  return sql`(SELECT max(id) FROM ${table})`;
}
