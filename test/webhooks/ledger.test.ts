import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { emit } from "../../src/core/events/outbox";
import type { QueueMessage } from "../../src/modules/webhooks/messages";
import { reconcileDeliveries } from "../../src/modules/webhooks/reconcile";
import webhooksWorker from "../../src/webhooks-worker";
import { APP_1, countRows, createWebhookFor, db, shardFor, tokenFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";
import { call } from "../helpers/request";
import {
  consume,
  deliveriesOfWebhook,
  deliveryOf,
  deliveryRow,
  inOutbox,
  ledgerRow,
  recordingEnv,
  ticketEvent,
  webhookRow,
} from "./helpers";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

afterEach(() => vi.restoreAllMocks());

const BASE = "/api/v1/dashboard/admin/integrations/webhooks/";
let token: string;
beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
});
const as1 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: APP_1, orgId: 1 });

/** An instant `ms` before `from`: the reconciler is given the same `from` as its "now", so no margin of time. */
const ago = (ms: number, from = Date.now()) => new Date(from - ms).toISOString();
const ofWebhook = (id: number) => (m: QueueMessage) => "webhook_id" in m && m.webhook_id === id;

describe("fan-out at publish", () => {
  it("the outbox publisher writes the delivery rows before the event leaves for the queue", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    let atSend: unknown = "never sent";
    const queue = {
      send: async () => {},
      sendBatch: async () => {
        atSend = await deliveryRow(event, w.id);
      },
    } as unknown as Queue;
    const deferred: Promise<unknown>[] = [];
    await emit(db(), { queue, defer: (p) => void deferred.push(p) }, [], [event]);
    await Promise.all(deferred);
    expect(atSend).toMatchObject({ status: "pending", attempts: 0, app_id: APP_1 });
  });
});

