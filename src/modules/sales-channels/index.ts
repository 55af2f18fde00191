/** What the app and other modules may use of sales channels. */
export { connectedProviderAppIds, isConnectionActive } from "./connections";
export { salesChannelErrorCodes } from "./errors";
export { redeliverConnectionEvents } from "./event-deliveries";
export { salesChannelEvents } from "./events";
export { type ChannelShard, channelShards } from "./store-shards";
