import type { EventMessage } from "../../core/events/outbox";
import type { Lane } from "./delivery";
import type { WebhookRow } from "./tables";

/**
 * What the webhook queues carry. The publisher sends events (`EventMessage`) to the fast lane, whose
 * consumer makes the first attempt of each of their deliveries at once (no second hop); every later
 * attempt is a `DeliveryMessage` of its own (a retry, a move to the slow lane, a re-send), settled on
 * its own. The ledger, not the message, holds the delivery's state: a duplicate message finds the
 * attempt taken (see `claim`) and is dropped.
 */
export type DeliveryMessage = {
  kind: "delivery";
  event: EventMessage;
  webhook_id: number;
  /** Put on the dead-letter queue by the consumer itself, after the delivery was recorded failed. */
  dead_lettered?: true;
};
export type QueueMessage = EventMessage | DeliveryMessage;

export const isDelivery = (m: QueueMessage): m is DeliveryMessage => (m as DeliveryMessage).kind === "delivery";

/** The longest delay Queues accepts; longer waits are made of several hops. */
export const QUEUE_MAX_DELAY_S = 43_200;

/** The two lanes: first attempts to receivers that answer, and everything else. */
export type Lanes = Record<Lane, Queue>;
export const lanesOf = (env: Pick<Env, "EVENTS" | "WEBHOOKS_SLOW">): Lanes => ({
  fast: env.EVENTS,
  slow: env.WEBHOOKS_SLOW,
});

/**
 * A webhook whose last attempt was slow (timed out, or took more than a second) goes to the slow
 * lane until an attempt there is quick again: a receiver that stopped answering waits out its
 * timeouts away from every other store's first attempts. Quick failures (a 500 at once) hold no
 * one up and stay on the fast lane.
 */
export const laneFor = (webhook: Pick<WebhookRow, "slowSince">): Lane => (webhook.slowSince ? "slow" : "fast");

export const deliveryMessage = (event: EventMessage, webhookId: number): DeliveryMessage => ({
  kind: "delivery",
  event,
  webhook_id: webhookId,
});

/**
 * Sends delivery messages to a lane, in sends of at most 100 (the Queues batch limit), after
 * `delaySeconds` (one for all, or one each).
 */
export async function sendDeliveries(
  queue: Queue,
  messages: DeliveryMessage[],
  delaySeconds: number | number[] = 0,
): Promise<void> {
  const delay = (i: number) =>
    Math.min(typeof delaySeconds === "number" ? delaySeconds : (delaySeconds[i] ?? 0), QUEUE_MAX_DELAY_S);
  for (let i = 0; i < messages.length; i += 100) {
    await queue.sendBatch(
      messages.slice(i, i + 100).map((body, j) => ({
        body,
        contentType: "json" as const,
        ...(delay(i + j) > 0 && { delaySeconds: delay(i + j) }),
      })),
    );
  }
}
