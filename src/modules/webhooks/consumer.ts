import { and, eq } from "drizzle-orm";
import type { EventMessage } from "../../core/events/outbox";
import { logTaskFailure } from "../../core/logging";
import type { Db } from "../../db/client";
import { groupByShard, storeDb } from "../../db/shards";
import { type AttemptContext, leaseMs, logRow, type Made, makeAttempt, recordAttempts } from "./attempt";
import { ATTEMPT_TIMEOUT_MS, type Lane } from "./delivery";
import { connectionGate } from "./gate";
import {
  claim,
  claimFirsts,
  type Delivery,
  deliveriesOf,
  isFinal,
  openUnleased,
  recordDeliveries,
  recordNamedDeliveries,
  releaseClaim,
  type SkipReason,
} from "./ledger";
import {
  type DeliveryMessage,
  deliveryMessage,
  isDelivery,
  laneFor,
  lanesOf,
  QUEUE_MAX_DELAY_S,
  type QueueMessage,
  sendDeliveries,
} from "./messages";
import { type WebhookRow, webhookDeliveries, webhookLogs } from "./tables";

export type { DeliveryMessage, QueueMessage } from "./messages";

const eventOf = (m: QueueMessage): EventMessage => (isDelivery(m) ? m.event : m);

async function skip(x: AttemptContext, d: Delivery["delivery"], reason: SkipReason): Promise<void> {
  const now = new Date().toISOString();
  await x.db
    .update(webhookDeliveries)
    .set({ status: "skipped", skipReason: reason, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, d.id), openUnleased(now)));
}

/** Deliveries of the event still to be made: a first attempt here, or none at all. */
const firstsOf = (event: EventMessage, found: Delivery[]) =>
  found.filter((f) => f.delivery.eventId === event.id && f.delivery.status === "pending" && f.delivery.attempts === 0);

/** Of these, the ones this lane attempts at once: live, on, and quick to answer. */
const attemptable = (x: AttemptContext, f: Delivery) =>
  Boolean(f.webhook && !f.webhook.isDeleted && f.webhook.isActive && laneFor(f.webhook) === x.lane);

/** An attempt that was not made: its webhook was found slow in this batch meanwhile (gate.ts). */
const MOVED = Symbol("moved");

/**
 * Makes an attempt once its webhook has a connection (gate.ts), or none (MOVED) when the webhook
 * was tripped in this batch meanwhile: by a slow attempt on the fast lane, so that the batch's other
 * deliveries to it wait on the slow lane, not here; by a timeout on the slow lane, so that a batch
 * does not wait out one receiver's timeouts a few at a time.
 */
async function withConnection(x: AttemptContext, webhookId: number, attempt: () => Promise<Made | null>) {
  const slot = await x.gate.take(webhookId);
  if (!slot) return MOVED;
  try {
    const made = await attempt();
    const trips = x.lane === "fast" ? made?.next.lane === "slow" : made?.settlement.errorClass === "timeout";
    if (trips) x.gate.trip(webhookId);
    return made;
  } finally {
    slot.release();
  }
}

/** A first attempt the batch claimed: made, or given back and sent to the slow lane. */
async function firstAttempt(x: AttemptContext, d: Delivery["delivery"], webhook: WebhookRow, event: EventMessage) {
  const made = await withConnection(x, webhook.id, () => makeAttempt(x, d, webhook, event));
  if (made !== MOVED) return made;
  await releaseClaim(x.db, d.id, 1);
  await sendDeliveries(lanesOf(x.env).slow, [deliveryMessage(event, webhook.id)]);
  return null;
}

/**
 * An event: the first attempt of each of its deliveries, side by side. Deliveries of a slow webhook
 * go to the slow lane as messages; those of a webhook now off or deleted end skipped. The batch
 * claimed the attempts in one statement.
 */
async function fanOut(x: AttemptContext, event: EventMessage, found: Delivery[], claimed: Set<number>) {
  const toSlow: DeliveryMessage[] = [];
  const work: Promise<Made | null>[] = [];
  for (const f of firstsOf(event, found)) {
    const { delivery: d, webhook } = f;
    if (!webhook || webhook.isDeleted) work.push(skip(x, d, "webhook_deleted").then(() => null));
    else if (!webhook.isActive) work.push(skip(x, d, "webhook_disabled").then(() => null));
    else if (!attemptable(x, f)) toSlow.push(deliveryMessage(event, webhook.id));
    else if (claimed.has(d.id)) work.push(firstAttempt(x, d, webhook, event));
  }
  // All awaited together, so that none fails unobserved while another is awaited.
  const [made] = await Promise.all([Promise.all(work), sendDeliveries(lanesOf(x.env).slow, toSlow)]);
  return made.filter((m): m is Made => m !== null);
}

