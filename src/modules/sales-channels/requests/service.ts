import { and, eq, ne, or, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, eventPayloadSql, newEvent } from "../../../core/events/outbox";
import type { EventType } from "../../../core/events/registry";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import { type StoreFace, storeFacesFromJson, storeFacesJson, storeFacesQueries } from "../stores";
import { CONNECTION_STATUSES, channelConnections } from "../tables";
import { type ConnectionAction, connectionMachine } from "./machine";
import type { ConnectionRequest, DIRECTIONS, SendConnectionRequest } from "./schemas";

/**
 * Connection requests (MX6). A connection is one row that both of its stores see: every read is
 * scoped to the rows where the calling store is the channel or the provider, and not deleted; a
 * third store gets the 404 of a request that does not exist.
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
  // The page and the faces of its stores: one statement.
  const { page, nested } = await listPageWith(ctx.db, q, { table: channelConnections, scope: () => scope }, (rows) =>
    storeFacesJson(sql`SELECT channel_app_id FROM ${rows} UNION SELECT provider_app_id FROM ${rows}`),
  );
  const faces = storeFacesFromJson(sidesOf(page.results), nested);
  return { ...page, results: viewsOf(ctx, page.results, faces) };
}

/** The stores of the rows: each one's channel and provider. */
const sidesOf = (rows: readonly Row[]) => [...new Set(rows.flatMap((r) => [r.channelAppId, r.providerAppId]))];

/** A connection request the store is a side of and its stores' faces, in one batch keyed by the id; else 404. */
async function findWithFaces(ctx: ServiceContext, id: number): Promise<{ row: Row; faces: Map<number, StoreFace> }> {
  const where = and(seenBy(ctx.appId), eq(channelConnections.id, id))!;
  const c = channelConnections;
  const sides = sql`SELECT ${c.channelAppId} FROM ${c} WHERE ${where} UNION SELECT ${c.providerAppId} FROM ${c} WHERE ${where}`;
  const faces = storeFacesJson(sides);
  const [rows, parts] = await ctx.db.batch([
    ctx.db.select().from(c).where(where),
    ctx.db
      .select({ profiles: faces.profiles.as("profiles"), identities: faces.identities.as("identities") })
      .from(sql`(SELECT 1)`),
  ]);
  const row = rows[0];
  if (!row) throw ApiError.notFound("connection_request_not_found", `Connection request ${id}`);
  return { row, faces: storeFacesFromJson(sidesOf([row]), parts[0]!) };
}

/** A connection request the store is a side of, with its stores' faces. */
export async function getConnectionRequest(ctx: ServiceContext, id: number): Promise<ConnectionRequest> {
  const { row, faces } = await findWithFaces(ctx, id);
  return viewsOf(ctx, [row], faces)[0]!;
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
  ctx: ServiceContext,
  body: SendConnectionRequest,
): Promise<ConnectionRequest> {
  const asChannel = body.provider_app_id !== undefined;
  const other = (asChannel ? body.provider_app_id : body.channel_app_id)!;
  const field = asChannel ? "provider_app_id" : "channel_app_id";
  if (other === ctx.appId) throw ApiError.conflict("connection_to_self", "A store cannot connect to itself.");
  const channelAppId = asChannel ? ctx.appId : other;
  const providerAppId = asChannel ? other : ctx.appId;
  // Every read at once: the other store, a live connection of the pair, and both stores' faces for the answer.
  const faces = storeFacesQueries(ctx.db, [channelAppId, providerAppId]);
  const [store, live, profiles, identities] = await ctx.db.batch([
    ctx.db.select({ id: apps.id }).from(apps).where(eq(apps.id, other)),
    ctx.db
      .select({ id: channelConnections.id, status: channelConnections.status })
      .from(channelConnections)
      .where(
        and(
          eq(channelConnections.channelAppId, channelAppId),
          eq(channelConnections.providerAppId, providerAppId),
          notDeleted(channelConnections),
          ne(channelConnections.status, "rejected"),
        ),
      ),
    ...faces.statements,
  ]);
  if (!store.length) throw ApiError.validation({ [field]: ["No store has this id."] });
  if (live[0]) {
    throw ApiError.conflict(
      "connection_already_exists",
      `Store ${channelAppId} (channel) and store ${providerAppId} (provider) already have a connection, ${live[0].status}: ` +
        `connection request ${live[0].id}.`,
      { connection_request_id: live[0].id, current_status: live[0].status },
    );
  }
  const now = nowIso();
  const plan = new BatchPlan(ctx.db);
  const connection = plan.insert(
    "connection",
    ctx.db
      .insert(channelConnections)
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
  );
  plan.event(bothSidesEvents("sales_channel.connection_requested", sql`${channelConnections.id} = ${connection.id}`));
  const row = (await plan.run(ctx.events)).row<Row>(connection);
  return viewsOf(ctx, [row], faces.of(profiles, identities))[0]!;
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
  ctx: ServiceContext,
  id: number,
  action: ConnectionAction,
  actor: Actor,
): Promise<ConnectionRequest | undefined> {
  // The faces do not change with the action: read with the row, they answer after the write.
  const { row, faces } = await findWithFaces(ctx, id);
  if (action === "accept" || action === "reject") checkReceiver(row, action, actor);
  const to = connectionMachine.next(row.status, action);
  if (action === "activate") checkReactivator(row, actor);
  const now = nowIso();
  const set: Partial<typeof channelConnections.$inferInsert> = { status: to, modifiedAt: now };
  if (action === "accept" || action === "reject") Object.assign(set, { decidedAt: now, decidedBy: actor.tokenId });
  if (action === "deactivate") set.deactivatedByAppId = actor.appId;
  if (action === "activate") set.deactivatedByAppId = null;
  if (action === "delete") Object.assign(set, { isDeleted: true, deletedAt: now });
  const guard = and(
    eq(channelConnections.id, id),
    eq(channelConnections.status, row.status),
    notDeleted(channelConnections),
  )!;
  const data = {
    id,
    status: to,
    channel_app_id: row.channelAppId,
    provider_app_id: row.providerAppId,
    by_app_id: actor.appId,
  };
  const { applied, results } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(channelConnections).set(set).where(guard)],
    [newEvent(row.channelAppId, EVENT_OF[action], data), newEvent(row.providerAppId, EVENT_OF[action], data)],
    {
      guard: sql`EXISTS (SELECT 1 FROM ${channelConnections} WHERE ${guard})`,
      // The row as the batch left it: the answer.
      after: [ctx.db.select().from(channelConnections).where(eq(channelConnections.id, id))],
    },
  );
  if (!applied) {
    throw ApiError.conflict(
      "concurrent_update",
      "The connection request changed while this request ran; nothing was changed. Read it and retry.",
    );
  }
  if (action === "delete") return undefined;
  return viewsOf(ctx, results[1] as Row[], faces)[0]!;
}
