/**
 * Every event name this API emits. Webhooks subscribe to these names; the payload of each
 * delivery is `{ id, type, event, app_id, timestamp, data }` (see docs/interface-decisions.md).
 */
export const EVENT_TYPES = {
  "ticket.created": "A ticket was issued (status `pending`).",
  "ticket.updated": "A ticket's status, date or time changed (bulk update).",
  "ticket.checked_in": "A ticket's token was validated and the ticket checked in.",
  "order.created": "An order was placed.",
  "item.created": "An item was created.",
  "item.updated": "An item was updated.",
  "item.deleted": "An item was deleted.",
  "webhook.test": "Sent by Test Webhook.",
  "webhook.disabled": "A webhook was disabled: its target answered 410 Gone, or every attempt failed for 5 days.",
} as const;

export type EventType = keyof typeof EVENT_TYPES;
