import { and, eq, type SQL, type Table } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan } from "../../core/batch-plan";
import type { ServiceContext } from "../../core/context";
import type { TenantTable } from "../../core/crud/tenant-table";
import { ApiError } from "../../core/errors";
import { type EventMessage, emit, insertedRowEvent, newEvent } from "../../core/events/outbox";
import type { mealEvents } from "./events";

/**
 * What the services of every meals resource share. The writes check that what they name is the
 * tenant's, land in one D1 batch with their events, and return the record as the reads show it.
 * A record in the path that is missing is a 404; one named in the body is a 400 on that field.
 *
 * A write waits for D1 twice at most: one batch reads the record and everything its checks need
 * (`findChecked`, `runChecks`), then one batch writes, emits and reads the answer back
 * (`writeAndRead`, `createAndRead`, or an UPDATE … RETURNING through `write`).
 */

export type Stmt = BatchItem<"sqlite">;
type MealEvent = keyof typeof mealEvents;

/**
 * Writes the statements and the outbox rows of their events in one batch (see `emit`); returns the
 * statements' results. `events` are the events, or a SELECT of the one a created row makes.
 */
export async function write(ctx: ServiceContext, events: EventMessage[] | SQL, statements: Stmt[]): Promise<unknown[]> {
  return (await emit(ctx.db, ctx.events, statements, events)).results;
}

/**
 * Inserts a record (`insert`: an INSERT … RETURNING of one row into `table`) with its `{ id }` event
 * `type` in one batch, and `then(id)`, the statements that reference its id (its areas, its
 * nutrition); returns the inserted row.
 */
export async function writeCreated<Row>(
  ctx: ServiceContext,
  type: MealEvent,
  table: Table,
  insert: Stmt,
  then: (id: SQL) => Stmt[] = () => [],
): Promise<Row> {
  const plan = new BatchPlan(ctx.db);
  const created = plan.insert("created", insert);
  plan.add(...then(created.id)).event(insertedRowEvent(type, table, created));
  return (await plan.run(ctx.events)).row<Row>(created);
}

/** The `{ id }` event of a record that changed. */
export const changed = (ctx: ServiceContext, type: MealEvent, id: number) => [newEvent(ctx.appId, type, { id })];

/** The row an INSERT … RETURNING of the batch gave back. */
export const insertedRow = <Row>(result: unknown): Row => (result as Row[])[0]!;

export const bodyError = (field: string, message: string) => ApiError.validation({ [field]: [message] });

/** Who sees what: the public only active records; the merchant's writes answer with inactive ones too. */
export type Audience = { activeOnly: boolean };
export const merchantView: Audience = { activeOnly: false };

/**
 * A check a write makes before it: a SELECT for the one batch of reads, and what its rows refuse
 * (it throws the 400 or 409), given the record the write is about when there is one.
 */
export type Check<Record = undefined> = { read: Stmt; refuse: (rows: never[], record: Record) => void };

/** The rows of a store's table that a write finds by id (a `tenantTable`). */
type Records<Row> = {
  table: TenantTable;
  live(ctx: ServiceContext): SQL;
  find(ctx: ServiceContext, id: number): Promise<Row>;
};

/** Runs `reads` in one round trip (one batch); none, no round trip. */
async function readAll(ctx: ServiceContext, reads: Stmt[]): Promise<unknown[]> {
  return reads.length ? ((await ctx.db.batch(reads as [Stmt, ...Stmt[]])) as unknown[]) : [];
}

/** The checks' reads in one round trip, then each refuses in order. */
export async function runChecks(ctx: ServiceContext, checks: (Check | undefined)[]): Promise<void> {
  const given = checks.filter((c): c is Check => c !== undefined);
  const results = await readAll(
    ctx,
    given.map((c) => c.read),
  );
  for (const [i, c] of given.entries()) c.refuse(results[i] as never[], undefined);
}

/**
 * The live record `id` of `records` and the checks' reads, in one round trip: its 404 first (read
 * again by `find`, which answers it), then the checks in order, each given the record.
 */
export async function findChecked<Row>(
  ctx: ServiceContext,
  records: Records<Row>,
  id: number,
  checks: (Check<Row> | undefined)[] = [],
): Promise<Row> {
  const given = checks.filter((c): c is Check<Row> => c !== undefined);
  const row = ctx.db
    .select()
    .from(records.table as TenantTable)
    .where(and(records.live(ctx), eq(records.table.id, id)));
  const [found, ...results] = await readAll(ctx, [row, ...given.map((c) => c.read)]);
  const record = ((found as Row[])[0] ?? (await records.find(ctx, id))) as Row;
  for (const [i, c] of given.entries()) c.refuse(results[i] as never[], record);
  return record;
}

/** A view as reads of a batch (`reads`, in order), and the view their results make (`view`; it 404s without its row). */
export type ViewRead<View> = { reads: Stmt[]; view: (results: unknown[]) => View };

/** Reads a view in one round trip. */
export async function readView<View>(ctx: ServiceContext, read: ViewRead<View>): Promise<View> {
  return read.view(await readAll(ctx, read.reads));
}

/** `write`, with the view read at the end of the same batch: the answer costs no round trip after the write. */
export async function writeAndRead<View>(
  ctx: ServiceContext,
  events: EventMessage[],
  statements: Stmt[],
  read: ViewRead<View>,
): Promise<View> {
  const results = await write(ctx, events, [...statements, ...read.reads]);
  return read.view(results.slice(statements.length));
}

/** The record an UPDATE … RETURNING of `write` gave back; the 404 of `find` if it was deleted meanwhile. */
export async function updatedRow<Row>(
  ctx: ServiceContext,
  records: Records<Row>,
  id: number,
  result: unknown,
): Promise<Row> {
  return (result as Row[])[0] ?? records.find(ctx, id);
}

/**
 * Inserts a record (`insert`, one row) with its events (`events(id)`, derived SQL such as
 * `insertedRowEvent`) and `then(id)`, the statements that reference it, and reads its view
 * (`read(id)`) in the same batch.
 */
export async function createAndRead<View>(
  ctx: ServiceContext,
  insert: Stmt,
  events: (id: SQL) => SQL,
  read: (id: SQL) => ViewRead<View>,
  then: (id: SQL) => Stmt[] = () => [],
): Promise<View> {
  const plan = new BatchPlan(ctx.db);
  const created = plan.insert("created", insert);
  plan.add(...then(created.id)).event(events(created.id));
  const { reads, view } = read(created.id);
  const placed = reads.map((r) => plan.read(r));
  const result = await plan.run(ctx.events);
  return view(placed.map((r) => result.rows(r)));
}