/**
 * Records first attempts, then sends each retry as a message of its own (on the slow lane if its
 * attempt was slow). Until they are recorded, the deliveries are held by their claim; if recording
 * fails, the reconciler finds them when it expires.
 */
async function recordFirsts(x: AttemptContext, made: Made[]) {
  await recordAttempts(x, made);
  const retries = made.filter((m) => m.next.retryS > 0);
  for (const lane of ["fast", "slow"] as const) {
    const mine = retries.filter((m) => m.next.lane === lane);
    await sendDeliveries(
      lanesOf(x.env)[lane],
      mine.map((m) => deliveryMessage(m.event, m.webhook.id)),
      mine.map((m) => m.next.retryS),
    );
  }
}

/**
 * Records each event's first attempts as soon as they are made, not when the batch's slowest is:
 * a receiver that never answers holds up no other event's record or acknowledgement. Events whose
 * attempts end while a record is being written go together into the next one, so a burst of quick
 * attempts still costs a few D1 batches, not one per event (the difference between a third and
 * more than half of what a receiver takes).
 */
function firstsRecorder(x: AttemptContext) {
  let waiting: { made: Made[]; done: (error?: unknown) => void }[] = [];
  let writing = false;
  async function write() {
    writing = true;
    while (waiting.length) {
      const group = waiting;
      waiting = [];
      const error = await recordFirsts(
        x,
        group.flatMap((g) => g.made),
      ).then(
        () => undefined,
        (e: unknown) => e ?? new Error("recording failed"),
      );
      for (const g of group) g.done(error);
    }
    writing = false;
  }
  return (made: Made[]) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ made, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!writing) void write();
    });
}

/**
 * One delivery message: nothing (the delivery is final, or another message holds it), a skip (its
 * webhook is off or deleted), a hop (its next attempt is hours away), a move to the slow lane (its
 * webhook is failing), or an attempt, after which the message waits for the next one.
 */
async function deliverOne(x: AttemptContext, message: Message<QueueMessage>, body: DeliveryMessage, found: Delivery[]) {
  if (body.dead_lettered) return message.ack(); // the dead-letter queue's, sent here by mistake
  const one = found.find((f) => f.delivery.eventId === body.event.id && f.delivery.webhookId === body.webhook_id);
  if (!one) {
    const why = "The delivery message names a webhook that no longer exists.";
    logTaskFailure("queue message", why, {
      app_id: body.event.app_id,
      message_id: message.id,
      event_id: body.event.id,
    });
    return message.ack();
  }
  const { delivery: d, webhook } = one;
  if (isFinal(d.status)) return message.ack();
  if (!webhook || webhook.isDeleted) return skip(x, d, "webhook_deleted").then(() => message.ack());
  if (!webhook.isActive) return skip(x, d, "webhook_disabled").then(() => message.ack());
  const waitS = d.nextAttemptAt ? Math.ceil((Date.parse(d.nextAttemptAt) - Date.now()) / 1000) : 0;
  if (waitS > 1) return message.retry({ delaySeconds: Math.min(waitS, QUEUE_MAX_DELAY_S) });
  // Back on the slow lane: at once from the fast lane; from the slow lane, once its timeouts are over.
  const toSlow = () =>
    sendDeliveries(
      lanesOf(x.env).slow,
      [deliveryMessage(body.event, webhook.id)],
      x.lane === "slow" ? ATTEMPT_TIMEOUT_MS.slow / 1000 : 0,
    );
  if (x.lane === "fast" && laneFor(webhook) === "slow") return toSlow().then(() => message.ack());
  // Claimed once it has a connection, so that a delivery moved meanwhile holds no claim.
  const made = await withConnection(x, webhook.id, async () =>
    (await claim(x.db, d, leaseMs(x.lane))) ? makeAttempt(x, d, webhook, body.event) : null,
  );
  if (made === MOVED) return toSlow().then(() => message.ack());
  if (!made) return message.ack(); // another message holds the delivery
  await recordAttempts(x, [made]);
  if (made.next.retryS > 0) return message.retry({ delaySeconds: Math.min(made.next.retryS, QUEUE_MAX_DELAY_S) });
  message.ack();
}

/**
 * The consumer of a webhook lane. Events (fast lane) get the first attempts of their deliveries at
 * once; delivery messages (retries, moves to the slow lane, re-sends) get the attempt they carry.
 * The ledger rows of the whole batch are read, written if missing, and the first attempts claimed,
 * in a few statements; then every message is handled side by side and settled on its own, as soon
 * as its own attempts are recorded: an exception retries that message only, and the claim keeps a
 * retried message from attempting twice.
 */
