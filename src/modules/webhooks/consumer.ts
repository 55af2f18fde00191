import { makeServiceContext, type ServiceContext } from "../../core/context";
import type { EventMessage } from "../../core/events/outbox";
import { deliveryLevel, log, logTaskFailure } from "../../core/logging";
import { createDb } from "../../db/client";
import { deliver } from "./delivery";
import { deliveryIdOf, lastAttempt, logRow, recordAttempt, subscribers, webhookForDelivery } from "./service";
import type { TargetPolicy } from "./target";

/** One event to one webhook; retried on its own, whatever happens to the others. */
export type DeliveryMessage = { kind: "delivery"; event: EventMessage; webhook_id: number; dead_lettered?: true };
export type QueueMessage = EventMessage | DeliveryMessage;

/** Seconds between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (10 attempts). */
export const DEFAULT_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/** The longest delay Queues accepts; longer waits are made of several hops. */
export const QUEUE_MAX_DELAY_S = 43_200;
export const RETRY_AFTER_MAX_S = 86_400;
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export function retryDelays(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS;
  const parsed = raw?.split(",").map((s) => Number(s.trim()));
  return parsed?.length && parsed.every((n) => Number.isFinite(n) && n >= 0) ? parsed : DEFAULT_RETRY_DELAYS;
}

export const targetPolicy = (env: Env): TargetPolicy => ({ allowLocalhost: env.WEBHOOKS_ALLOW_LOCALHOST === "true" });

/** ±10% so that a receiver's outage does not bring every retry back at the same second. */
const jitter = (s: number) => Math.max(1, Math.round(s * (0.9 + Math.random() * 0.2)));

const isDelivery = (m: QueueMessage): m is DeliveryMessage => (m as DeliveryMessage).kind === "delivery";

/** Records an attempt (`recordAttempt`), then logs it: one "webhook delivery" line per attempt. */
async function recordAndLog(...args: Parameters<typeof recordAttempt>): Promise<void> {
  await recordAttempt(...args);
  const row = args[2];
  log({
    msg: "webhook delivery",
    level: deliveryLevel(row.outcome),
    app_id: row.appId,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.event,
    delivery_id: row.deliveryId,
    attempt: row.attempt,
    outcome: row.outcome,
    status_code: row.statusCode ?? null,
    error_class: row.errorClass ?? null,
    ms: row.durationMs,
    next_attempt_at: row.nextAttemptAt ?? null,
  });
}

function context(env: Env, ctx: ExecutionContext, appId: number): ServiceContext {
  return makeServiceContext(createDb(env.DB), appId, env, (p) => ctx.waitUntil(p));
}

/** An event fans out to one delivery message per subscribed webhook. */
async function fanOut(env: Env, event: EventMessage): Promise<void> {
  const targets = await subscribers(createDb(env.DB), event.app_id, event.type);
  for (let i = 0; i < targets.length; i += 100) {
    await env.EVENTS.sendBatch(
      targets.slice(i, i + 100).map((w) => ({
        body: { kind: "delivery", event, webhook_id: w.id } satisfies DeliveryMessage,
        contentType: "json" as const,
      })),
    );
  }
}

