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

/**
 * An id of `table` that no row holds on any of these stores' shards (above each shard's highest):
 * rows written under it on two shards share their id, as two stores' rows may (docs/shards.md).
 */
export async function idFreeOnShardsOf(table: string, appIds: number[]): Promise<number> {
  const highest = await Promise.all(
    appIds.map(
      async (appId) =>
        (await shardFor(appId).prepare(`SELECT coalesce(max(id), 0) AS id FROM "${table}"`).first<{ id: number }>())!
          .id,
    ),
  );
  return Math.max(...highest) + 1;
}

/**
 * Makes the next row of `table` that each store writes through the API take the same id on its
 * shard, and returns it: each shard's highest id is raised to just below it by a deleted copy of one
 * of the store's own rows (`templates`: store → row id). SQLite gives a new row the highest id plus
 * one, so the next insert on each shard takes it (the files of a runtime run one at a time).
 */
export async function alignNextIds(table: string, templates: Map<number, number>): Promise<number> {
  const id = await idFreeOnShardsOf(table, [...templates.keys()]);
  for (const [appId, templateId] of templates) {
    const d1 = shardFor(appId);
    const { results } = await d1.prepare(`PRAGMA table_info("${table}")`).all<{ name: string }>();
    const columns = results.map((c) => `"${c.name}"`).filter((c) => c !== '"id"');
    const highest = (await d1.prepare(`SELECT max(id) AS id FROM "${table}"`).first<{ id: number }>())!.id;
    if (highest === id - 1) continue;
    await d1.batch([
      d1
        .prepare(
          `INSERT INTO "${table}" (id, ${columns.join(", ")}) SELECT ?, ${columns.join(", ")} FROM "${table}" ` +
            "WHERE id = ? AND app_id = ?",
        )
        .bind(id - 1, templateId, appId),
      d1.prepare(`UPDATE "${table}" SET is_deleted = 1 WHERE id = ?`).bind(id - 1),
    ]);
  }
  return id;
}
