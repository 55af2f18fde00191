import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the customers module answers with, beyond the request path's own. */
export const customerErrorCodes = defineErrorCodes({
  // Customer records (MC1, MC2, MC4–MC7)
  customer_not_found: "No live customer with this id in the store.",
  customer_mobile_taken: "Another live customer of the store has this mobile number (`customer_id` names it).",
  customer_location_not_found: "No live location with this id for this customer.",
  // Customer wallets (MW1–MW4)
  insufficient_balance: "The wallet's balance of `kind` does not cover the redemption; `available` says what it holds.",
  // Geography (MG1–MG4, CA20)
  city_not_found: "No city with this id in the geography reference data.",
  // Customer login (CA1–CA5)
  invalid_otp: "The code is wrong; `attempts_left` says how many tries the code has left.",
  otp_expired: "No live code for this number: it expired, was used, or a newer one was sent; request a new one.",
  otp_attempts_exceeded: "The code had its 5 tries, or the number 10 checks this hour; retry after `Retry-After`.",
  otp_send_limit_reached: "5 codes were sent to this number in 10 minutes; retry after `Retry-After` seconds.",
  otp_resend_too_soon: "A code was sent to this number less than a minute ago; retry after `Retry-After` seconds.",
  register_budget_reached:
    "The store sent its budget of registration codes for 10 minutes (against SMS pumping); retry after `Retry-After`.",
  customer_already_registered: "The number was registered since the code was sent; log in instead.",
  invalid_refresh_token: "The refresh token is unknown, expired or revoked; log in again.",
  refresh_token_reused: "A replaced refresh token was used again: every token of its login is revoked.",
  // Customer app account (CA6–CA9) and Send Notification (MN1)
  fcm_token_not_found: "The customer has no FCM token with this value (another customer's is not theirs to remove).",
  notification_not_found: "No notification with this id: of the store (merchant), or received by the customer.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof customerErrorCodes> {}
}
