import { and, eq, notInArray } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ServiceContext } from "../../../core/context";
import { defineStateMachine } from "../../../core/state-machine";
import { type ShipmentStatus, shipments } from "../tables";

type ShipmentAction =
  | "purchase_label"
  | "pick_up"
  | "transit"
  | "out_for_delivery"
  | "deliver"
  | "fail_attempt"
  | "exception"
  | "return_to_sender"
  | "cancel";

/**
 * A shipment's status (design reference 8): created → label_purchased → picked_up → in_transit →
 * out_for_delivery → delivered, with the side states failed_attempt (back out for delivery),
 * exception (resumes in transit or out for delivery) and returned_to_sender. A custom courier needs
 * no label: created → picked_up too. Cancel only before pickup. A return shipment runs the same machine.
 */
export const shipmentMachine = defineStateMachine<ShipmentStatus, ShipmentAction>("The shipment", {
  created: { purchase_label: "label_purchased", pick_up: "picked_up", cancel: "cancelled" },
  label_purchased: { pick_up: "picked_up", cancel: "cancelled" },
  picked_up: { transit: "in_transit", exception: "exception", return_to_sender: "returned_to_sender" },
  in_transit: { out_for_delivery: "out_for_delivery", exception: "exception", return_to_sender: "returned_to_sender" },
  out_for_delivery: {
    deliver: "delivered",
    fail_attempt: "failed_attempt",
    exception: "exception",
    return_to_sender: "returned_to_sender",
  },
  failed_attempt: {
    out_for_delivery: "out_for_delivery",
    exception: "exception",
    return_to_sender: "returned_to_sender",
  },
  exception: { transit: "in_transit", out_for_delivery: "out_for_delivery", return_to_sender: "returned_to_sender" },
  delivered: {},
  returned_to_sender: {},
  cancelled: {},
});

/** The action that leads to each status: a carrier's update and the merchant's body name the status. */
export const ACTION_TO: Record<Exclude<ShipmentStatus, "created">, ShipmentAction> = {
  label_purchased: "purchase_label",
  picked_up: "pick_up",
  in_transit: "transit",
  out_for_delivery: "out_for_delivery",
  delivered: "deliver",
  failed_attempt: "fail_attempt",
  exception: "exception",
  returned_to_sender: "return_to_sender",
  cancelled: "cancel",
};

/** Statuses in which a shipment still holds its fulfillments (not cancelled). */
export const FINAL_STATUSES: readonly ShipmentStatus[] = ["delivered", "returned_to_sender", "cancelled"];

/**
 * The store's open shipments whose `column` (their courier, their origin) is `id`: what refuses that
 * row's deletion; the first 100 are named.
 */
export const openShipmentsUsing = (ctx: ServiceContext, column: SQLiteColumn, id: number) =>
  ctx.db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.appId, ctx.appId), eq(column, id), notInArray(shipments.status, [...FINAL_STATUSES])))
    .limit(100);
