import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the webhooks module answers with, beyond the request path's own. */
export const webhookErrorCodes = defineErrorCodes({
  webhook_not_found: "No such webhook in this store (or none with that URL).",
  delivery_not_found: "No such webhook delivery in this store.",
  webhook_inactive: "The webhook is off: turn it on (`is_active: true`) before re-sending its deliveries.",
  delivery_in_progress: "The delivery has not ended: it is still due to be attempted, so it cannot be re-sent.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof webhookErrorCodes> {}
}
