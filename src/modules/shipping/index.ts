export { shippingErrorCodes } from "./errors";
export { shippingEvents } from "./events";
export { pollCarrierTracking } from "./shipments/tracking";
