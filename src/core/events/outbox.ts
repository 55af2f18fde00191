import { and, isNull, lt, type SQL, sql, type Table } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { logTaskFailure } from "../logging";
import { inList } from "../sql";
import { nowIso } from "../time";
import type { EventData, EventType } from "./registry";

/** The outbox: every event is written in the same D1 batch as the change it reports. */
export const outboxEvents = sqliteTable(
  "outbox_events",
  {
    id: text("id").primaryKey(),
    appId: integer("app_id").notNull(),
    type: text("type").notNull(),
    payload: text("payload", { mode: "json" }).$type<EventMessage>().notNull(),
    createdAt: text("created_at").notNull(),
    enqueuedAt: text("enqueued_at"),
  },
  (t) => [
    index("outbox_events_pending_idx").on(t.enqueuedAt, t.createdAt),
    index("outbox_events_app_idx").on(t.appId, t.createdAt),
  ],
);

/** The message put on the queue, and the body of a webhook delivery. */
export type EventMessage = {
  id: string;
  type: EventType;
  /** The same name as `type`, for receivers written against the peer system's envelope. */
  event: EventType;
  app_id: number;
  /** Unix seconds. */
  timestamp: number;
  data: unknown;
};

export type EventSink = {
  queue: Queue;
  /** Runs work after the response (ctx.waitUntil); the outbox row makes it safe to lose. */
  defer: (p: Promise<unknown>) => void;
  /**
   * The queues of the outbox's messages that are not webhook events (`outboxRoutes`), by their
   * type. A message whose queue is absent here stays un-enqueued for the scheduled re-send.
   */
  routes?: OutboxRoutes;
};

/**
 * Outbox messages that are not webhook events, each with the queue it wakes: written in the batch
 * of the change like an event (so a crash after the commit loses none), sent after the commit,
 * never offered to webhooks. `einvoice.sign` wakes the e-invoice signer, `einvoice.onboard` the
 * onboarding (or renewal) of an e-invoicing unit, on the same queue (docs/zatca.md).
 */
export const OUTBOX_ROUTE_TYPES = ["einvoice.sign", "einvoice.onboard"] as const;
export type OutboxRouteType = (typeof OUTBOX_ROUTE_TYPES)[number];
export type OutboxRoutes = Partial<Record<OutboxRouteType, Queue>>;

/** The routed messages' queues of a Worker that has them (the API's; the webhooks' Worker sends none). */
export const outboxRoutes = (env: Partial<Pick<Env, "EINVOICES">>): OutboxRoutes =>
  env.EINVOICES ? { "einvoice.sign": env.EINVOICES, "einvoice.onboard": env.EINVOICES } : {};

const isRouted = (type: string) => (OUTBOX_ROUTE_TYPES as readonly string[]).includes(type);

export const newEventId = () => `evt_${crypto.randomUUID().replaceAll("-", "")}`;

export function newEvent<T extends EventType>(appId: number, type: T, data: EventData<T>): EventMessage {
  return { id: newEventId(), type, event: type, app_id: appId, timestamp: Math.floor(Date.now() / 1000), data };
}

/**
 * Writes `changes` and the outbox rows of their events in one D1 batch (one transaction), then
 * sends the events to the queue after the response.
 *
 * `events` is either the events themselves or, where they carry ids that the change assigns, a
 * SELECT of `(id, app_id, type, payload)` that runs after the change inside the same batch.
 *
 * With `guard` (a condition over the rows before the change), the outbox rows are written only
 * where the guard holds, and `applied` tells whether it did: the caller puts the same guard on its
 * UPDATE, so that the change and its events land together or not at all, even under a race.
 *
 * `after` runs last in the same batch, after the outbox rows (a plan reads and clears its handles
 * there); its results follow the changes'.
 */
export async function emit(
  db: Db,
  sink: EventSink,
  changes: readonly BatchItem<"sqlite">[],
  events: EventMessage[] | SQL,
  opts: { guard?: SQL; after?: readonly BatchItem<"sqlite">[] } = {},
): Promise<{ results: unknown[]; applied: boolean }> {
  const createdAt = nowIso();
  const derived = !Array.isArray(events);
  // Columns in table order: id, app_id, type, payload, created_at, enqueued_at.
  const outbox = derived
    ? db
        .insert(outboxEvents)
        .select(sql`SELECT id, app_id, type, payload, ${createdAt}, NULL FROM (${events})`)
        .returning({ payload: outboxEvents.payload })
    : db.insert(outboxEvents).select(
        sql`SELECT value ->> '$.id', value ->> '$.app_id', value ->> '$.type', value -> '$', ${createdAt}, NULL
            FROM json_each(${JSON.stringify(events)}) WHERE ${opts.guard ?? sql`1`}`,
      );
  // A guarded outbox insert goes first so that its guard sees the rows as they were before the change.
  const after = opts.after ?? [];
  const all = derived ? [...changes, outbox, ...after] : [outbox, ...changes, ...after];
  const results = (await db.batch(all as unknown as [BatchItem<"sqlite">])) as unknown[];
  const outboxAt = derived ? changes.length : 0;
  let published: EventMessage[];
  let applied = true;
  if (derived) {
    published = (results[outboxAt] as { payload: EventMessage }[]).map((r) => r.payload);
  } else {
    applied = events.length === 0 || ((results[0] as D1Result).meta?.changes ?? 0) > 0;
    published = applied ? events : [];
  }
  // A failed send leaves the rows un-enqueued for the scheduled re-send; this line is its only trace.
  if (published.length)
    sink.defer(
      publish(db, sink.queue, published, sink.routes).catch((error) =>
        logTaskFailure("publish events", error, { app_id: published[0]!.app_id }),
      ),
    );
  return { results: results.filter((_, i) => i !== outboxAt), applied };
}

