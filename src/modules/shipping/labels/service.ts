import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import { abortUnless, isGuardAbort } from "../../../core/guards";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { MINOR_PER_MAJOR, toMajor } from "../../../core/money";
import { apps } from "../../../core/tenancy";
import { nowIso } from "../../../core/time";
import { fulfillmentCancelledSql, storeWalletBalanceSql, storeWalletEntryStatement } from "../../orders";
import { shipmentMachine } from "../shipments/machine";
import { statusChangeStatements } from "../shipments/status";
import { shipmentFulfillments, shipments } from "../tables";
import type { PurchaseLabels, ShippingLabel } from "./schemas";
import { shippingLabels } from "./tables";

type LabelRow = typeof shippingLabels.$inferSelect;
type ShipmentRow = typeof shipments.$inferSelect;

/** Where the merchant router is mounted (app.ts), and the PDF route's path in it. */
const ORDERS_PREFIX = "/order/v1";
export const LABEL_PDF_PATH = "/merchant/shipments/labels/{label_id}/pdf/";
const pdfPrefix = (origin: string) => `${origin}${ORDERS_PREFIX}${LABEL_PDF_PATH.replace("{label_id}/pdf/", "")}`;

export const labelView =
  (origin: string) =>
  (r: LabelRow): ShippingLabel => ({
    id: r.id,
    shipment_id: r.shipmentId,
    order_id: r.orderId,
    courier_id: r.courierId,
    tracking_number: r.trackingNumber,
    cost: toMajor(r.costMinor),
    currency: r.currency,
    label_url: `${pdfPrefix(origin)}${r.id}/pdf/`,
    created_at: r.createdAt,
    voided_at: r.voidedAt,
    refund: toMajor(r.refundMinor),
    modified_at: r.modifiedAt,
  });

export const LABEL_LIST: ListSpec = {
  fields: {
    id: { column: shippingLabels.id, kind: "integer" },
    shipment_id: { column: shippingLabels.shipmentId, kind: "integer" },
    order_id: { column: shippingLabels.orderId, kind: "integer" },
    courier_id: { column: shippingLabels.courierId, kind: "integer" },
    tracking_number: { column: shippingLabels.trackingNumber, kind: "string" },
    cost: { column: shippingLabels.costMinor, kind: "money" },
    created_at: { column: shippingLabels.createdAt, kind: "datetime" },
  },
  search: searchColumns(shippingLabels.trackingNumber),
  searchDescription: "The tracking number.",
  defaultOrder: "-id",
  idColumn: shippingLabels.id,
  // Labels are never deleted: a voided one keeps its row (`voided_at`).
  sync: { modifiedAt: shippingLabels.modifiedAt, softDeleted: false },
};

/** MH2: the store's purchased labels, newest first by default. */
export async function listLabels(ctx: ServiceContext, q: ListQuery, origin: string): Promise<Page<ShippingLabel>> {
  const page = await listPage(ctx.db, q, { table: shippingLabels, scope: () => live(shippingLabels, ctx.appId) });
  return mapPage(page, labelView(origin));
}

/** A label of the store, or 404 `shipping_label_not_found`. */
export async function findLabel(ctx: ServiceContext, id: number): Promise<LabelRow> {
  const [row] = await ctx.db
    .select()
    .from(shippingLabels)
    .where(and(live(shippingLabels, ctx.appId), eq(shippingLabels.id, id)))
    .limit(1);
  if (!row) throw ApiError.notFound("shipping_label_not_found", `Shipping label ${id}`);
  return row;
}

/**
 * The tracking number printed on the label: the carrier's, or for a custom courier (the merchant's
 * own delivery, which has none) the store and the shipment, digits that Code 128 packs two a bar.
 */
export const trackingNumberOf = (s: Pick<ShipmentRow, "appId" | "id" | "trackingNumber">) =>
  s.trackingNumber ?? `${String(s.appId).padStart(4, "0")}-${String(s.id).padStart(8, "0")}`;

const balanceOf = (ctx: ServiceContext) =>
  ctx.db
    .select({ balance: storeWalletBalanceSql(ctx.appId) })
    .from(apps)
    .where(eq(apps.id, ctx.appId));

