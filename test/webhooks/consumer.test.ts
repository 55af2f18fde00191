import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newEvent } from "../../src/core/events/outbox";
import worker from "../../src/index";
import type { DeliveryMessage, QueueMessage } from "../../src/modules/webhooks/consumer";
import { APP_1, countRows, createWebhookFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";

afterEach(() => vi.restoreAllMocks());

/** The env the consumer gets, with the queue producers recorded instead of sent. */
function recordingEnv() {
  const sent = { events: [] as unknown[], dlq: [] as unknown[] };
  const queue = (into: unknown[]) => ({
    send: async (body: unknown) => void into.push(body),
    sendBatch: async (msgs: { body: unknown }[]) => void into.push(...msgs.map((m) => m.body)),
  });
  return { env: { ...env, EVENTS: queue(sent.events), EVENTS_DLQ: queue(sent.dlq) } as unknown as Env, sent };
}

async function consume(body: QueueMessage, queue = "commerce-events") {
  const { env: e, sent } = recordingEnv();
  const batch = createMessageBatch<QueueMessage>(queue, [{ id: "m1", timestamp: new Date(), attempts: 1, body }]);
  // getQueueResult tells that a message was retried, not with what delay: record it here.
  const retry = vi.spyOn(batch.messages[0]!, "retry");
  const ctx = createExecutionContext();
  await worker.queue(batch, e, ctx);
  const delays = retry.mock.calls.map(([opts]) => opts?.delaySeconds);
  return { result: await getQueueResult(batch, ctx), sent, delays };
}

const delivery = (webhookId: number, type: "ticket.updated" = "ticket.updated"): DeliveryMessage => ({
  kind: "delivery",
  event: newEvent(APP_1, type, { id: 7, previous_status: "pending", changes: { status: "confirmed" } }),
  webhook_id: webhookId,
});

const logsOf = (webhookId: number) =>
  env.DB.prepare("SELECT * FROM webhook_logs WHERE webhook_id = ? ORDER BY attempt")
    .bind(webhookId)
    .all<Record<string, any>>()
    .then((r) => r.results);
const webhookRow = (id: number) =>
  env.DB.prepare("SELECT * FROM webhooks WHERE id = ?").bind(id).first<Record<string, any>>();

async function priorAttempts(webhookId: number, msg: DeliveryMessage, n: number, nextAttemptAt: string) {
  for (let i = 1; i <= n; i++) {
    await env.DB.prepare(
      "INSERT INTO webhook_logs (app_id, webhook_id, delivery_id, event_id, event, attempt, " +
        "trigger, status_code, duration_ms, outcome, next_attempt_at, created_at) VALUES (?, ?, " +
        "?, ?, ?, ?, ?, 500, 3, 'retrying', ?, ?)",
    )
      .bind(
        APP_1,
        webhookId,
        `${msg.event.id}.${webhookId}`,
        msg.event.id,
        msg.event.type,
        i,
        i === 1 ? "event" : "retry",
        nextAttemptAt,
        new Date().toISOString(),
      )
      .run();
  }
}

describe("fan-out", () => {
  it("turns an event into one delivery message per active webhook subscribed to it", async () => {
    const a = await createWebhookFor(APP_1, { events: ["ticket.created", "item.deleted"] });
    const b = await createWebhookFor(APP_1, { events: ["item.deleted"] });
    await createWebhookFor(APP_1, { events: ["item.deleted"], isActive: false });
    await createWebhookFor(APP_1, { events: ["item.deleted"], isDeleted: true });
    await createWebhookFor(APP_1, { events: ["ticket.created"] });
    const event = newEvent(APP_1, "item.deleted", { id: 1 });
    const { result, sent } = await consume(event);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(sent.events).toEqual([
      { kind: "delivery", event, webhook_id: a.id },
      { kind: "delivery", event, webhook_id: b.id },
    ]);
  });
});

describe("a delivery", () => {
  it("2xx: signed, with the webhook's headers, acknowledged and logged as delivered", async () => {
    const w = await createWebhookFor(APP_1, {
      headers: { "X-Api-Key": "k", "Webhook-Id": "forged" },
      failingSince: "2026-01-01T00:00:00.000Z",
    });
    const received = fakeReceiver(() => new Response("got it", { status: 202 }));
    const msg = delivery(w.id);
    const { result } = await consume(msg);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    const [req] = received;
    expect(req!.headers["webhook-id"]).toBe(`${msg.event.id}.${w.id}`);
    expect(req!.headers["x-api-key"]).toBe("k");
    expect(req!.redirect).toBe("manual");
    expect(new Webhook(w.secretKey).verify(req!.body, req!.headers)).toEqual(msg.event);
    const [log] = await logsOf(w.id);
    expect(log).toMatchObject({
      attempt: 1,
      trigger: "event",
      status_code: 202,
      outcome: "delivered",
      response_body: "got it",
      error_class: null,
      next_attempt_at: null,
    });
    expect((await webhookRow(w.id))!.failing_since).toBeNull();
  });

  it("5xx: retried on its own after ~5 s, logged with the next attempt time", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(() => new Response("oops", { status: 500 }));
    const { result, delays } = await consume(delivery(w.id));
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(4);
    expect(delays[0]).toBeLessThanOrEqual(6);
    const [log] = await logsOf(w.id);
    expect(log).toMatchObject({ attempt: 1, status_code: 500, outcome: "retrying", error_class: "http" });
    expect(Date.parse(log!.next_attempt_at) - Date.now()).toBeGreaterThan(3000);
    expect((await webhookRow(w.id))!.failing_since).not.toBeNull();
  });

  it("the second attempt waits ~5 minutes, and honours a longer Retry-After", async () => {
    const w = await createWebhookFor(APP_1);
    const msg = delivery(w.id);
    await priorAttempts(w.id, msg, 1, new Date(Date.now() - 1000).toISOString());
    fakeReceiver(() => new Response("busy", { status: 503, headers: { "Retry-After": "3600" } }));
    const { delays } = await consume(msg);
    expect(delays).toEqual([3600]);
    expect((await logsOf(w.id))[1]).toMatchObject({ attempt: 2, trigger: "retry", outcome: "retrying" });
  });

  it.each([
    ["a timeout", () => Promise.reject(new DOMException("The operation timed out.", "TimeoutError")), "timeout"],
    [
      "a redirect, not followed",
      () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example.org" } }),
      "redirect",
    ],
    ["a network error", () => Promise.reject(new TypeError("Network connection lost.")), "network"],
  ])("%s: retried and classified", async (_n, answer, errorClass) => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(answer as () => Response);
    const { result } = await consume(delivery(w.id));
    expect(result.retryMessages).toHaveLength(1);
    expect((await logsOf(w.id))[0]).toMatchObject({ outcome: "retrying", error_class: errorClass });
  });

  it("a target refused since it was saved is not contacted", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://10.0.0.7/hook" });
    const received = fakeReceiver();
    const { result } = await consume(delivery(w.id));
    expect(received).toHaveLength(0);
    expect(result.retryMessages).toHaveLength(1);
    expect((await logsOf(w.id))[0]).toMatchObject({ error_class: "blocked", status_code: null });
  });

  it("410 Gone: not retried, and the webhook is disabled with a webhook.disabled event", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(() => new Response("gone", { status: 410 }));
    const { result } = await consume(delivery(w.id));
    expect(result.explicitAcks).toEqual(["m1"]);
    expect((await logsOf(w.id))[0]).toMatchObject({ status_code: 410, outcome: "disabled" });
    expect(await webhookRow(w.id)).toMatchObject({ is_active: 0, disabled_reason: "The target answered 410 Gone." });
    expect(
      await countRows("outbox_events", `type = 'webhook.disabled' AND json_extract(payload, '$.data.id') = ${w.id}`),
    ).toBe(1);
  });

  it("after the last attempt: logged as failed and dead-lettered", async () => {
    const w = await createWebhookFor(APP_1);
    const msg = delivery(w.id);
    await priorAttempts(w.id, msg, 9, new Date(Date.now() - 1000).toISOString());
    fakeReceiver(() => new Response("still down", { status: 500 }));
    const { result, sent } = await consume(msg);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    expect((await logsOf(w.id)).at(-1)).toMatchObject({ attempt: 10, outcome: "failed", next_attempt_at: null });
    expect(sent.dlq).toEqual([{ ...msg, dead_lettered: true }]);
  });

  it(
    "a wait longer than Queues allows is made of hops of at most 12 hours, without contacting " + "the target",
    async () => {
      const w = await createWebhookFor(APP_1);
      const msg = delivery(w.id);
      await priorAttempts(w.id, msg, 7, new Date(Date.now() + 20 * 3600 * 1000).toISOString());
      const received = fakeReceiver();
      const { delays } = await consume(msg);
      expect(received).toHaveLength(0);
      expect(delays).toEqual([43_200]);
      expect(await logsOf(w.id)).toHaveLength(7);
    },
  );

  it("a webhook failing every attempt for 5 days is disabled", async () => {
    const w = await createWebhookFor(APP_1, {
      failingSince: new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString(),
    });
    fakeReceiver(() => new Response("down", { status: 500 }));
    const { result } = await consume(delivery(w.id));
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(await webhookRow(w.id)).toMatchObject({
      is_active: 0,
      disabled_reason: "Every delivery failed for 5 days.",
    });
    expect(
      await countRows("outbox_events", `type = 'webhook.disabled' AND json_extract(payload, '$.data.id') = ${w.id}`),
    ).toBe(1);
  });

  it("a duplicate of a settled delivery is acknowledged without sending", async () => {
    const w = await createWebhookFor(APP_1);
    const msg = delivery(w.id);
    fakeReceiver();
    await consume(msg);
    const again = await consume(msg);
    expect(again.result.explicitAcks).toEqual(["m1"]);
    expect(await logsOf(w.id)).toHaveLength(1);
  });

  it("the dead-letter queue logs, as failed, a delivery the consumer kept failing on", async () => {
    const w = await createWebhookFor(APP_1);
    const msg = delivery(w.id);
    await priorAttempts(w.id, msg, 2, new Date().toISOString());
    const { result } = await consume(msg, "commerce-events-dlq");
    expect(result.explicitAcks).toEqual(["m1"]);
    expect((await logsOf(w.id)).at(-1)).toMatchObject({ attempt: 3, outcome: "failed" });
    // One that the consumer dead-lettered itself was logged already.
    await consume({ ...msg, dead_lettered: true }, "commerce-events-dlq");
    expect(await logsOf(w.id)).toHaveLength(3);
  });
});
