import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { type BatchPlan, batchStatement, type PlanResult, selectColumns } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { decodeRows, rowsJson } from "../../../core/json-rows";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { packageView } from "../fields";
import {
  RETURN_STATUSES,
  SHIPMENT_DIRECTIONS,
  SHIPMENT_STATUSES,
  shipmentFulfillments,
  shipmentStatusHistory,
  shipments,
} from "../tables";
import { shipmentMachine } from "./machine";
import type { Shipment } from "./schemas";

export type ShipmentRow = typeof shipments.$inferSelect;

export const SHIPMENT_LIST: ListSpec = {
  fields: {
    id: { column: shipments.id, kind: "integer" },
    order_id: { column: shipments.orderId, kind: "integer" },
    courier_id: { column: shipments.courierId, kind: "integer" },
    service: { column: shipments.service, kind: "string" },
    direction: { column: shipments.direction, kind: "string", values: SHIPMENT_DIRECTIONS },
    return_of_id: { column: shipments.returnOfId, kind: "integer", nullable: true },
    return_status: { column: shipments.returnStatus, kind: "string", values: RETURN_STATUSES, nullable: true },
    status: { column: shipments.status, kind: "string", values: SHIPMENT_STATUSES },
    tracking_number: { column: shipments.trackingNumber, kind: "string", nullable: true },
    created_at: { column: shipments.createdAt, kind: "datetime" },
    delivered_at: { column: shipments.deliveredAt, kind: "datetime", nullable: true },
  },
  defaultOrder: "-id",
  idColumn: shipments.id,
  sync: { modifiedAt: shipments.modifiedAt, softDeleted: false },
};

export async function findShipment(ctx: ServiceContext, id: number): Promise<ShipmentRow> {
  const [row] = await ctx.db
    .select()
    .from(shipments)
    .where(and(live(shipments, ctx.appId), eq(shipments.id, id)))
    .limit(1);
  if (!row) throw ApiError.notFound("shipment_not_found", `Shipment ${id}`);
  return row;
}

/** The fulfillments and status history of the shipments that `ids` selects (a subquery), as parts of one statement. */
function shipmentPartsJson(appId: number, ids: SQL): Record<"links" | "history", SQL> {
  return {
    links: rowsJson(
      shipmentFulfillments,
      and(eq(shipmentFulfillments.appId, appId), sql`${shipmentFulfillments.shipmentId} IN ${ids}`)!,
      [asc(shipmentFulfillments.fulfillmentId)],
    ),
    history: rowsJson(
      shipmentStatusHistory,
      and(eq(shipmentStatusHistory.appId, appId), sql`${shipmentStatusHistory.shipmentId} IN ${ids}`)!,
      [asc(shipmentStatusHistory.id)],
    ),
  };
}

/** Shipments as the API shows them, from `shipmentPartsJson`'s parts (parsed JSON). */
function shipmentViews(rows: readonly ShipmentRow[], parts: Record<"links" | "history", unknown>): Shipment[] {
  const links = decodeRows(shipmentFulfillments, parts.links);
  const history = decodeRows(shipmentStatusHistory, parts.history);
  return rows.map((r) => ({
    id: r.id,
    order_id: r.orderId,
    fulfillment_ids: links.filter((l) => l.shipmentId === r.id).map((l) => l.fulfillmentId),
    courier_id: r.courierId,
    service: r.service,
    direction: r.direction,
    return_of_id: r.returnOfId,
    return_status: r.returnStatus,
    origin: r.origin,
    destination: r.destination,
    packages: r.packages.map(packageView),
    weight: r.weightG / 1000,
    cod_amount: toMajor(r.codAmountMinor),
    cost: toMajor(r.costMinor),
    currency: r.currency,
    label_url: r.labelUrl,
    carrier_reference: r.carrierReference,
    tracking_number: r.trackingNumber,
    tracking_url: r.trackingUrl,
    status: r.status,
    allowed_actions: shipmentMachine.allowed(r.status),
    status_history: history
      .filter((h) => h.shipmentId === r.id)
      .map((h) => ({ status: h.status, at: h.at, note: h.note, source: h.source, carrier_status: h.carrierStatus })),
    notes: r.notes,
    delivered_at: r.deliveredAt,
    cancelled_at: r.cancelledAt,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  }));
}

type DetailsRow = Record<"rows" | "links" | "history", string | null>;

/** The SELECT of a shipment of the store with its fulfillments and history (`id` may be SQL: a batch's handle). */
function detailsSql(ctx: ServiceContext, id: number | SQL): SQL {
  const mine = and(live(shipments, ctx.appId), eq(shipments.id, sql`${id}`))!;
  const parts = shipmentPartsJson(ctx.appId, sql`(${id})`);
  return sql`SELECT ${rowsJson(shipments, mine)} AS "rows", ${parts.links} AS "links", ${parts.history} AS "history"`;
}

/** A shipment's details from `detailsSql`'s row; else the 404. */
function detailsOf(id: number, row: DetailsRow | undefined): Shipment {
  const found = decodeRows(shipments, row?.rows ?? "[]");
  if (!found.length) throw ApiError.notFound("shipment_not_found", `Shipment ${id}`);
  return shipmentViews(found, { links: JSON.parse(row?.links ?? "[]"), history: JSON.parse(row?.history ?? "[]") })[0]!;
}

/** A shipment of the store with its fulfillments and history, in one statement; else a 404. */
export async function shipmentDetails(ctx: ServiceContext, id: number): Promise<Shipment> {
  return detailsOf(id, await ctx.db.get<DetailsRow>(detailsSql(ctx, id)));
}

/**
 * Shipment Details as a read of a write's own batch, after its changes (`id` may be the handle of
 * the shipment it inserts): the answer comes back with the write instead of a read after it.
 */
export function readShipmentDetails(plan: BatchPlan, ctx: ServiceContext, id: number | SQL) {
  const read = plan.read<DetailsRow>(
    batchStatement(ctx.db, detailsSql(ctx, id), selectColumns(["rows", "links", "history"])),
  );
  return (result: PlanResult, shownId: number): Shipment => detailsOf(shownId, result.rows(read)[0]);
}

export async function listShipments(ctx: ServiceContext, q: ListQuery): Promise<Page<Shipment>> {
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: shipments, scope: () => live(shipments, ctx.appId) },
    (rows) => shipmentPartsJson(ctx.appId, sql`(SELECT id FROM ${rows})`),
  );
  return { ...page, results: shipmentViews(page.results, nested) };
}
