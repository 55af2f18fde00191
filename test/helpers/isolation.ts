import { shardFor } from "./factories";

/**
 * Ids are unique per shard only (docs/shards.md): store 2's webhook 1 and store 1's webhook 1 may
 * both exist. An isolation test that sends another store's row id and expects 404 must send an id
 * the caller does not hold itself, or it reaches the caller's own row and proves nothing.
 */

/** Whether the caller's store holds a row of `table` with this id (on its own shard). */
export async function callerHolds(table: string, caller: number, id: number): Promise<boolean> {
  const row = await shardFor(caller)
    .prepare(`SELECT 1 AS held FROM "${table}" WHERE id = ? AND app_id = ?`)
    .bind(id, caller)
    .first();
  return row !== null;
}

/**
 * A row another store owns (made by `create`) whose id the caller's store does not hold: rows are
 * made until one's id is free of the caller's (each shard counts its own ids, so a few suffice).
 * Make the caller's rows of the test first: a row the caller makes later may take the same id.
 */
export async function rowCallerLacks<T extends { id: number }>(
  table: string,
  caller: number,
  create: () => Promise<T>,
): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const row = await create();
    if (!(await callerHolds(table, caller, row.id))) return row;
  }
  throw new Error(`Every ${table} row made for the other store has an id store ${caller} holds`);
}
