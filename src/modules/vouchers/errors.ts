import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes of vouchers, beyond the request path's own. */
export const voucherErrorCodes = defineErrorCodes({
  voucher_not_found: "No live voucher with this id (or code) in the store.",
  voucher_code_taken: "Another live voucher of the store has this code.",
  voucher_usage_limit_reached: "The voucher reached its usage limit (in all, or for this customer).",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof voucherErrorCodes> {}
}