async function attempt(
  env: Env,
  ctx: ExecutionContext,
  message: Message<QueueMessage>,
  body: DeliveryMessage,
): Promise<void> {
  const service = context(env, ctx, body.event.app_id);
  const webhook = await webhookForDelivery(service.db, body.event.app_id, body.webhook_id);
  if (!webhook?.isActive) return message.ack();
  const deliveryId = deliveryIdOf(body.event, webhook.id);
  const last = await lastAttempt(service.db, deliveryId);
  if (last && last.outcome !== "retrying") return message.ack(); // already settled: a duplicate message
  const waitS = last?.nextAttemptAt ? Math.ceil((Date.parse(last.nextAttemptAt) - Date.now()) / 1000) : 0;
  if (waitS > 1) return message.retry({ delaySeconds: Math.min(waitS, QUEUE_MAX_DELAY_S) }); // a hop of a long wait

  const n = (last?.attempt ?? 0) + 1;
  const result = await deliver(webhook, body.event, deliveryId, targetPolicy(env));
  const trigger = n === 1 ? "event" : "retry";
  if (result.ok) {
    await recordAndLog(
      service,
      webhook,
      logRow(webhook, body.event, result, { attempt: n, trigger, outcome: "delivered", nextAttemptAt: null }),
      { delivered: true },
    );
    return message.ack();
  }
  if (result.gone) {
    await recordAndLog(
      service,
      webhook,
      logRow(webhook, body.event, result, { attempt: n, trigger, outcome: "disabled", nextAttemptAt: null }),
      {
        delivered: false,
        disable: "The target answered 410 Gone.",
      },
    );
    return message.ack();
  }
  const failingFor = webhook.failingSince ? Date.now() - Date.parse(webhook.failingSince) : 0;
  if (failingFor >= DISABLE_AFTER_MS) {
    await recordAndLog(
      service,
      webhook,
      logRow(webhook, body.event, result, { attempt: n, trigger, outcome: "disabled", nextAttemptAt: null }),
      {
        delivered: false,
        disable: "Every delivery failed for 5 days.",
      },
    );
    return message.ack();
  }
  const delays = retryDelays(env);
  if (n > delays.length) {
    await recordAndLog(
      service,
      webhook,
      logRow(webhook, body.event, result, { attempt: n, trigger, outcome: "failed", nextAttemptAt: null }),
      { delivered: false },
    );
    await env.EVENTS_DLQ.send({ ...body, dead_lettered: true } satisfies DeliveryMessage, { contentType: "json" });
    return message.ack();
  }
  let delay = jitter(delays[n - 1]!);
  if (result.retryAfterS !== null) delay = Math.max(delay, Math.min(result.retryAfterS, RETRY_AFTER_MAX_S));
  const next = new Date(Date.now() + delay * 1000).toISOString();
  await recordAndLog(
    service,
    webhook,
    logRow(webhook, body.event, result, { attempt: n, trigger, outcome: "retrying", nextAttemptAt: next }),
    { delivered: false },
  );
  message.retry({ delaySeconds: Math.min(delay, QUEUE_MAX_DELAY_S) });
}

/**
 * The consumer of the events queue: events fan out to deliveries, deliveries are attempted and
 * retried one by one on the schedule, then dead-lettered.
 */
export async function consumeEvents(batch: MessageBatch<QueueMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        if (isDelivery(message.body)) await attempt(env, ctx, message, message.body);
        else {
          await fanOut(env, message.body);
          message.ack();
        }
      } catch (error) {
        // The body may be what made it fail: read it without trusting its shape.
        const body = message.body as Partial<DeliveryMessage & EventMessage> | null;
        const event = body?.kind === "delivery" ? body.event : body;
        logTaskFailure("queue message", error, {
          app_id: event?.app_id,
          message_id: message.id,
          event_id: event?.id,
        });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}

/**
 * The dead-letter queue: deliveries that ran out of attempts (already logged as failed), and
 * messages the consumer kept failing on, which are logged as failed here.
 */
export async function consumeDeadLetters(
  batch: MessageBatch<QueueMessage>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    if (isDelivery(body) && !body.dead_lettered) {
      const service = context(env, ctx, body.event.app_id);
      const webhook = await webhookForDelivery(service.db, body.event.app_id, body.webhook_id);
      const last = webhook && (await lastAttempt(service.db, deliveryIdOf(body.event, webhook.id)));
      if (webhook && (!last || last.outcome === "retrying")) {
        const result = {
          ok: false,
          gone: false,
          statusCode: null,
          durationMs: 0,
          responseBody: "Dead-lettered after the consumer failed repeatedly.",
          errorClass: null,
          retryAfterS: null,
        };
        await recordAndLog(
          service,
          webhook,
          logRow(webhook, body.event, result, {
            attempt: (last?.attempt ?? 0) + 1,
            trigger: "retry",
            outcome: "failed",
            nextAttemptAt: null,
          }),
          { delivered: false },
        );
      }
    } else if (!isDelivery(body)) {
      logTaskFailure("fan out event", `The ${body.type} event was dead-lettered before fan-out.`, {
        app_id: body.app_id,
        message_id: message.id,
        event_id: body.id,
      });
    }
    message.ack();
  }
}
