/** What the app and other modules may use of the customers module. */
export { customerAccountRouter } from "./customer";
export { customerErrorCodes } from "./errors";
export { customerEvents } from "./events";
export { customersMerchantRouter } from "./merchant";
