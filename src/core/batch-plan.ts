import { type Column, getTableColumns, type InferInsertModel, is, type Query, SQL, sql, type Table } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import type { ApiError } from "./errors";
import { type EventSink, emit, unionEvents } from "./events/outbox";
import { abortUnless, isGuardAbort } from "./guards";

/**
 * The ids a batch's inserts took, by the name the plan gave them, while the batch runs: a later
 * statement of the same batch reads its row's id here instead of guessing it (the largest id of its table). The batch
 * empties it as its last statement, and a batch that fails leaves nothing (it is one transaction,
 * and D1 runs one at a time), so between batches it is empty.
 */
export const batchHandles = sqliteTable("batch_handles", {
  name: text("name").primaryKey(),
  id: integer("id").notNull(),
});

/** A row a plan inserts: `id` is its id as SQL, for the statements and events after it. */
export type Handle = { readonly name: string; readonly id: SQL };

/**
 * What a failed guard means to the client: the problem itself, or a read of the state that returns
 * the problem when it is the reason (null when it is not).
 */
export type Refusal = ApiError | (() => Promise<ApiError | null>);

/** A read of a plan's batch, where it stands among the statements; `run()` answers its rows. */
export type Read<Row> = { readonly at: number; readonly row?: Row };

/** What a plan's batch answers: the id each handle's insert took, the rows it returned, a read's rows. */
export type PlanResult = {
  id(handle: Handle | string): number;
  /** The rows a handle's insert returned (an insert with `returning()`; none if it wrote none), or a read's. */
  rows<Row>(of: Handle | Read<Row>): Row[];
  /** The one row a handle's insert returned. */
  row<Row>(handle: Handle): Row;
};

const HANDLE_NAME = /^[a-z][a-z0-9_.:-]{0,62}$/;

/**
 * One multi-table write, composed by the steps of whoever takes part in it, then run as ONE D1
 * batch (one transaction) with its events (`emit`): statements, guards that say what their failure
 * means, inserts named so that later statements reference their ids, and the events, derived in
 * SQL after the changes.
 */
export class BatchPlan {
  private readonly statements: BatchItem<"sqlite">[] = [];
  private readonly events: SQL[] = [];
  private readonly refusals: Refusal[] = [];
  /** Each handle's insert, by its place among the statements (none for a row it finds). */
  private readonly handles = new Map<string, number | undefined>();

  constructor(readonly db: Db) {}

  /** Statements, in batch order. */
  add(...statements: BatchItem<"sqlite">[]): this {
    this.statements.push(...statements);
    return this;
  }

  /** A read (a SELECT) where it stands in the batch: it sees the statements before it. */
  read<Row>(statement: BatchItem<"sqlite">): Read<Row> {
    this.statements.push(statement);
    return { at: this.statements.length - 1 };
  }

  /** Events (derived SQL: `rowEvent`, `literalEvent`, ...), in outbox order. */
  event(...events: SQL[]): this {
    this.events.push(...events);
    return this;
  }

  /** A condition the batch aborts without, where it stands in the batch, and what its failure means. */
  guard(condition: SQL, reason: string, refusal?: Refusal): this {
    this.statements.push(abortUnless(this.db, condition, reason));
    if (refusal) this.refusals.push(refusal);
    return this;
  }

  /** Statements another module built with guards of its own (stock, a balance), and what their failure means. */
  guarded(statements: BatchItem<"sqlite">[], refusal: Refusal): this {
    this.statements.push(...statements);
    this.refusals.push(refusal);
    return this;
  }

  /**
   * A single-row insert whose id the rest of the batch references by `name`. An insert that wrote
   * no row (an INSERT ... SELECT whose WHERE did not hold) leaves the handle unset: its id is NULL.
   */
  insert(name: string, statement: BatchItem<"sqlite">): Handle {
    this.claim(name, this.statements.length);
    this.statements.push(
      statement,
      // last_insert_rowid() is the previous statement's row (triggers restore it); changes() says it wrote one.
      batchStatement(
        this.db,
        sql`INSERT INTO batch_handles (name, id) SELECT ${name}, last_insert_rowid() WHERE changes() = 1`,
      ),
    );
    return this.handle(name);
  }

  /**
   * A handle to a row the batch finds where it stands: `select` answers its `id` (or no row: the
   * handle is unset). For a row a later statement changes without inserting it (the account an
   * UPDATE takes the default from), so that its event names that row and no other.
   */
  find(name: string, select: SQL): Handle {
    this.claim(name, undefined);
    this.statements.push(
      batchStatement(this.db, sql`INSERT INTO batch_handles (name, id) SELECT ${name}, id FROM (${select}) LIMIT 1`),
    );
    return this.handle(name);
  }

  private claim(name: string, insertAt: number | undefined): void {
    if (!HANDLE_NAME.test(name)) throw new Error(`Handle name ${JSON.stringify(name)} is not a plain name.`);
    if (this.handles.has(name)) throw new Error(`Handle ${name} is already in this plan.`);
    this.handles.set(name, insertAt);
  }

  /** A handle of this plan, by name (a step added by another module finds the order this way). */
  handle(name: string): Handle {
    if (!this.handles.has(name)) throw new Error(`Handle ${name} is not in this plan.`);
    // The name is checked plain, so it is written in the statement: a reference binds no parameter.
    return { name, id: sql.raw(`(SELECT id FROM batch_handles WHERE name = '${name}')`) };
  }

