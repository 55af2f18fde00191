import { and, eq, ne, or, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type EventMessage, eventPayloadSql, newEvent } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { nowIso } from "../../../core/time";
import { channelDirectory } from "../../../db/channel-directory";
import { salesChannelConnections as channelConnections } from "../../../db/channel-directory-schema";
import { storeEntry } from "../../../db/shards";
import { deferDelivery, deliveryRows } from "../event-deliveries";
import { storesByShard } from "../store-shards";
import { type StoreFace, storeFacesAcross } from "../stores";
import { CONNECTION_STATUSES } from "../tables";
import { type ConnectionAction, connectionMachine } from "./machine";
import type { ConnectionRequest, DIRECTIONS, SendConnectionRequest } from "./schemas";

/**
 * Connection requests (MX6). A connection is one row that both of its stores see, in the directory
 * (docs/shards.md, "Sales channels across shards"): every read is scoped to the rows where the
 * calling store is the channel or the provider, and not deleted; a third store gets the 404 of a
 * request that does not exist. The stores' faces are read on each store's own shard, and the events
 * reach each store's outbox on its shard after the directory's batch (event-deliveries.ts).
 */

type Row = typeof channelConnections.$inferSelect;
type Direction = (typeof DIRECTIONS)[number];

/** Who acts: the store in `app-id` and, for `decided_by`, its merchant API token. */
export type Actor = { appId: number; tokenId: number | null };

/** The rows the store may see: those it is a side of, not deleted. */
const seenBy = (appId: number): SQL =>
  and(
    or(eq(channelConnections.channelAppId, appId), eq(channelConnections.providerAppId, appId)),
    notDeleted(channelConnections),
  )!;

export const CONNECTION_LIST: ListSpec = {
  fields: {
    id: { column: channelConnections.id, kind: "integer" },
    status: { column: channelConnections.status, kind: "string", values: CONNECTION_STATUSES },
    channel_app_id: { column: channelConnections.channelAppId, kind: "integer" },
    provider_app_id: { column: channelConnections.providerAppId, kind: "integer" },
    requested_at: { column: channelConnections.requestedAt, kind: "datetime" },
    decided_at: { column: channelConnections.decidedAt, kind: "datetime", nullable: true },
  },
  defaultOrder: "-requested_at",
  idColumn: channelConnections.id,
  sync: { modifiedAt: channelConnections.modifiedAt, softDeleted: false },
};

/** The views of `rows`, with the faces of their stores (read with them). */
function viewsOf(ctx: ServiceContext, rows: readonly Row[], faces: Map<number, StoreFace>): ConnectionRequest[] {
  return rows.map((r) => ({
    id: r.id,
    channel: faces.get(r.channelAppId)!,
    provider: faces.get(r.providerAppId)!,
    direction: r.appId === ctx.appId ? "outgoing" : "incoming",
    role: r.channelAppId === ctx.appId ? "channel" : "provider",
    status: r.status,
    commission_percentage: r.commissionBp === null ? null : r.commissionBp / 100,
    message: r.message,
    requested_at: r.requestedAt,
    decided_at: r.decidedAt,
    decided_by: r.decidedBy,
    deactivated_by_app_id: r.status === "inactive" ? r.deactivatedByAppId : null,
    app_id: r.appId,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
    deleted_at: r.deletedAt,
    is_deleted: r.isDeleted,
    ordering: r.ordering,
  }));
}

export async function listConnectionRequests(
  env: Env,
  ctx: ServiceContext,
  q: ListQuery,
  direction: Direction | undefined,
): Promise<Page<ConnectionRequest>> {
  // The sender is the row's `app_id`.
  const byDirection = {
    outgoing: eq(channelConnections.appId, ctx.appId),
    incoming: ne(channelConnections.appId, ctx.appId),
  };
  const scope = and(seenBy(ctx.appId), direction && byDirection[direction])!;
  const page = await listPage(channelDirectory(env), q, { table: channelConnections, scope: () => scope });
  // The faces of the page's stores, each on its own shard (the shards at once).
  const faces = await storeFacesAcross(await storesByShard(env, ctx, sidesOf(page.results)));
  return { ...page, results: viewsOf(ctx, page.results, faces) };
}

