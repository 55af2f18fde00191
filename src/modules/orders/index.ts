/** What the app and other modules may use of orders and money. */
export { ordersCustomerRouter } from "./customer";
export { orderErrorCodes } from "./errors";
export { orderEvents } from "./events";
export {
  type FulfillmentForShipment,
  fulfillmentShipmentStatements,
  fulfillmentsForShipment,
  type ShipmentLink,
} from "./fulfillments/shipping";
export { ordersMerchantRouter } from "./merchant";
export { expireUnpaidOrders } from "./orders/service";
export { ordersPublicRouter } from "./public";
export { chargeDueRecurringPurchases } from "./recurring/charge";
export { storeWalletBalanceSql, storeWalletEntryStatement } from "./store-wallet/service";
export { renewSubscriptionsJob } from "./subscriptions/job";
export { queueDueSubscriptions, renewSubscriptions } from "./subscriptions/renewal";
