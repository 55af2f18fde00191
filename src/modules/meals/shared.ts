import type { SQL, Table } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan } from "../../core/batch-plan";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type EventMessage, emit, insertedRowEvent, newEvent } from "../../core/events/outbox";
import type { mealEvents } from "./events";

/**
 * What the services of every meals resource share. The writes check that what they name is the
 * tenant's, land in one D1 batch with their events, and return the record as the reads show it.
 * A record in the path that is missing is a 404; one named in the body is a 400 on that field.
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