/** The stores of the rows: each one's channel and provider. */
const sidesOf = (rows: readonly Row[]) => [...new Set(rows.flatMap((r) => [r.channelAppId, r.providerAppId]))];

/** A connection request the store is a side of; else 404. */
async function findConnection(env: Env, ctx: ServiceContext, id: number): Promise<Row> {
  const row = await channelDirectory(env)
    .select()
    .from(channelConnections)
    .where(and(seenBy(ctx.appId), eq(channelConnections.id, id)))
    .get();
  if (!row) throw ApiError.notFound("connection_request_not_found", `Connection request ${id}`);
  return row;
}

/** A connection request the store is a side of, with its stores' faces. */
export async function getConnectionRequest(env: Env, ctx: ServiceContext, id: number): Promise<ConnectionRequest> {
  const row = await findConnection(env, ctx, id);
  return viewsOf(ctx, [row], await storeFacesAcross(await storesByShard(env, ctx, sidesOf([row]))))[0]!;
}

/**
 * The events of the connection rows `where` selects, one to each of its two stores, derived in the
 * batch (the id of a new row is known only there): both stores are concerned by every change.
 */
function bothSidesEvents(type: EventType, where: SQL): SQL {
  const c = channelConnections;
  return sql`SELECT * FROM (WITH r AS MATERIALIZED (
      SELECT 'evt_' || lower(hex(randomblob(16))) AS eid, side.value AS side_app_id,
        json_object('id', ${c.id}, 'status', ${c.status}, 'channel_app_id', ${c.channelAppId},
          'provider_app_id', ${c.providerAppId}, 'by_app_id', ${c.appId}) AS data
      FROM ${c}, json_each(json_array(${c.channelAppId}, ${c.providerAppId})) AS side WHERE ${where})
    SELECT eid AS id, side_app_id AS app_id, ${type} AS type,
      ${eventPayloadSql(type, sql`eid`, sql`side_app_id`, sql`json(data)`)} AS payload FROM r)`;
}

/** Sends a request to another store, which must exist; one live connection per channel and provider. */
export async function sendConnectionRequest(
  env: Env,
  ctx: ServiceContext,
  body: SendConnectionRequest,
): Promise<ConnectionRequest> {
  const asChannel = body.provider_app_id !== undefined;
  const other = (asChannel ? body.provider_app_id : body.channel_app_id)!;
  const field = asChannel ? "provider_app_id" : "channel_app_id";
  if (other === ctx.appId) throw ApiError.conflict("connection_to_self", "A store cannot connect to itself.");
  const channelAppId = asChannel ? ctx.appId : other;
  const providerAppId = asChannel ? other : ctx.appId;
  const directory = channelDirectory(env);
  const c = channelConnections;
  const livePair = and(
    eq(c.channelAppId, channelAppId),
    eq(c.providerAppId, providerAppId),
    notDeleted(c),
    ne(c.status, "rejected"),
  )!;
  // The other store and both stores' shards (held by the isolate), then every read at once.
  const [store, shards] = await Promise.all([
    storeEntry(env, other),
    storesByShard(env, ctx, [channelAppId, providerAppId]),
  ]);
  if (!store) throw ApiError.validation({ [field]: ["No store has this id."] });
  const [live, faces] = await Promise.all([
    directory.select({ id: c.id, status: c.status }).from(c).where(livePair).get(),
    storeFacesAcross(shards),
  ]);
  if (live) {
    throw ApiError.conflict(
      "connection_already_exists",
      `Store ${channelAppId} (channel) and store ${providerAppId} (provider) already have a connection, ${live.status}: ` +
        `connection request ${live.id}.`,
      { connection_request_id: live.id, current_status: live.status },
    );
  }
  const now = nowIso();
  // One directory batch: the row, then its events to both stores derived from it (its id is the batch's).
  const [inserted, events] = await directory.batch([
    directory
      .insert(c)
      .values({
        appId: ctx.appId,
        channelAppId,
        providerAppId,
        status: "pending",
        commissionBp: body.commission_percentage ?? null,
        message: body.message || null,
        requestedAt: now,
        createdAt: now,
        modifiedAt: now,
      })
      .returning(),
    deliveryRows(directory, bothSidesEvents("sales_channel.connection_requested", livePair)),
  ]);
  deferDelivery(
    env,
    ctx.events,
    events.map((e) => JSON.parse(e.payload) as EventMessage),
  );
  return viewsOf(ctx, inserted as Row[], faces)[0]!;
}

