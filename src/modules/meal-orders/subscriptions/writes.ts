import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { type EventMessage, emit } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { mealSubscriptions, suborders } from "../tables";

/**
 * The writes of a change to a subscription and its suborders: every statement is guarded on the
 * rows as they were read, and a guard that fails aborts the whole batch (nothing half-written, no
 * event without its change), which the caller sees as a 409 `concurrent_update`.
 */

// Qualified: inside a subquery over json_each, a bare `id` or `date` would be json_each's own column.
export const SUB_ID = sql.raw(`"suborders"."id"`);
export const SUB_DATE = sql.raw(`"suborders"."date"`);

export const newToken = () => crypto.randomUUID();

/** The subscription is still as read (its status and last change). */
export function subscriptionUnchanged(ctx: ServiceContext, row: { id: number; status: string; modifiedAt: string }) {
  return abortUnless(
    ctx.db,
    sql`EXISTS (SELECT 1 FROM ${mealSubscriptions} WHERE ${mealSubscriptions.id} = ${row.id}
      AND ${mealSubscriptions.appId} = ${ctx.appId} AND ${mealSubscriptions.status} = ${row.status}
      AND ${mealSubscriptions.modifiedAt} = ${row.modifiedAt})`,
    `meal_subscription:${row.id}`,
  );
}

/** All `count` suborders the change meant to touch carry its token: none changed meanwhile. */
export function allTouched(ctx: ServiceContext, token: string, count: number): BatchItem<"sqlite"> {
  return abortUnless(
    ctx.db,
    sql`(SELECT count(*) FROM ${suborders} WHERE ${suborders.appId} = ${ctx.appId}
      AND ${suborders.changeToken} = ${token}) = ${count}`,
    `suborders:${token}`,
  );
}

export const OPEN = sql`${suborders.status} IN ('new', 'confirmed')`;

/**
 * Suborders moved to new dates, each only while still open and on the date it was read on:
 * `[id, from, to]` bound as one JSON parameter (one statement whatever their number).
 */
export function moveSuborders(
  ctx: ServiceContext,
  moves: readonly { id: number; from: string; to: string }[],
  token: string,
  at: string,
  extra: { isPostponed?: boolean; unfreeze?: boolean } = {},
): BatchItem<"sqlite"> {
  const map = JSON.stringify(moves.map((m) => [m.id, m.from, m.to]));
  return ctx.db
    .update(suborders)
    .set({
      date: sql`(SELECT value ->> 2 FROM json_each(${map}) WHERE value ->> 0 = ${SUB_ID})`,
      ...(extra.isPostponed && { isPostponed: true }),
      ...(extra.unfreeze && { isFrozen: false }),
      changeToken: token,
      modifiedAt: at,
    })
    .where(
      sql`${suborders.appId} = ${ctx.appId} AND ${OPEN}
        AND EXISTS (SELECT 1 FROM json_each(${map}) WHERE value ->> 0 = ${SUB_ID} AND value ->> 1 = ${SUB_DATE})`,
    );
}

/** Open suborders of `ids` (on the dates read) changed by `set`. */
export function updateOpenSuborders(
  ctx: ServiceContext,
  rows: readonly { id: number; date: string }[],
  set: Partial<typeof suborders.$inferInsert>,
  token: string,
  at: string,
  extraWhere: SQL = sql`1`,
) {
  const map = JSON.stringify(rows.map((r) => [r.id, r.date]));
  return ctx.db
    .update(suborders)
    .set({ ...set, changeToken: token, modifiedAt: at })
    .where(
      sql`${suborders.appId} = ${ctx.appId} AND ${OPEN} AND ${extraWhere}
        AND EXISTS (SELECT 1 FROM json_each(${map}) WHERE value ->> 0 = ${SUB_ID} AND value ->> 1 = ${SUB_DATE})`,
    );
}

/** A suborder moved onto a date another took meanwhile (the unique index of a subscription's dates). */
function dateTaken(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    if (e.message.includes("UNIQUE constraint failed: suborders")) return true;
  return false;
}

/** Runs the guarded batch with its events; a failed guard (or a date taken meanwhile) is a 409. */
export async function writeGuarded(
  ctx: ServiceContext,
  statements: BatchItem<"sqlite">[],
  events: EventMessage[] | SQL,
  label: string,
) {
  try {
    return await emit(ctx.db, ctx.events, statements, events);
  } catch (error) {
    if (isGuardAbort(error) || dateTaken(error))
      throw ApiError.conflict(
        "concurrent_update",
        `${label} changed while this request ran; nothing was changed, retry.`,
      );
    throw error;
  }
}
