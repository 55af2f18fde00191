/** What the app and other modules may use of orders and money. */
export { pricingOf } from "./carts/pricing";
export { CHECKOUT_PROVIDERS, type CheckoutProvider } from "./checkout/config";
export {
  type OrderInputs,
  type OrderStep,
  type PlacedOrder,
  type PlaceOrder,
  placeOrder,
  placeOrderShown,
  readOrderInputs,
} from "./checkout/place";
export { type CheckoutResult, CheckoutResultSchema } from "./checkout/schemas";
export { checkoutResult } from "./checkout/service";
export { orderErrorCodes } from "./errors";
export { orderEvents } from "./events";
export {
  type FulfillmentForShipment,
  type FulfillmentStatus,
  fulfillmentCancelledSql,
  fulfillmentShipmentStatements,
  fulfillmentStatusesOf,
  fulfillmentsForShipment,
  fulfillmentsOpenSql,
  type ShipmentLink,
} from "./fulfillments/shipping";
export { linksOf } from "./http";
export { InvoiceListSchema } from "./invoices/schemas";
export { INVOICE_LIST, listInvoicesOfOrders } from "./invoices/service";
export { OrderSchema } from "./orders/schemas";
export { expireUnpaidOrders } from "./orders/service";
export { type LinkContext, loadOrders } from "./orders/views";
export { onOrderPaid, type PaidHook } from "./payments/paid";
export { type Quote, quoteServiceLinesOf, type ServiceLineInput } from "./pricing/quote";
export { chargeDueRecurringPurchases } from "./recurring/charge";
export { storeWalletBalanceSql, storeWalletEntryStatement } from "./store-wallet/service";
export { renewSubscriptionsJob } from "./subscriptions/job";
export { queueDueSubscriptions, renewSubscriptions } from "./subscriptions/renewal";
