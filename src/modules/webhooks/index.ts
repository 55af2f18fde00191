/** What the app and other modules may use of the webhooks module. */
export { EVENT_CATALOGUE, EVENT_TYPES, eventEnvelopeSchema } from "./catalogue";
export { consumeDeadLetters, consumeDeliveries } from "./consumer";
export { webhookErrorCodes } from "./errors";
export { webhookEvents } from "./events";
export { recordDeliveries } from "./ledger";
export type { QueueMessage } from "./messages";
export { reconcileDeliveries } from "./reconcile";
