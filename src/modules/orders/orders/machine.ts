import { defineStateMachine } from "../../../core/state-machine";
import type { ORDER_STATUSES } from "../tables";

type OrderStatus = (typeof ORDER_STATUSES)[number];
type OrderAction = "pay" | "cancel" | "expire" | "refund";

/**
 * An order's status (design-reference 5.3): pending until paid (completed), or until cancelled or
 * past its payment deadline (expired); a completed order is refunded when refund invoices gave back
 * all of it. Payment status and fulfillment status are separate fields.
 */
export const orderMachine = defineStateMachine<OrderStatus, OrderAction>("The order", {
  pending: { pay: "completed", cancel: "cancelled", expire: "expired" },
  completed: { refund: "refunded" },
  cancelled: {},
  expired: {},
  refunded: {},
});
