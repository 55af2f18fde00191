import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes of the platform operations, beyond the request path's own. */
export const platformErrorCodes = defineErrorCodes({
  organization_not_found: "No organization has this id.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof platformErrorCodes> {}
}