/** The event envelope built in SQL, for events (and routed messages) derived inside a batch (see `emit`). */
export function eventPayloadSql(type: EventType | OutboxRouteType, id: SQL, appId: SQL, data: SQL): SQL {
  return sql`json_object('id', ${id}, 'type', ${type}, 'event', ${type}, 'app_id', ${appId},
    'timestamp', CAST(unixepoch() AS INTEGER), 'data', ${data})`;
}

const SEND_BATCH_MAX = 100;

type BeforeSend = (db: Db, events: EventMessage[]) => Promise<void>;
let beforeSend: BeforeSend | undefined;

/**
 * Work that must be on record before events leave for the queue, set once by the Worker's entry:
 * the webhooks module writes a ledger row per delivery there, so that a message lost after the send
 * delays those deliveries (its reconciler finds them) instead of losing them. If it fails, the send
 * does not happen and the rows stay un-enqueued for `resendStale`.
 */
export function beforeEventsSent(hook: BeforeSend): void {
  beforeSend = hook;
}

/**
 * Sends events to the queue and marks their outbox rows enqueued; a routed message (`outboxRoutes`)
 * goes to its own queue instead, or stays un-enqueued when `routes` lacks it.
 */
export async function publish(
  db: Db,
  queue: Queue,
  messages: EventMessage[],
  routes: OutboxRoutes = {},
): Promise<void> {
  const routed = new Map<Queue, EventMessage[]>();
  for (const m of messages) {
    const to = isRouted(m.type) ? routes[m.type as string as OutboxRouteType] : undefined;
    if (to) routed.set(to, [...(routed.get(to) ?? []), m]);
  }
  for (const [to, list] of routed) await sendAndMark(db, to, list, false);
  await sendAndMark(
    db,
    queue,
    messages.filter((m) => !isRouted(m.type)),
    true,
  );
}

async function sendAndMark(db: Db, queue: Queue, events: EventMessage[], areEvents: boolean): Promise<void> {
  for (let i = 0; i < events.length; i += SEND_BATCH_MAX) {
    const chunk = events.slice(i, i + SEND_BATCH_MAX);
    if (areEvents) await beforeSend?.(db, chunk);
    await queue.sendBatch(chunk.map((body) => ({ body, contentType: "json" as const })));
    await db
      .update(outboxEvents)
      .set({ enqueuedAt: nowIso() })
      .where(
        inList(
          outboxEvents.id,
          chunk.map((e) => e.id),
        ),
      );
  }
}

/** Re-sends outbox rows that were written but never enqueued (the Worker died in between). */
export async function resendStale(
  db: Db,
  queue: Queue,
  olderThanMs = 60_000,
  routes: OutboxRoutes = {},
): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs).toISOString();
  const rows = await db
    .select({ payload: outboxEvents.payload })
    .from(outboxEvents)
    .where(and(isNull(outboxEvents.enqueuedAt), lt(outboxEvents.createdAt, cutoff)))
    .orderBy(outboxEvents.createdAt)
    .limit(500);
  if (rows.length)
    await publish(
      db,
      queue,
      rows.map((r) => r.payload),
      routes,
    );
  return rows.length;
}

/**
 * An event per row of `table` that `where` selects, with `data` an SQL JSON expression over that
 * row, as `emit()` takes derived events: for events whose data the batch itself assigns (ids,
 * balances, serials). Each row gets its own event id, drawn once in a materialized CTE (the id is
 * both the outbox row's key and in its payload), with `data` evaluated there over the table's row.
 */
export function rowEvent(type: EventType, table: Table, where: SQL, data: SQL): SQL {
  return sql`SELECT * FROM (WITH r AS MATERIALIZED (
      SELECT 'evt_' || lower(hex(randomblob(16))) AS eid, app_id, ${data} AS data FROM ${table} WHERE ${where})
    SELECT eid AS id, app_id, ${type} AS type, ${eventPayloadSql(type, sql`eid`, sql`app_id`, sql`json(data)`)} AS payload
    FROM r)`;
}

/**
 * The `{ id }` event of the row a plan's insert wrote into `table`: `inserted` is its handle
 * (`BatchPlan.insert`), whose `id` the batch reads by name.
 */
export function insertedRowEvent(type: EventType, table: Table, inserted: { readonly id: SQL }): SQL {
  return rowEvent(type, table, sql`id = ${inserted.id}`, sql`json_object('id', id)`);
}

/** D1 refuses a compound SELECT of more than 5 terms ("too many terms"); a sub-select counts its own. */
const COMPOUND_MAX = 5;

/**
 * Several derived events (each from `rowEvent`, or a literal one from `literalEvent`) as one SELECT:
 * in groups of at most 5 terms, each group a sub-select, so any number of events fits D1's limit.
 */
export function unionEvents(parts: SQL[]): SQL {
  if (parts.length <= COMPOUND_MAX) return sql.join(parts, sql` UNION ALL `);
  const groups: SQL[] = [];
  for (let i = 0; i < parts.length; i += COMPOUND_MAX)
    groups.push(sql`SELECT * FROM (${unionEvents(parts.slice(i, i + COMPOUND_MAX))})`);
  return unionEvents(groups);
}

/** An event whose data is known before the batch runs, in the derived form, to sit beside derived ones. */
export function literalEvent<T extends EventType>(appId: number, type: T, data: EventData<T>): SQL {
  const e = newEvent(appId, type, data);
  return sql`SELECT ${e.id} AS id, ${appId} AS app_id, ${type} AS type, json(${JSON.stringify(e)}) AS payload`;
}
