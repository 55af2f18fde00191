import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the customers module answers with, beyond the request path's own. */
export const customerErrorCodes = defineErrorCodes({});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof customerErrorCodes> {}
}
