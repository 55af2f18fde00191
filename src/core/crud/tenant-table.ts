import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteInsertValue, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { BatchPlan } from "../batch-plan";
import type { ServiceContext } from "../context";
import { ApiError, type ErrorCode, type NotFoundCode } from "../errors";
import { emit, insertedRowEvent, newEvent } from "../events/outbox";
import type { EventData, EventType } from "../events/registry";
import { inList, offIndex } from "../sql";

/** The event types whose payload is just `{ id }`: what the generic create, change and remove emit. */
type IdEvent = { [K in EventType]: { id: number } extends EventData<K> ? K : never }[EventType];

/** A tenant-owned table: the audit columns of `db/columns.ts` and an integer `id`. */
export type TenantTable = SQLiteTable & {
  id: SQLiteColumn;
  appId: SQLiteColumn;
  isDeleted: SQLiteColumn;
  deletedAt: SQLiteColumn;
  modifiedAt: SQLiteColumn;
};

/**
 * The tenant filter, written once: the store's rows that are not soft-deleted. Every read of a
 * tenant-owned table goes through it (or `liveOffIndex`, `notDeleted`, and `liveRow` or
 * `notDeletedRow` in raw SQL); `npm run lint` (scripts/lint-rules.ts) refuses one written elsewhere.
 */
export function live(table: TenantTable, appId: number): SQL {
  return and(eq(table.appId, appId), eq(table.isDeleted, false)) as SQL;
}

/** The same filter kept off its index (`+column`), for queries a search index drives. */
export function liveOffIndex(table: TenantTable, appId: number): SQL {
  return and(eq(offIndex(table.appId), appId), eq(offIndex(table.isDeleted), 0)) as SQL;
}

/**
 * The scope of a list of the store's rows: `live()`, or every row of the store, soft-deleted ones
 * too, when the client asked `include_deleted=true` (a mirror drops the rows it sees deleted).
 */
export function listed(table: TenantTable, appId: number, q: { includeDeleted?: boolean }): SQL {
  return q.includeDeleted ? eq(table.appId, appId) : live(table, appId);
}

/**
 * The soft-delete half of `live()`, for rows whose store is already fixed some other way: joined on
 * a parent row of the store, or read across the stores of a sales channel (`inList(t.appId, ...)`).
 */
export function notDeleted(table: TenantTable): SQL {
  return eq(table.isDeleted, false);
}

/**
 * Rows as raw SQL names them: a drizzle table (`"items"."app_id"`), an alias (`"s"` → `s.app_id`),
 * or nothing for the one table of a statement (`app_id`).
 */
export type RawRows = TenantTable | string | undefined;

const rawColumn = (rows: RawRows, column: "app_id" | "is_deleted"): SQL => {
  if (rows === undefined) return sql.raw(column);
  if (typeof rows !== "string") return sql`${column === "app_id" ? rows.appId : rows.isDeleted}`;
  if (!/^[a-z_]+$/.test(rows)) throw new Error(`not an SQL alias: ${rows}`);
  return sql.raw(`${rows}.${column}`);
};

/**
 * `live()` for raw SQL (a subquery, a JSON read, a guard over another module's table):
 * `app_id = ? AND is_deleted = 0`. The 0 stays a literal, as the statements always wrote it, so a
 * partial index `WHERE is_deleted = 0` keeps matching and the query plans do not change.
 * `appId` may be an `intLiteral` where a statement inlines it.
 */
export function liveRow(appId: number | SQL, rows?: RawRows): SQL {
  return sql`${rawColumn(rows, "app_id")} = ${appId} AND ${rawColumn(rows, "is_deleted")} = 0`;
}

/** `liveOffIndex()` for raw SQL: `+app_id = ? AND +is_deleted = 0`, for queries another index drives. */
export function liveRowOffIndex(appId: number | SQL, rows?: RawRows): SQL {
  return sql`+${rawColumn(rows, "app_id")} = ${appId} AND +${rawColumn(rows, "is_deleted")} = 0`;
}

/** `notDeleted()` for raw SQL: `is_deleted = 0`, for rows whose store a join or a parent already fixes. */
export function notDeletedRow(rows?: RawRows): SQL {
  return sql`${rawColumn(rows, "is_deleted")} = 0`;
}

/** The columns a soft delete sets. */
export function softDeleted(at = new Date().toISOString()) {
  return { isDeleted: true, deletedAt: at, modifiedAt: at } as const;
}

/**
 * The rows of one tenant-owned table as a service sees them: find-or-404 with the table's
 * `<resource>_not_found` code, the statements of a create, an update and a soft delete (to put
 * in the batch of `emit`), and the "still in use" 409.
 */
