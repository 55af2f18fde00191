import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../core/context";
import { ApiError } from "../../core/errors";
import { type EventMessage, emit, newEvent } from "../../core/events/outbox";
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

/** The `{ id }` event of a record that changed. */
export const changed = (ctx: ServiceContext, type: MealEvent, id: number) => [newEvent(ctx.appId, type, { id })];

/** The row an INSERT … RETURNING of the batch gave back. */
export const insertedRow = <Row>(result: unknown): Row => (result as Row[])[0]!;

export const bodyError = (field: string, message: string) => ApiError.validation({ [field]: [message] });

/** Who sees what: the public only active records; the merchant's writes answer with inactive ones too. */
export type Audience = { activeOnly: boolean };
export const merchantView: Audience = { activeOnly: false };
