/** What the app and other modules may use of sales channels. */
export { connectedProviderAppIds, connectedProviderAppIdsSql, isConnectionActive } from "./connections";
export { salesChannelErrorCodes } from "./errors";
export { salesChannelEvents } from "./events";