export async function consumeDeliveries(
  batch: MessageBatch<QueueMessage>,
  env: Env,
  ctx: ExecutionContext,
  lane: Lane,
): Promise<void> {
  // A batch mixes stores: each shard's messages are handled as a batch of their own, side by side.
  const groups = await groupByShard(env, batch.messages, (m) => eventOf(m.body).app_id);
  await Promise.all(
    groups.map(({ db, items }) =>
      consumeOnShard(
        {
          messages: items,
          retryAll: (o) => {
            for (const m of items) m.retry(o);
          },
        },
        db,
        env,
        ctx,
        lane,
      ),
    ),
  );
}

/** One shard's messages of a batch. */
async function consumeOnShard(
  batch: Pick<MessageBatch<QueueMessage>, "messages" | "retryAll">,
  db: Db,
  env: Env,
  ctx: ExecutionContext,
  lane: Lane,
): Promise<void> {
  const x: AttemptContext = { env, ctx, db, lane, gate: connectionGate() };
  const bodies = batch.messages.map((m) => m.body);
  let found: Delivery[];
  let claimed: Set<number>;
  try {
    const ids = [...new Set(bodies.map(eventOf).map((e) => e.id))];
    found = await deliveriesOf(x.db, ids);
    // The publisher wrote the rows of every event it sent; an event that reached the queue another
    // way, or a delivery message from before the ledger, gets them here.
    const events = bodies.filter((b): b is EventMessage => !isDelivery(b));
    const unrecorded = events.filter((e) => !found.some((f) => f.delivery.eventId === e.id));
    const named = bodies.filter(isDelivery).filter((b) => !b.dead_lettered);
    const missing = named.filter(
      (b) => !found.some((f) => f.delivery.eventId === b.event.id && f.delivery.webhookId === b.webhook_id),
    );
    if (unrecorded.length || missing.length) {
      await recordDeliveries(x.db, unrecorded);
      await recordNamedDeliveries(x.db, missing);
      found = await deliveriesOf(x.db, ids);
    }
    const firsts = events.flatMap((e) => firstsOf(e, found)).filter((f) => attemptable(x, f));
    claimed = await claimFirsts(
      x.db,
      firsts.map((f) => f.delivery.id),
      leaseMs(x.lane),
    );
  } catch (error) {
    logTaskFailure("queue message", error, { message_id: batch.messages[0]?.id });
    return batch.retryAll({ delaySeconds: 30 });
  }
  const record = firstsRecorder(x);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const body = message.body;
        if (isDelivery(body)) return await deliverOne(x, message, body, found);
        await record(await fanOut(x, body, found, claimed));
        message.ack();
      } catch (error) {
        failed(message, error);
      }
    }),
  );
}

/** A message the consumer failed on: logged, and retried on its own. */
function failed(message: Message<QueueMessage>, error: unknown) {
  // The body may be what made it fail: read it without trusting its shape.
  const body = message.body as Partial<DeliveryMessage & EventMessage> | null;
  const event = body?.kind === "delivery" ? body.event : body;
  logTaskFailure("queue message", error, { app_id: event?.app_id, message_id: message.id, event_id: event?.id });
  message.retry({ delaySeconds: 30 });
}

/**
 * The dead-letter queue: deliveries that ran out of attempts (already recorded failed) are
 * dropped; a delivery the consumer kept failing on is recorded failed here. An event the consumer
 * kept failing on is left to the reconciler, which re-sends its open deliveries one by one.
 */
export async function consumeDeadLetters(
  batch: MessageBatch<QueueMessage>,
  env: Env,
  _ctx: ExecutionContext,
): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    const db = await storeDb(env, eventOf(body).app_id);
    if (isDelivery(body) && !body.dead_lettered) {
      const [one] = (await deliveriesOf(db, [body.event.id])).filter((f) => f.delivery.webhookId === body.webhook_id);
      if (one?.webhook && !isFinal(one.delivery.status)) {
        const at = new Date().toISOString();
        const reason = "Dead-lettered after the consumer failed repeatedly.";
        const attempt = one.delivery.attempts + 1;
        const result = {
          ok: false,
          gone: false,
          statusCode: null,
          durationMs: 0,
          responseBody: reason,
          errorClass: null,
          retryAfterS: null,
        };
        await db.batch([
          db
            .update(webhookDeliveries)
            .set({ status: "failed", nextAttemptAt: null, leasedUntil: null, lastError: reason, updatedAt: at })
            .where(and(eq(webhookDeliveries.id, one.delivery.id), openUnleased(at))),
          db.insert(webhookLogs).values(
            logRow(one.webhook, body.event, result, {
              attempt,
              trigger: "retry",
              outcome: "failed",
              nextAttemptAt: null,
            }),
          ),
        ]);
      }
    } else if (!isDelivery(body)) {
      logTaskFailure("fan out event", `The ${body.type} event was dead-lettered before its first attempts.`, {
        app_id: body.app_id,
        message_id: message.id,
        event_id: body.id,
      });
    }
    message.ack();
  }
}
