import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes of the platform operations, beyond the request path's own. */
export const platformErrorCodes = defineErrorCodes({
  organization_not_found: "No organization has this id.",
  shard_not_found: "No shard (a database the Worker is bound to) has this name: List Shards names them.",
  no_shard_open: "Closing this shard would leave no shard open to new stores: open another first.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof platformErrorCodes> {}
}