export function tenantTable<T extends TenantTable>(
  table: T,
  opts: {
    label: string;
    notFound: NotFoundCode;
    /** The `{ id }` events of `create`, `change` and `remove`, when the resource emits its own. */
    events?: { created: IdEvent; updated: IdEvent; deleted: IdEvent };
  },
) {
  type Row = T["$inferSelect"];
  const eventsOf = () => {
    if (!opts.events) throw new Error(`${opts.label}: create/change/remove need the resource's events`);
    return opts.events;
  };
  const byId = (ctx: ServiceContext, id: number) => and(live(table, ctx.appId), eq(table.id, id));

  return {
    table,
    /** What the 404 detail calls one record: "Item category 12". */
    label: opts.label,
    live: (ctx: ServiceContext) => live(table, ctx.appId),
    /** A list's scope: `live`, or the deleted rows too on `include_deleted=true`. */
    listed: (ctx: ServiceContext, q: { includeDeleted?: boolean }) => listed(table, ctx.appId, q),

    /** The live row `id` of the store, or undefined. */
    async get(ctx: ServiceContext, id: number): Promise<Row | undefined> {
      const rows = await ctx.db
        .select()
        .from(table as SQLiteTable)
        .where(byId(ctx, id))
        .limit(1);
      return rows[0] as Row | undefined;
    },

    /** The live row `id` of the store, or the 404 with this table's code. */
    async find(ctx: ServiceContext, id: number): Promise<Row> {
      const row = await this.get(ctx, id);
      if (!row) throw ApiError.notFound(opts.notFound, `${opts.label} ${id}`);
      return row;
    },

    /**
     * Before a delete: the live row `id` (or the 404) and the live items that use it, read in one
     * round trip, refused with the "still in use" 409 naming them while there are any.
     */
    async findUnused(
      ctx: ServiceContext,
      id: number,
      users: BatchItem<"sqlite"> & PromiseLike<{ id: number }[]>,
      inUse: { code: ErrorCode; detail: (ids: number[]) => string },
    ): Promise<void> {
      const [found, using] = (await ctx.db.batch([
        ctx.db
          .select({ id: table.id })
          .from(table as SQLiteTable)
          .where(byId(ctx, id)),
        users,
      ])) as [unknown[], { id: number }[]];
      if (!found.length) throw ApiError.notFound(opts.notFound, `${opts.label} ${id}`);
      const ids = using.map((u) => u.id);
      refuseWhileUsed(inUse.code, { items: ids }, inUse.detail(ids));
    },

    /** The ids among `ids` that are live rows of the store. */
    async existing(ctx: ServiceContext, ids: readonly number[]): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const rows = await ctx.db
        .select({ id: table.id })
        .from(table as SQLiteTable)
        .where(and(live(table, ctx.appId), inList(table.id, ids)));
      return new Set(rows.map((r) => r.id as number));
    },

    /** INSERT … RETURNING of one row of the store. */
    insert(ctx: ServiceContext, values: SQLiteInsertValue<T>) {
      return ctx.db.insert(table).values(values).returning();
    },

    /** UPDATE of the live row `id` of the store; `modified_at` is set by the caller's values or now. */
    update(ctx: ServiceContext, id: number, set: SQLiteUpdateSetSource<T>) {
      const stamped = { modifiedAt: new Date().toISOString(), ...set } as SQLiteUpdateSetSource<T>;
      return ctx.db.update(table).set(stamped).where(byId(ctx, id));
    },

    /** Soft delete of the live row `id` of the store. */
    softDelete(ctx: ServiceContext, id: number) {
      return ctx.db
        .update(table)
        .set(softDeleted() as SQLiteUpdateSetSource<T>)
        .where(byId(ctx, id));
    },

    /** Creates a row and its `created` event in one batch; returns the row. */
    async create(ctx: ServiceContext, values: SQLiteInsertValue<T>): Promise<Row> {
      const plan = new BatchPlan(ctx.db);
      const created = plan.insert("created", this.insert(ctx, values));
      plan.event(insertedRowEvent(eventsOf().created, table, created));
      return (await plan.run(ctx.events)).row<Row>(created);
    },

    /** Changes the live row `id` (404 if none) with its `updated` event in one batch; returns it as it is now. */
    async change(ctx: ServiceContext, id: number, set: SQLiteUpdateSetSource<T>): Promise<Row> {
      await this.find(ctx, id);
      // The row as it is now comes back from the update itself: two round trips, not three.
      const { results } = await emit(
        ctx.db,
        ctx.events,
        [this.update(ctx, id, set).returning()],
        [newEvent(ctx.appId, eventsOf().updated, { id })],
      );
      const row = (results[0] as Row[])[0];
      if (!row) throw ApiError.notFound(opts.notFound, `${opts.label} ${id}`);
      return row;
    },

    /** Soft-deletes the live row `id` (404 if none) with its `deleted` event in one batch. */
    async remove(ctx: ServiceContext, id: number): Promise<void> {
      await this.find(ctx, id);
      await emit(ctx.db, ctx.events, [this.softDelete(ctx, id)], [newEvent(ctx.appId, eventsOf().deleted, { id })]);
    },
  };
}

/**
 * The "still in use" 409: refuses a delete while live records point at the one being deleted,
 * naming them (`users` under their kind, e.g. `{ items: [3, 4] }`).
 */
export function refuseWhileUsed(code: ErrorCode, users: Record<string, readonly number[]>, detail: string): void {
  const named = Object.fromEntries(Object.entries(users).filter(([, ids]) => ids.length));
  if (Object.keys(named).length) throw ApiError.conflict(code, detail, named);
}