describe("the reconciler", () => {
  it("re-sends a delivery whose queue message was lost, and the delivery then ends delivered", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    // The publisher writes the ledger and "sends" the event, which the queue loses.
    const lost = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const deferred: Promise<unknown>[] = [];
    await emit(db(), { queue: lost, defer: (p) => void deferred.push(p) }, [], [event]);
    await Promise.all(deferred);
    expect(await countRows("outbox_events", `id = '${event.id}' AND enqueued_at IS NOT NULL`)).toBe(1);
    // Two minutes later nothing has come of it: the reconciler sends it again.
    const now = Date.now();
    await shardFor(APP_1)
      .prepare("UPDATE webhook_deliveries SET next_attempt_at = ?, created_at = ? WHERE event_id = ?")
      .bind(ago(120_000, now), ago(120_000, now), event.id)
      .run();
    const { env: e, sent } = recordingEnv();
    const done = await reconcileDeliveries(e, now);
    expect(done.resent).toBeGreaterThanOrEqual(1);
    expect(sent.fast.filter(ofWebhook(w.id))).toEqual([deliveryOf(event, w.id)]);
    const row = await deliveryRow(event, w.id);
    expect(row!.next_attempt_at).toBe(new Date(now).toISOString()); // the next run leaves it a minute
    fakeReceiver();
    await consume(deliveryOf(event, w.id));
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("re-sends an overdue retry on its webhook's lane; leaves due-now, held and final deliveries alone", async () => {
    const now = Date.now();
    const w = await createWebhookFor(APP_1, { slowSince: ago(600_000, now) });
    const [overdue, recent, held, done] = [ticketEvent(), ticketEvent(), ticketEvent(), ticketEvent()];
    for (const e of [overdue, recent, held, done]) await inOutbox(e);
    await ledgerRow(w, overdue, { status: "retrying", attempts: 3, nextAttemptAt: ago(3600_000, now) });
    await ledgerRow(w, recent, { status: "retrying", attempts: 1, nextAttemptAt: ago(30_000, now) });
    const inFlight = new Date(now + 30_000).toISOString();
    await ledgerRow(w, held, {
      status: "retrying",
      attempts: 2,
      nextAttemptAt: ago(300_000, now),
      leasedUntil: inFlight,
    });
    await ledgerRow(w, done, { status: "delivered", attempts: 1, nextAttemptAt: null });
    const { env: e, sent } = recordingEnv();
    await reconcileDeliveries(e, now);
    expect(sent.slow.filter(ofWebhook(w.id))).toEqual([deliveryOf(overdue, w.id)]);
    expect(sent.fast.filter(ofWebhook(w.id))).toEqual([]);
    // Sent once: a second run within the minute leaves it to the message.
    const again = recordingEnv();
    await reconcileDeliveries(again.env, now);
    expect(again.sent.slow.filter(ofWebhook(w.id))).toEqual([]);
  });

  it("ends skipped, with the reason, an overdue delivery whose webhook is off or deleted", async () => {
    const off = await createWebhookFor(APP_1, { isActive: false });
    const gone = await createWebhookFor(APP_1, { isActive: false, isDeleted: true });
    const [a, b] = [ticketEvent(), ticketEvent()];
    const now = Date.now();
    await ledgerRow(off, a, { nextAttemptAt: ago(120_000, now) });
    await ledgerRow(gone, b, { status: "retrying", attempts: 1, nextAttemptAt: ago(120_000, now) });
    await reconcileDeliveries(recordingEnv().env, now);
    expect(await deliveryRow(a, off.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_disabled" });
    expect(await deliveryRow(b, gone.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_deleted" });
  });

  it("runs on the webhooks' consumer Worker's schedule", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    await inOutbox(event);
    await ledgerRow(w, event, { nextAttemptAt: ago(300_000), createdAt: ago(300_000) });
    const { env: e, sent } = recordingEnv();
    const ctx = createExecutionContext();
    await webhooksWorker.scheduled(createScheduledController(), e, ctx);
    await waitOnExecutionContext(ctx);
    expect(sent.fast.filter(ofWebhook(w.id))).toEqual([deliveryOf(event, w.id)]);
  });
});

describe("every delivery ends in a final state", () => {
  it("delivered, failed after the schedule, or skipped: none stays open", async () => {
    const vars = { WEBHOOK_RETRY_DELAYS: "0,0" }; // three attempts, due at once
    const ok = await createWebhookFor(APP_1, { url: "https://ok.example.org/in" });
    const down = await createWebhookFor(APP_1, { url: "https://down.example.org/in" });
    const flaky = await createWebhookFor(APP_1, { url: "https://flaky.example.org/in" });
    const gone = await createWebhookFor(APP_1, { url: "https://gone.example.org/in" });
    const seen = new Set<string>();
    fakeReceiver((req) => {
      const host = new URL(req.url).hostname;
      if (host === "ok.example.org") return new Response("ok");
      if (host === "gone.example.org") return new Response("gone", { status: 410 });
      if (host === "flaky.example.org") {
        const first = !seen.has(req.headers["webhook-id"]!);
        seen.add(req.headers["webhook-id"]!);
        return new Response("?", { status: first ? 500 : 200 });
      }
      return new Response("down", { status: 503 });
    });
    const events = Array.from({ length: 6 }, () => ticketEvent());
    let queue: QueueMessage[] = (await consume(events, { vars })).sent.fast;
    for (let round = 0; round < 6 && queue.length; round++) {
      const { sent, result } = await consume(queue, { vars, queue: "commerce-webhooks-slow" });
      const retried = new Set(result.retryMessages.map((m: { msgId: string }) => m.msgId));
      queue = [...sent.fast, ...sent.slow, ...queue.filter((_m, i) => retried.has(`m${i + 1}`))];
    }
    const mine = [ok, down, flaky, gone];
    for (const w of mine) {
      const rows = await deliveriesOfWebhook(w.id);
      expect(rows).toHaveLength(6);
      for (const r of rows) expect(["delivered", "failed", "skipped"], `${w.url} ${r.status}`).toContain(r.status);
    }
    expect((await deliveriesOfWebhook(ok.id)).every((r) => r.status === "delivered")).toBe(true);
    expect((await deliveriesOfWebhook(down.id)).every((r) => r.status === "failed" && r.attempts === 3)).toBe(true);
    expect((await deliveriesOfWebhook(flaky.id)).every((r) => r.status === "delivered")).toBe(true);
    const goneRows = await deliveriesOfWebhook(gone.id);
    expect(goneRows.filter((r) => r.status === "failed").length).toBeGreaterThanOrEqual(1);
    expect(goneRows.every((r) => r.status === "failed" || r.skip_reason === "webhook_disabled")).toBe(true);
  });
});

describe("turning a webhook off, on, or deleting it", () => {
  it("off (PATCH): its open deliveries end skipped, it says why and when; no webhook.disabled event", async () => {
    const w = await createWebhookFor(APP_1);
    const [a, b] = [ticketEvent(), ticketEvent()];
    await ledgerRow(w, a);
    await ledgerRow(w, b, { status: "retrying", attempts: 2 });
    const before = Date.now();
    const res = await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { is_active: false } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ is_active: false, disabled_reason: expect.stringMatching(/update/) });
    // When: during the request (the runtime's clock moves only on I/O, so these bound it exactly).
    expect(Date.parse(body.disabled_at as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.disabled_at as string)).toBeLessThanOrEqual(Date.now());
    for (const e of [a, b])
      expect(await deliveryRow(e, w.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_disabled" });
    expect(
      await countRows("outbox_events", `type = 'webhook.disabled' AND json_extract(payload, '$.data.id') = ${w.id}`),
    ).toBe(0);
    // A second PATCH off changes neither the reason nor the time.
    await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { is_active: false } });
    expect((await webhookRow(w.id))!.disabled_at).toBe(body.disabled_at);
  });

  it("on again (PATCH): the reason is cleared and nothing is replayed", async () => {
    const w = await createWebhookFor(APP_1, {
      isActive: false,
      disabledReason: "The target answered 410 Gone.",
      disabledAt: ago(1000),
      failingSince: ago(5000),
    });
    const event = ticketEvent();
    await ledgerRow(w, event, { status: "skipped", skipReason: "webhook_disabled", nextAttemptAt: null });
    const send = vi.spyOn(env.EVENTS, "sendBatch");
    const res = await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { is_active: true } });
    expect(await res.json()).toMatchObject({ is_active: true, disabled_reason: null, disabled_at: null });
    expect(await webhookRow(w.id)).toMatchObject({ failing_since: null, disabled_reason: null });
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "skipped" });
    // The change's own `webhook.updated` may be published; the skipped delivery is never sent again.
    const sent = send.mock.calls.flatMap(([batch]) => [...batch].map((m) => m.body as { id: string; type: string }));
    expect(sent.map((b) => b.id)).not.toContain(event.id);
    expect(sent.filter((b) => b.type !== "webhook.updated")).toEqual([]);
  });

  it("an attempt in flight is not skipped under it; its next message is", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    // Held for an hour: however slow the machine, still held when the PATCH comes.
    const lease = new Date(Date.now() + 3600_000).toISOString();
    await ledgerRow(w, event, { status: "retrying", attempts: 1, leasedUntil: lease });
    await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { is_active: false } });
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "retrying" });
    await shardFor(APP_1)
      .prepare("UPDATE webhook_deliveries SET leased_until = NULL WHERE event_id = ?")
      .bind(event.id)
      .run();
    await consume(deliveryOf(event, w.id));
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_disabled" });
  });

  it.each([
    ["DELETE", (id: number, _url: string) => `${BASE}${id}/`],
    ["DELETE by URL", (_id: number, url: string) => `${BASE}?url=${encodeURIComponent(url)}`],
  ])("%s: its open deliveries end skipped as webhook_deleted; final ones stay", async (_n, path) => {
    const w = await createWebhookFor(APP_1);
    const [open, delivered] = [ticketEvent(), ticketEvent()];
    await ledgerRow(w, open, { status: "retrying", attempts: 1 });
    await ledgerRow(w, delivered, { status: "delivered", attempts: 1, nextAttemptAt: null });
    const res = await as1(path(w.id, w.url), { method: "DELETE" });
    expect(res.status).toBeLessThan(300);
    expect(await deliveryRow(open, w.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_deleted" });
    expect(await deliveryRow(delivered, w.id)).toMatchObject({ status: "delivered", skip_reason: null });
  });
});
