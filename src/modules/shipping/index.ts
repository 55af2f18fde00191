/** What the app and other modules may use of the shipping module. */
export { shippingCustomerRouter } from "./customer";
export { shippingErrorCodes } from "./errors";
export { shippingEvents } from "./events";
export { shippingMerchantRouter } from "./merchant";
export { shippingPublicRouter } from "./public";
export { pollCarrierTracking } from "./shipments/tracking";
