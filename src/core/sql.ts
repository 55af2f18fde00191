import { and, type Column, getTableColumns, type SQL, sql, type Table } from "drizzle-orm";
import { text } from "drizzle-orm/sqlite-core";

/**
 * `column IN (values)` bound as ONE JSON parameter, so that a statement never approaches D1's
 * limit of 100 bound parameters and the statement count does not grow with the list.
 */
export function inList(column: Column | SQL, values: readonly (number | string)[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/**
 * `+column`: the same value, but SQLite will not use an index for it. Here rather than in listing.ts
 * (which re-exports it) so that the tenant filters reach it without zod: the webhooks' consumer
 * Worker uses them, and stays small without it.
 */
export const offIndex = (column: Column): SQL => sql`+${column}`;

/** Conditions ANDed as they are; past them, the rest go in groups (`allOf`). */
const AND_GROUP = 16;

/**
 * Every condition, ANDed so that SQLite's expression tree stays shallow. It parses `a AND b AND c …`
 * as a chain as deep as it is long, and rebuilds one from the terms it pushes into a view or a UNION
 * (however they were nested), and D1 refuses an expression deeper than 100 ("Expression tree is
 * too large"), which a list given every filter it declares passes. The first conditions stay plain
 * terms (each may use an index); each further group of them is one term, `+(…)`, which SQLite
 * neither splits nor chains again.
 */
export function allOf(conditions: readonly SQL[]): SQL | undefined {
  if (conditions.length <= AND_GROUP) return and(...conditions);
  const groups: SQL[] = [];
  for (let i = AND_GROUP; i < conditions.length; i += AND_GROUP)
    groups.push(sql`+(${and(...conditions.slice(i, i + AND_GROUP))})`);
  return and(...conditions.slice(0, AND_GROUP), sql`+(${allOf(groups)})`);
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

/** What may be written in a statement as it is: digits, signs, a point, an exponent, ISO dates and times. */
const PLAIN_VALUE = /^[0-9T:.Z+-]{1,40}$/;

/**
 * A parsed value written in the statement rather than bound, so that a list given every filter it
 * declares (more than 100 values) stays within D1's 100 bound parameters. Only a finite number, a
 * boolean, or a string of digits and ISO date-time signs (`2026-12-01T10:00:00.000Z`) is written:
 * nothing that could close a quote. Any other text is bound as usual.
 */
export function inlineValue(value: number | boolean | string): SQL {
  if (typeof value === "boolean") return sql.raw(value ? "1" : "0");
  if (typeof value === "number" && Number.isFinite(value)) return sql.raw(`(${value})`);
  if (typeof value === "string" && PLAIN_VALUE.test(value)) return sql.raw(`'${value}'`);
  return sql`${value}`;
}

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
 * `modified_at` added to a table that had rows: SQLite adds a NOT NULL column only with a constant
 * default, so a row no writer stamped shows the epoch (its migration backfilled the rows it found).
 * Every writer sets its own time.
 */
export const addedModifiedAt = () => text("modified_at").notNull().default("1970-01-01T00:00:00.000Z");
