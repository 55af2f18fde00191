import { defineStateMachine } from "../../../core/state-machine";
import type { RECURRING_STATUSES } from "./tables";

type RecurringStatus = (typeof RECURRING_STATUSES)[number];
type RecurringAction = "activate" | "deactivate";

/**
 * A recurring purchase's status (design-reference 5.3): pending until its first order is paid
 * (payments/paid.ts activates it), then active; the merchant or the customer stops it (inactive),
 * as do three failed cycles in a row. Inactive is final: a new recurring cart starts a new one.
 */
export const recurringMachine = defineStateMachine<RecurringStatus, RecurringAction>("The recurring purchase", {
  pending: { activate: "active", deactivate: "inactive" },
  active: { deactivate: "inactive" },
  inactive: {},
});
