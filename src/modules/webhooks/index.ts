/** What the app and other modules may use of the webhooks module. */
export { EVENT_CATALOGUE, EVENT_TYPES, eventEnvelopeSchema } from "./catalogue";
export { consumeDeadLetters, consumeEvents, type QueueMessage } from "./consumer";
export { webhookErrorCodes } from "./errors";
export { webhookEvents } from "./events";
export { webhooksMerchantRouter } from "./merchant";