/**
 * The statements and events that buy one shipment's label: the status change (the shipments' own,
 * guarded on the status it read, with its history row and `shipment.status_changed`), the label
 * row, the wallet's guarded debit and `shipment.label_purchased` (with the label's id, assigned by the batch).
 */
async function purchaseOf(ctx: ServiceContext, s: ShipmentRow, now: string) {
  const { db, appId } = ctx;
  const tracking = trackingNumberOf(s);
  const change = await statusChangeStatements(ctx, s, {
    to: "label_purchased",
    source: "merchant",
    note: "Label purchased.",
    at: now,
    set: { trackingNumber: tracking },
  });
  const statements: BatchItem<"sqlite">[] = [
    ...change.statements,
    db.insert(shippingLabels).values({
      appId,
      shipmentId: s.id,
      orderId: s.orderId,
      courierId: s.courierId,
      trackingNumber: tracking,
      costMinor: s.costMinor,
      currency: s.currency,
      createdAt: now,
      modifiedAt: now,
    }),
  ];
  if (s.costMinor > 0) {
    statements.push(
      storeWalletEntryStatement(db, appId, {
        type: "debit",
        source: "label",
        amountMinor: -s.costMinor,
        orderId: s.orderId,
        reference: `shipment:${s.id}`,
      }),
      abortUnless(db, sql`changes() = 1`, "store wallet balance"),
    );
  }
  const event = rowEvent(
    "shipment.label_purchased",
    shippingLabels,
    sql`shipment_id = ${s.id} AND ${notDeletedRow()}`,
    sql`json_object('id', shipment_id, 'order_id', order_id, 'courier_id', courier_id, 'direction', ${s.direction},
      'status', 'label_purchased', 'label_id', id, 'tracking_number', tracking_number,
      'cost', CAST(cost_minor AS REAL) / ${MINOR_PER_MAJOR})`,
  );
  return { statements, events: [event, ...change.events] };
}

export type LabelPurchase = { labels: ShippingLabel[]; totalMinor: number; currency: string; balanceMinor: number };

/**
 * MH3: labels for every shipment named, or none. Each shipment must be the store's (404), in a
 * status that buys a label (409 `invalid_state_transition`), and of `courier_id` when given (400);
 * their costs together are taken from the store wallet, whose balance must cover them (409
 * `insufficient_balance` with `available` and `required`). One batch: the wallet's guarded debits,
 * the status moves (each repeating its `from` status), the label rows and their events.
 */
