import { and, eq, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { EventMessage, EventSink } from "../../core/events/outbox";
import { outboxEvents, publish } from "../../core/events/outbox";
import { logTaskFailure } from "../../core/logging";
import { nowIso } from "../../core/time";
import { channelDirectory } from "../../db/channel-directory";
import { salesChannelEventDeliveries } from "../../db/channel-directory-schema";
import type { Db } from "../../db/client";
import { directoryApps } from "../../db/directory-schema";
import { groupByShard } from "../../db/shards";

/**
 * A connection's events reach its two stores' outboxes, which live on the stores' shards, while the
 * connection row lives in the directory (docs/shards.md, "Sales channels across shards"). The
 * directory's batch writes the change and one delivery row per store and event (same id as the
 * event); once it commits, each event is copied into its store's shard outbox, where the outbox
 * sends it as any other. A copy is keyed by the event's id, so a repeat inserts nothing and sends
 * nothing twice; the delivery row is marked once its shard has the event, and the scheduled run
 * copies what is still unmarked after a minute (the isolate died between the two databases).
 */

const d = salesChannelEventDeliveries;

/**
 * The delivery rows of `events`, for the directory's batch: literal events where `guard` (over the
 * rows before the change) holds, as `emit` writes an outbox; or a SELECT of `(id, app_id, type,
 * payload)` run after the change (the connection's id is the batch's). Each answers its payloads.
 */
export function deliveryRows(db: Db, events: EventMessage[] | SQL, guard: SQL = sql`1`) {
  const at = nowIso();
  // Columns in table order: id, app_id, connection_id, type, payload, created_at, delivered_at.
  const rows = Array.isArray(events)
    ? sql`SELECT value ->> '$.id', value ->> '$.app_id', value ->> '$.data.id', value ->> '$.type', json(value), ${at}, NULL
        FROM json_each(${JSON.stringify(events)}) WHERE ${guard}`
    : sql`SELECT id, app_id, payload ->> '$.data.id', type, payload, ${at}, NULL FROM (${events}) WHERE ${guard}`;
  return db.insert(d).select(rows).returning({ payload: d.payload });
}

/**
 * Copies `events` into their stores' shard outboxes, sends the ones a shard did not have yet, and marks
 * them delivered in the directory. Each shard on its own: one that fails stays for the scheduled run.
 */
export async function deliverConnectionEvents(env: Env, queue: Queue, events: readonly EventMessage[]): Promise<void> {
  if (!events.length) return;
  const groups = await groupByShard(env, events, (e) => e.app_id);
  const delivered = await Promise.all(
    groups.map(async ({ db, items }) => {
      try {
        // A repeat (the scheduled run after a lost mark) finds the row and inserts nothing.
        const inserted = await db
          .insert(outboxEvents)
          .select(
            sql`SELECT value ->> '$.id', value ->> '$.app_id', value ->> '$.type', value -> '$', ${nowIso()}, NULL
              FROM json_each(${JSON.stringify(items)}) WHERE 1`,
          )
          .onConflictDoNothing()
          .returning({ payload: outboxEvents.payload });
        // A failed send leaves the rows un-enqueued: the shard's own outbox re-send takes them.
        if (inserted.length)
          await publish(
            db,
            queue,
            inserted.map((r) => r.payload),
          ).catch((error) => logTaskFailure("publish events", error, { app_id: items[0]!.app_id }));
        return items.map((e) => e.id);
      } catch (error) {
        logTaskFailure("deliver connection events", error, { app_id: items[0]!.app_id });
        return [];
      }
    }),
  );
  const ids = delivered.flat();
  if (ids.length)
    await channelDirectory(env)
      .update(d)
      .set({ deliveredAt: nowIso() })
      .where(and(inArray(d.id, ids), isNull(d.deliveredAt)));
}

/** After the directory's batch committed: the delivery runs after the response, as the outbox's send does. */
export function deferDelivery(env: Env, sink: EventSink, events: readonly EventMessage[]): void {
  if (!events.length) return;
  sink.defer(
    deliverConnectionEvents(env, sink.queue, events).catch((error) =>
      logTaskFailure("deliver connection events", error, { app_id: events[0]!.app_id }),
    ),
  );
}

const DELIVERY_BATCH_MAX = 500;

/**
 * The scheduled run's part, once per shard: the connection events for that shard's stores that the
 * directory has not seen delivered after `olderThanMs`, copied again (a repeat is harmless).
 */
export async function redeliverConnectionEvents(
  env: Env,
  queue: Queue,
  shard: string,
  olderThanMs = 60_000,
): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs).toISOString();
  const rows = await channelDirectory(env)
    .select({ payload: d.payload })
    .from(d)
    .innerJoin(directoryApps, eq(directoryApps.id, d.appId))
    .where(and(isNull(d.deliveredAt), lt(d.createdAt, cutoff), eq(directoryApps.shard, shard)))
    .orderBy(d.createdAt)
    .limit(DELIVERY_BATCH_MAX);
  await deliverConnectionEvents(
    env,
    queue,
    rows.map((r) => JSON.parse(r.payload) as EventMessage),
  );
  return rows.length;
}
