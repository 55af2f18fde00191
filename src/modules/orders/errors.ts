import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes the orders module answers with, beyond the request path's own. */
export const orderErrorCodes = defineErrorCodes({
  cart_not_found: "No cart with this id in the store (or, for a customer, of theirs).",
  cart_checked_out: "The cart was already checked out; its order is `order_id`. Create a new cart.",
  cart_empty: "The cart has no lines: add an item before checking out.",
  item_unavailable: "A line's item is deleted, out of its serving dates, or plan-only; `item_id` names it.",
  below_minimum_order: "The cart's total is below the store's minimum order (`min_order_amount`).",
  payment_provider_disabled: "The store does not accept this payment provider (Checkout Config lists those it does).",
  order_not_found: "No order with this id in the store (or, for a customer, of theirs).",
  invoice_not_found: "No invoice with this id in the store.",
  einvoice_not_found:
    "The invoice has no ZATCA e-invoice: it has no serial yet, or its `zatca_status` is `not_required` (or it was issued before Phase 2).",
  signed_einvoice_not_found:
    "The invoice's e-invoice is not signed yet (about a second after it is issued): retry shortly.",
  einvoice_unit_not_found: "No e-invoicing unit with this id in the store.",
  einvoice_unit_exists:
    "The store already has an e-invoicing unit onboarding or issuing (`unit_id`): renew that one, or wait for its onboarding to end.",
  einvoice_seller_incomplete:
    "The store's settings lack what ZATCA's CSR needs (`missing`): set `vat_number`, `seller_name` and `seller_address`, then register.",
  einvoice_not_cleared:
    "The invoice is a standard (B2B) tax invoice that ZATCA has not cleared (`zatca_status` `pending` or `rejected`): " +
    "it is shared, as XML or PDF, only once cleared.",
  invalid_link_signature:
    "The invoice PDF link's signature is wrong, or the link was changed: use the invoice's own link.",
  link_expired: "The invoice PDF link expired (links last 7 days): read the invoice again for a fresh one.",
  nothing_to_refund: "Everything captured for this invoice was already refunded.",
  refund_exceeds_captured: "The refund is more than what is left to refund (`refundable_amount`).",
  transaction_not_found: "No transaction with this id in the store.",
  payment_failed: "The payment provider refused the payment; `provider_message` says why.",
  provider_unavailable: "The payment provider did not answer; retry later (nothing was charged twice).",
  invalid_payment_signature: "The payment callback's signature is missing or wrong: nothing was changed.",
  recurring_purchase_not_found: "No recurring purchase with this id in the store (or, for a customer, of theirs).",
  payment_method_not_found: "No saved payment method with this id of the customer's.",
  subscription_not_found: "No subscription with this id in the store (or, for a customer, of theirs).",
  subscription_update_not_found: "No update with this id of this subscription.",
  subscription_update_pending: "The subscription already has a pending update (`update_id`): cancel it first.",
  usage_limit_exceeded: "The increment would take the usage counter past `usage_limit`; `remaining` says what is left.",
  usage_below_zero: "The decrement would take the usage counter below zero; `usage_counter` is what it is.",
  refund_not_possible:
    "The refund asked cannot be made: the period's invoice is not paid, or nothing is left to refund.",
  fulfillment_not_found: "No fulfillment with this id in the store (or, for a customer, of theirs).",
  fulfillment_in_shipment:
    "The fulfillment is in a shipment not yet picked up (`shipment_id`): cancel that shipment first, then the fulfillment.",
  fulfillment_locked:
    "The fulfillment is shipped, delivered or cancelled: the customer can no longer change its date, time, location or notes.",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof orderErrorCodes> {}
}