export async function purchaseLabels(
  ctx: ServiceContext,
  input: PurchaseLabels,
  origin: string,
): Promise<LabelPurchase> {
  const { db, appId } = ctx;
  const rows = await db
    .select()
    .from(shipments)
    .where(and(live(shipments, appId), inArray(shipments.id, input.shipment_ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = input.shipment_ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw ApiError.notFound("shipment_not_found", `Shipment ${missing}`);
  const chosen = input.shipment_ids.map((id) => byId.get(id)!);
  if (input.courier_id !== undefined) {
    const other = chosen.filter((s) => s.courierId !== input.courier_id).map((s) => s.id);
    if (other.length) {
      throw ApiError.validation({
        courier_id: [`Shipments ${other.join(", ")} are carried by another courier than ${input.courier_id}.`],
      });
    }
  }
  const now = nowIso();
  // Checked here first, so that a refusal names the first shipment that cannot move.
  for (const s of chosen) shipmentMachine.next(s.status, "purchase_label", `Shipment ${s.id}`);
  const parts = await Promise.all(chosen.map((s) => purchaseOf(ctx, s, now)));
  // A shipment holding a cancelled line must not be labelled (it would carry what the order no longer ships).
  const statements: BatchItem<"sqlite">[] = [
    abortUnless(
      db,
      sql`NOT EXISTS (SELECT 1 FROM ${shipmentFulfillments} WHERE ${cancelledLinkOf(ctx, input.shipment_ids)})`,
      "a shipped line was cancelled",
    ),
    ...parts.flatMap((p) => p.statements),
  ];
  // The shipments' links to their labels, once the labels have ids.
  statements.push(
    db
      .update(shipments)
      .set({
        labelUrl: sql`${pdfPrefix(origin)} || (SELECT l.id FROM ${shippingLabels} l
          WHERE l.shipment_id = ${shipments.id} AND ${notDeletedRow("l")}) || '/pdf/'`,
      })
      .where(and(eq(shipments.appId, appId), inArray(shipments.id, input.shipment_ids))),
    db
      .select()
      .from(shippingLabels)
      .where(and(live(shippingLabels, appId), inArray(shippingLabels.shipmentId, input.shipment_ids))),
    balanceOf(ctx),
  );
  const totalMinor = chosen.reduce((sum, s) => sum + s.costMinor, 0);
  const currency = chosen[0]!.currency;
  try {
    const { results } = await emit(db, ctx.events, statements, unionEvents(parts.flatMap((p) => p.events)));
    const labels = results.at(-2) as LabelRow[];
    const [balance] = results.at(-1) as { balance: number }[];
    const byShipment = new Map(labels.map((l) => [l.shipmentId, l]));
    const view = labelView(origin);
    return {
      labels: input.shipment_ids.map((id) => view(byShipment.get(id)!)),
      totalMinor,
      currency,
      balanceMinor: balance?.balance ?? 0,
    };
  } catch (error) {
    if (!isGuardAbort(error)) throw error;
    throw await whyRefused(ctx, input.shipment_ids, totalMinor);
  }
}

/** A link of one of the shipments `ids` to a fulfillment that was cancelled. */
const cancelledLinkOf = (ctx: ServiceContext, ids: number[]) =>
  and(
    eq(shipmentFulfillments.appId, ctx.appId),
    inArray(shipmentFulfillments.shipmentId, ids),
    fulfillmentCancelledSql(ctx, sql`${shipmentFulfillments.fulfillmentId}`),
  )!;

/** The links of the shipments `ids` to fulfillments that were cancelled. */
const cancelledLinks = (ctx: ServiceContext, ids: number[]) =>
  ctx.db
    .select({ shipmentId: shipmentFulfillments.shipmentId, fulfillmentId: shipmentFulfillments.fulfillmentId })
    .from(shipmentFulfillments)
    .where(cancelledLinkOf(ctx, ids));

/**
 * Which guard refused the batch, read again: a shipment that moved meanwhile, one holding a cancelled
 * fulfillment, or the wallet's balance.
 */
async function whyRefused(ctx: ServiceContext, ids: number[], totalMinor: number): Promise<ApiError> {
  const [now, cancelled, [wallet]] = await ctx.db.batch([
    ctx.db
      .select({ id: shipments.id, status: shipments.status })
      .from(shipments)
      .where(and(live(shipments, ctx.appId), inArray(shipments.id, ids))),
    cancelledLinks(ctx, ids),
    balanceOf(ctx),
  ]);
  for (const s of now) {
    if (!shipmentMachine.table[s.status].purchase_label) {
      return ApiError.invalidTransition(
        `Shipment ${s.id}`,
        s.status,
        "purchase_label",
        shipmentMachine.allowed(s.status),
      );
    }
  }
  const [first] = cancelled;
  if (first) {
    const lines = cancelled.filter((c) => c.shipmentId === first.shipmentId).map((c) => c.fulfillmentId);
    return ApiError.conflict(
      "fulfillment_not_shippable",
      `Shipment ${first.shipmentId} holds cancelled fulfillment(s) ${lines.join(", ")}: cancel the shipment ` +
        `(POST /order/v1/merchant/shipments/${first.shipmentId}/cancel/) and ship the lines still due in a new one.`,
      { shipment_id: first.shipmentId, fulfillment_ids: lines },
    );
  }
  const available = wallet?.balance ?? 0;
  return ApiError.conflict(
    "insufficient_balance",
    `The store wallet holds ${toMajor(available).toFixed(2)}, less than the labels' ${toMajor(totalMinor).toFixed(2)}.`,
    { available: toMajor(available), required: toMajor(totalMinor) },
  );
}
