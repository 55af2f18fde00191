import { defineStateMachine } from "../../../core/state-machine";
import type { SuborderStatus } from "../tables";

/**
 * A suborder's status (design-reference 12): the kitchen confirms, a captain takes it out and
 * delivers it (or the customer did not receive it); the customer may cancel before the provider's
 * cutoff, operations until it is delivered. Each action is named after the status it leads to,
 * because a bulk update names the status it wants. Delivered, cancelled and not received are final.
 */
export const suborderMachine = defineStateMachine<SuborderStatus, SuborderStatus>("The suborder", {
  new: {
    confirmed: "confirmed",
    cancelled_by_customer: "cancelled_by_customer",
    cancelled_by_operation: "cancelled_by_operation",
  },
  confirmed: {
    on_delivery: "on_delivery",
    cancelled_by_customer: "cancelled_by_customer",
    cancelled_by_operation: "cancelled_by_operation",
  },
  on_delivery: {
    delivered: "delivered",
    not_received_by_customer: "not_received_by_customer",
    cancelled_by_operation: "cancelled_by_operation",
  },
  delivered: {},
  cancelled_by_customer: {},
  cancelled_by_operation: {},
  not_received_by_customer: {},
});
