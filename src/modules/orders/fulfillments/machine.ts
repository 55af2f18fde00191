import { defineStateMachine } from "../../../core/state-machine";
import type { FulfillmentState } from "./tables";

/**
 * A fulfillment's status (design-reference 7): pending → processing → shipped → delivered, and
 * pending|processing → cancelled. Each action is named after the status it leads to, because the
 * PATCH body names the status it wants. Delivered and cancelled are final.
 */
export const fulfillmentMachine = defineStateMachine<FulfillmentState, FulfillmentState>("The fulfillment", {
  pending: { processing: "processing", cancelled: "cancelled" },
  processing: { shipped: "shipped", cancelled: "cancelled" },
  shipped: { delivered: "delivered" },
  delivered: {},
  cancelled: {},
});

/** The forward path, for moves a shipment makes in one step (a picked-up parcel was processed). */
export const FORWARD_PATH: readonly FulfillmentState[] = ["pending", "processing", "shipped", "delivered"];

/** Statuses a customer may still edit the schedule and address in. */
export const OPEN_STATES: readonly FulfillmentState[] = ["pending", "processing"];
