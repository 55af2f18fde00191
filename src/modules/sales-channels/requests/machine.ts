import { defineStateMachine } from "../../../core/state-machine";
import type { ConnectionStatus } from "../tables";

export const CONNECTION_ACTIONS = ["accept", "reject", "activate", "deactivate", "delete"] as const;
export type ConnectionAction = (typeof CONNECTION_ACTIONS)[number];

/**
 * A connection request's status (design-reference 10): pending → active (accept) or rejected
 * (reject, final: a new request may be sent); active ⇄ inactive (deactivate, activate). Any but
 * pending may be deleted (a soft delete, beside the status): a pending request is answered, not
 * withdrawn. Deleting an active connection also makes it inactive, so that nothing reads it as live.
 */
export const connectionMachine = defineStateMachine<ConnectionStatus, ConnectionAction>("The connection request", {
  pending: { accept: "active", reject: "rejected" },
  active: { deactivate: "inactive", delete: "inactive" },
  inactive: { activate: "active", delete: "inactive" },
  rejected: { delete: "rejected" },
});
