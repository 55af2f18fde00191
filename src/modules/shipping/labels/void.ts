import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live, notDeletedRow } from "../../../core/crud/tenant-table";
import { rowEvent } from "../../../core/events/outbox";
import { MINOR_PER_MAJOR } from "../../../core/money";
import { storeWalletBalanceSql, storeWalletEntryStatement } from "../../orders";
import type { shipments } from "../tables";
import { shippingLabels } from "./tables";

type ShipmentRef = Pick<typeof shipments.$inferSelect, "id" | "orderId" | "direction">;

/**
 * What voiding the label of a shipment cancelled in the same batch adds to it (after the batch's
 * guard on the shipment's status, so a second cancel never gets here): the label stamped
 * `voided_at` with what it gives back, the store wallet's credit of that to the label's order and
 * shipment (only where `refund`: the carrier credits an unused label, or no carrier was paid), and
 * `shipment.label_voided`. A shipment without a live label writes nothing of it.
 */
export function voidLabelStatements(
  ctx: ServiceContext,
  shipment: ShipmentRef,
  at: string,
  refund: boolean,
): { statements: BatchItem<"sqlite">[]; events: SQL[] } {
  const { db, appId } = ctx;
  const label = and(live(shippingLabels, appId), eq(shippingLabels.shipmentId, shipment.id));
  const statements: BatchItem<"sqlite">[] = [
    db
      .update(shippingLabels)
      .set({ voidedAt: at, modifiedAt: at, refundMinor: refund ? sql`${shippingLabels.costMinor}` : 0 })
      .where(and(label, isNull(shippingLabels.voidedAt))),
  ];
  if (refund)
    statements.push(
      // A label that cost nothing refunds nothing: a credit of 0 is not written (and fails nothing).
      storeWalletEntryStatement(db, appId, {
        type: "credit",
        source: "label",
        amountMinor: sql`(SELECT refund_minor FROM shipping_labels
          WHERE shipment_id = ${shipment.id} AND ${notDeletedRow()} AND voided_at = ${at})`,
        orderId: shipment.orderId,
        reference: `shipment:${shipment.id}`,
      }),
    );
  const event = rowEvent(
    "shipment.label_voided",
    shippingLabels,
    sql`shipment_id = ${shipment.id} AND ${notDeletedRow()} AND voided_at = ${at}`,
    sql`json_object('id', shipment_id, 'order_id', order_id, 'courier_id', courier_id,
      'direction', ${shipment.direction}, 'status', 'cancelled', 'label_id', id, 'tracking_number', tracking_number,
      'refund', CAST(refund_minor AS REAL) / ${MINOR_PER_MAJOR},
      'wallet_balance', CAST(${storeWalletBalanceSql(appId)} AS REAL) / ${MINOR_PER_MAJOR})`,
  );
  return { statements, events: [event] };
}
