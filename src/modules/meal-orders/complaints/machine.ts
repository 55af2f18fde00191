import { defineStateMachine } from "../../../core/state-machine";
import type { COMPLAINT_STATUSES } from "./tables";

export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/**
 * A complaint (design-reference 14): the store takes it into review, then resolves it (perhaps
 * crediting the wallet) or rejects it. Actions are named after the status they lead to, as the
 * merchant's update names the status it wants. Resolved and rejected are final.
 */
export const complaintMachine = defineStateMachine<ComplaintStatus, ComplaintStatus>("The complaint", {
  open: { in_review: "in_review" },
  in_review: { resolved: "resolved", rejected: "rejected" },
  resolved: {},
  rejected: {},
});