const EVENT_OF = {
  accept: "sales_channel.connection_accepted",
  reject: "sales_channel.connection_rejected",
  activate: "sales_channel.connection_activated",
  deactivate: "sales_channel.connection_deactivated",
  delete: "sales_channel.connection_deleted",
} as const satisfies Record<ConnectionAction, EventType>;

/** Accept and reject are the receiving store's: the sender gets a 403, whatever the status. */
function checkReceiver(row: Row, action: ConnectionAction, actor: Actor): void {
  if (row.appId !== actor.appId) return;
  const receiver = row.appId === row.channelAppId ? row.providerAppId : row.channelAppId;
  throw ApiError.forbidden(
    `Only store ${receiver}, which received the request, may ${action} it.`,
    "not_connection_receiver",
  );
}

/** One store's pause is not the other's to lift: only the store that deactivated may activate. */
function checkReactivator(row: Row, actor: Actor): void {
  if (row.deactivatedByAppId === null || row.deactivatedByAppId === actor.appId) return;
  throw ApiError.forbidden(
    `Store ${row.deactivatedByAppId} deactivated the connection: only it may activate it again.`,
    "connection_deactivated_by_other_store",
  );
}

/**
 * Takes `action` on the request (accept, reject, activate, deactivate, delete), with its events to
 * both stores in the same batch. The UPDATE is guarded by the status it was read in, so that a
 * race between two actions is refused (409 `concurrent_update`) rather than applied twice.
 */
export async function actOnConnection(
  env: Env,
  ctx: ServiceContext,
  id: number,
  action: ConnectionAction,
  actor: Actor,
): Promise<ConnectionRequest | undefined> {
  const row = await findConnection(env, ctx, id);
  if (action === "accept" || action === "reject") checkReceiver(row, action, actor);
  const to = connectionMachine.next(row.status, action);
  if (action === "activate") checkReactivator(row, actor);
  const shards = await storesByShard(env, ctx, sidesOf([row]));
  const now = nowIso();
  const set: Partial<typeof channelConnections.$inferInsert> = { status: to, modifiedAt: now };
  if (action === "accept" || action === "reject") Object.assign(set, { decidedAt: now, decidedBy: actor.tokenId });
  if (action === "deactivate") set.deactivatedByAppId = actor.appId;
  if (action === "activate") set.deactivatedByAppId = null;
  if (action === "delete") Object.assign(set, { isDeleted: true, deletedAt: now });
  const c = channelConnections;
  const guard = and(eq(c.id, id), eq(c.status, row.status), notDeleted(c))!;
  const data = {
    id,
    status: to,
    channel_app_id: row.channelAppId,
    provider_app_id: row.providerAppId,
    by_app_id: actor.appId,
  };
  const events = [
    newEvent(row.channelAppId, EVENT_OF[action], data),
    newEvent(row.providerAppId, EVENT_OF[action], data),
  ];
  const directory = channelDirectory(env);
  // The directory's batch: the events' delivery rows where the guard holds (before the change, so that
  // they land with it or not at all), the guarded change, the row as it left it (the answer); the faces
  // do not change with the action, read on the stores' shards meanwhile.
  const [written, faces] = await Promise.all([
    directory.batch([
      deliveryRows(directory, events, sql`EXISTS (SELECT 1 FROM ${c} WHERE ${guard})`),
      directory.update(c).set(set).where(guard),
      directory.select().from(c).where(eq(c.id, id)),
    ]),
    storeFacesAcross(shards),
  ]);
  const [delivery, , after] = written;
  if (!(delivery as unknown[]).length) {
    throw ApiError.conflict(
      "concurrent_update",
      "The connection request changed while this request ran; nothing was changed. Read it and retry.",
    );
  }
  deferDelivery(env, ctx.events, events);
  if (action === "delete") return undefined;
  return viewsOf(ctx, after as Row[], faces)[0]!;
}
