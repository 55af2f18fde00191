import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the webhooks module answers with, beyond the request path's own. */
export const webhookErrorCodes = defineErrorCodes({
  webhook_not_found: "No such webhook in this store (or none with that URL).",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof webhookErrorCodes> {}
}