  /**
   * Runs the plan as one batch. When a guard aborts it, the refusals are asked in order, the reads
   * first (each confirms its own condition failed), then the fixed problems; `otherwise` answers when
   * none does, else the abort is thrown as it is.
   */
  async run(sink: EventSink, otherwise?: ApiError): Promise<PlanResult> {
    const named = this.handles.size > 0;
    const after = named ? [this.db.select().from(batchHandles), this.db.delete(batchHandles)] : [];
    let results: unknown[];
    try {
      ({ results } = await emit(this.db, sink, this.statements, this.events.length ? unionEvents(this.events) : [], {
        after,
      }));
    } catch (error) {
      if (!isGuardAbort(error)) throw error;
      throw (await this.refusalOf()) ?? otherwise ?? error;
    }
    const rows = named ? (results.at(-2) as { name: string; id: number }[]) : [];
    const ids = new Map(rows.map((r) => [r.name, r.id]));
    const places = this.handles;
    const result: PlanResult = {
      id(handle) {
        const name = typeof handle === "string" ? handle : handle.name;
        const id = ids.get(name);
        if (id === undefined) throw new Error(`Handle ${name} took no row.`);
        return id;
      },
      rows<Row>(of: Handle | Read<Row>): Row[] {
        const at = "at" in of ? of.at : places.get(of.name);
        const returned = at === undefined ? undefined : results[at];
        if (!Array.isArray(returned)) throw new Error("Not a read, nor an insert with returning(), of this plan.");
        return returned as Row[];
      },
      row<Row>(handle: Handle): Row {
        const [row] = result.rows<Row>(handle);
        if (!row) throw new Error(`Handle ${handle.name} returned no row.`);
        return row;
      },
    };
    return result;
  }

  private async refusalOf(): Promise<ApiError | null> {
    for (const r of this.refusals) {
      if (typeof r !== "function") continue;
      const problem = await r();
      if (problem) return problem;
    }
    return (this.refusals.find((r) => typeof r !== "function") as ApiError | undefined) ?? null;
  }
}

export type ColumnValues<T extends Table> = { [K in keyof InferInsertModel<T>]: InferInsertModel<T>[K] | SQL };

/**
 * `INSERT INTO table (col, ...) SELECT expr, ... <from>` with the columns named (drizzle's keys, so a
 * misspelt column or a missing NOT NULL one is a type error), never by position: the rows come from
 * `from` (`FROM json_each(...)`, `FROM orders WHERE ...`), or one row without it. A value that is
 * not SQL is bound through its column (a JSON column's object is encoded).
 */
export function insertSelect<T extends Table>(
  db: Db,
  table: T,
  values: ColumnValues<T>,
  from?: SQL,
  opts: { returning?: boolean; onConflictDoNothing?: true | Column[] } = {},
): BatchItem<"sqlite"> {
  const columns = getTableColumns(table);
  const names: SQL[] = [];
  const exprs: SQL[] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${key} is not a column of the table.`);
    names.push(sql`${sql.identifier(column.name)}`);
    exprs.push(is(value, SQL) ? value : sql`${sql.param(value, column)}`);
  }
  const skip = opts.onConflictDoNothing;
  const conflict = !skip
    ? sql``
    : skip === true
      ? sql` ON CONFLICT DO NOTHING`
      : sql` ON CONFLICT (${sql.join(
          skip.map((c) => sql`${sql.identifier(c.name)}`),
          sql`, `,
        )}) DO NOTHING`;
  // With `returning`, the inserted rows as the table's rows (drizzle's keys and decoded values).
  const returned = opts.returning
    ? sql` RETURNING ${sql.join(
        Object.values(columns).map((c) => sql`${sql.identifier(c.name)}`),
        sql`, `,
      )}`
    : sql``;
  return batchStatement(
    db,
    sql`INSERT INTO ${table} (${sql.join(names, sql`, `)}) SELECT ${sql.join(exprs, sql`, `)} ${from ?? sql``}${conflict}${returned}`,
    opts.returning ? columns : undefined,
  );
}

type Field = { path: string[]; field: Column | SQL };
type Internals = {
  session: {
    prepareQuery(query: Query, fields: Field[] | undefined, method: "run" | "all", arrayMode: boolean): unknown;
  };
  dialect: { sqlToQuery(query: SQL): Query };
};

/**
 * A statement of any SQL that can stand in a D1 batch. drizzle's `db.run()` cannot once it binds a
 * parameter (it brings no prepared statement to the batch), so this prepares it as drizzle's own
 * builders do, when the batch is sent; with `returning`, its rows are mapped as those columns' (or,
 * for a SELECT of its own, as those SQL expressions': `selectColumns`).
 */
export function batchStatement(db: Db, query: SQL, returning?: Record<string, Column | SQL>): BatchItem<"sqlite"> {
  const { session, dialect } = db as unknown as Internals;
  const fields = returning && Object.entries(returning).map(([key, field]) => ({ path: [key], field }));
  return {
    _prepare: () => session.prepareQuery(dialect.sqlToQuery(query), fields, fields ? "all" : "run", !!fields),
  } as unknown as BatchItem<"sqlite">;
}

/** The `returning` of `batchStatement` for a SELECT whose columns are `names`: each value as SQLite gives it. */
export const selectColumns = (names: readonly string[]): Record<string, SQL> =>
  Object.fromEntries(names.map((name) => [name, sql`${sql.identifier(name)}`]));
