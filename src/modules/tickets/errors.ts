import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the tickets module answers with, beyond the request path's own. */
export const ticketErrorCodes = defineErrorCodes({
  ticket_not_found: "No ticket of this store has that token.",
  tickets_not_found: "Some ids of a bulk update name no ticket of this store; nothing was changed.",
  invalid_transition: "Some tickets cannot take the change from their status; nothing was changed.",
  ticket_already_checked_in: "The ticket was checked in already (`checked_in_at` says when).",
  ticket_cancelled: "The ticket was cancelled and admits no one.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof ticketErrorCodes> {}
}
