import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the merchant account answers with, beyond the request path's own. */
export const accountErrorCodes = defineErrorCodes({
  audit_event_not_found: "No audit row with this id in the store.",
  bank_account_not_found: "No live bank account with this id in the store.",
  iban_already_registered: "Another bank account of the store has this IBAN; `bank_account_id` names it.",
  api_key_not_found: "No API key with this id in the store.",
  permission_escalation:
    "A key may grant only permissions it holds itself; `permissions` names those the calling key lacks.",
  store_not_found: "No store has this id.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof accountErrorCodes> {}
}
