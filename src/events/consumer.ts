import type { EventMessage } from "./outbox";

/**
 * The queue consumer. Delivering events to webhooks is the webhooks module's work; until it
 * lands, every well-formed event is acknowledged (its outbox row stays as the record).
 */
export async function consumeEvents(batch: MessageBatch<EventMessage>, _env: Env): Promise<void> {
  for (const message of batch.messages) {
    message.ack();
  }
}
