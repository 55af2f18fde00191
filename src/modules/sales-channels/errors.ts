import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes sales channels answer with, beyond the request path's own. */
export const salesChannelErrorCodes = defineErrorCodes({
  connection_request_not_found: "No such connection request sent or received by this store (or it was deleted).",
  connection_to_self: "A store cannot connect to itself.",
  connection_already_exists:
    "The two stores already have a pending, active or inactive connection in these roles; `connection_request_id` names it.",
  not_connection_receiver: "Only the store that received the connection request may accept or reject it.",
  connection_deactivated_by_other_store: "Only the store that deactivated the connection may activate it again.",
  provider_not_connected: "This store has no active connection, as the channel, with the provider store named.",
  plan_listing_not_found: "No such plan listing of this store (or its provider's connection is not active).",
  plan_already_listed: "The channel already lists this plan; `plan_listing_id` names the listing.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof salesChannelErrorCodes> {}
}
