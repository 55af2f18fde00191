import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { type EventMessage, newEvent } from "../../src/core/events/outbox";
import { deliveryIdOf } from "../../src/modules/webhooks/ledger";
import type { DeliveryMessage, QueueMessage } from "../../src/modules/webhooks/messages";
import { type DeliveryRow, webhookDeliveries } from "../../src/modules/webhooks/tables";
import webhooksWorker from "../../src/webhooks-worker";
import { APP_1, db, shardFor } from "../helpers/factories";

/** What the consumer sent, per queue, instead of sending it. */
export type Sent = { fast: QueueMessage[]; slow: QueueMessage[]; dlq: QueueMessage[] };

/** The env the consumer gets, with the queue producers recorded instead of sent. */
export function recordingEnv(vars: Partial<Env> = {}) {
  const sent: Sent = { fast: [], slow: [], dlq: [] };
  const queue = (into: QueueMessage[]) => ({
    send: async (body: QueueMessage) => void into.push(body),
    sendBatch: async (msgs: { body: QueueMessage }[]) => {
      for (const m of msgs) into.push(m.body);
    },
  });
  const e = { ...env, EVENTS: queue(sent.fast), WEBHOOKS_SLOW: queue(sent.slow), EVENTS_DLQ: queue(sent.dlq), ...vars };
  return { env: e as unknown as Env, sent };
}

/** Runs a batch of one or more messages through the webhooks' consumer Worker's queue handler, on `queue`. */
export async function consume(
  bodies: QueueMessage | QueueMessage[],
  opts: { queue?: string; vars?: Partial<Env>; onAck?: (messageId: string) => void } = {},
) {
  const { env: e, sent } = recordingEnv(opts.vars);
  const list = Array.isArray(bodies) ? bodies : [bodies];
  const batch = createMessageBatch<QueueMessage>(
    opts.queue ?? "commerce-events",
    list.map((body, i) => ({ id: `m${i + 1}`, timestamp: new Date(), attempts: 1, body })),
  );
  // getQueueResult tells that a message was retried, not with what delay: record it here.
  const retries = batch.messages.map((m) => vi.spyOn(m, "retry"));
  // When each message is acknowledged, as it happens (the consumer settles them one by one).
  for (const m of batch.messages) {
    const ack = m.ack.bind(m);
    vi.spyOn(m, "ack").mockImplementation(() => {
      ack();
      opts.onAck?.(m.id);
    });
  }
  const ctx = createExecutionContext();
  // What the consumer hands to waitUntil: a rejection there is the runtime's "uncaught" error.
  const deferred: Promise<unknown>[] = [];
  const waitUntil = ctx.waitUntil.bind(ctx);
  ctx.waitUntil = (p: Promise<unknown>) => {
    deferred.push(p);
    waitUntil(p);
  };
  await webhooksWorker.queue(batch, e, ctx);
  const delays = retries.flatMap((r) => r.mock.calls.map(([o]) => o?.delaySeconds));
  return { result: await getQueueResult(batch, ctx), sent, delays, deferred };
}

export const ticketEvent = (appId = APP_1): EventMessage =>
  newEvent(appId, "ticket.updated", { id: 7, previous_status: "pending", changes: { status: "confirmed" } });

export const deliveryOf = (event: EventMessage, webhookId: number): DeliveryMessage => ({
  kind: "delivery",
  event,
  webhook_id: webhookId,
});

/** A ledger row for (event, webhook), as fan-out writes it, with `overrides`. */
export async function ledgerRow(
  webhook: { id: number; appId: number },
  event: EventMessage,
  overrides: Partial<typeof webhookDeliveries.$inferInsert> = {},
): Promise<DeliveryRow> {
  const now = new Date().toISOString();
  const [row] = await db(webhook.appId)
    .insert(webhookDeliveries)
    .values({
      appId: webhook.appId,
      webhookId: webhook.id,
      eventId: event.id,
      event: event.type,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returning();
  return row!;
}

/** The ledger row of (event, webhook), on the event's store's shard (ids are unique per shard only). */
export async function deliveryRow(event: { id: string; app_id?: number }, webhookId: number) {
  const appId = event.app_id ?? APP_1;
  return shardFor(appId)
    .prepare("SELECT * FROM webhook_deliveries WHERE event_id = ? AND webhook_id = ? AND app_id = ?")
    .bind(event.id, webhookId, appId)
    .first<Record<string, any>>();
}

export async function deliveriesOfWebhook(webhookId: number, appId = APP_1) {
  const r = await shardFor(appId)
    .prepare("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND app_id = ? ORDER BY id")
    .bind(webhookId, appId)
    .all<Record<string, any>>();
  return r.results;
}

export async function logsOf(webhookId: number, appId = APP_1) {
  const r = await shardFor(appId)
    .prepare("SELECT * FROM webhook_logs WHERE webhook_id = ? AND app_id = ? ORDER BY id")
    .bind(webhookId, appId)
    .all<Record<string, any>>();
  return r.results;
}

export const webhookRow = (id: number, appId = APP_1) =>
  shardFor(appId)
    .prepare("SELECT * FROM webhooks WHERE id = ? AND app_id = ?")
    .bind(id, appId)
    .first<Record<string, any>>();

/** Puts an event in the outbox, as emit() does, so that re-sends can find its payload. */
export async function inOutbox(event: EventMessage) {
  await shardFor(event.app_id)
    .prepare("INSERT INTO outbox_events (id, app_id, type, payload, created_at, enqueued_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(event.id, event.app_id, event.type, JSON.stringify(event), new Date().toISOString(), new Date().toISOString())
    .run();
}

export { deliveryIdOf };
