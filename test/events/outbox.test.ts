import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EventMessage } from "../../src/core/events/outbox";
import worker from "../../src/index";
import webhooksWorker from "../../src/webhooks-worker";
import { APP_1, createPlainItem, createTicketsFor, shardFor } from "../helpers/factories";

afterEach(() => vi.useRealTimers());

const row = (id: string) =>
  shardFor(APP_1)
    .prepare("SELECT type, app_id, payload, enqueued_at FROM outbox_events WHERE id = ?")
    .bind(id)
    .first<{ type: string; app_id: number; payload: string; enqueued_at: string | null }>();

describe("events outbox", () => {
  it("writes ticket.created with the ticket in the same batch and marks it enqueued once sent", async () => {
    const item = await createPlainItem(APP_1);
    const [t] = await createTicketsFor(APP_1, item.id, 1, { date: "2026-12-09" });
    const ev = await shardFor(APP_1)
      .prepare("SELECT id FROM outbox_events WHERE type = 'ticket.created' AND json_extract(payload, '$.data.id') = ?")
      .bind(t!.id)
      .first<{ id: string }>();
    const stored = await row(ev!.id);
    expect(stored!.type).toBe("ticket.created");
    expect(stored!.app_id).toBe(APP_1);
    expect(stored!.enqueued_at).not.toBeNull();
    const payload = JSON.parse(stored!.payload) as EventMessage;
    expect(payload).toEqual({
      id: ev!.id,
      type: "ticket.created",
      event: "ticket.created",
      app_id: APP_1,
      timestamp: expect.any(Number),
      data: { id: t!.id, status: "pending", item: item.id, date: "2026-12-09", time: "18:30:00" },
    });
  });

  it("the scheduled handler re-sends events that were written but never enqueued", async () => {
    // The runtime's clock stands still for the test (its Date is the Worker's): the fresh row is as
    // young when the handler runs as when it was written, however slow the machine.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const id = `evt_stale${Date.now()}`;
    const payload: EventMessage = {
      id,
      type: "ticket.updated",
      event: "ticket.updated",
      app_id: APP_1,
      timestamp: 1,
      data: { id: 1 },
    };
    await shardFor(APP_1)
      .prepare("INSERT INTO outbox_events (id, app_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(id, APP_1, payload.type, JSON.stringify(payload), new Date(Date.now() - 5 * 60_000).toISOString())
      .run();
    const fresh = `evt_fresh${Date.now()}`;
    await shardFor(APP_1)
      .prepare("INSERT INTO outbox_events (id, app_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(fresh, APP_1, payload.type, JSON.stringify({ ...payload, id: fresh }), new Date().toISOString())
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await row(id))!.enqueued_at).not.toBeNull();
    // A row younger than a minute may still be on its way from the request that wrote it.
    expect((await row(fresh))!.enqueued_at).toBeNull();
  });

  it("the webhooks' consumer acknowledges every event", async () => {
    const messages = ["evt_a", "evt_b"].map((id, i) => ({
      id,
      timestamp: new Date(),
      attempts: 1,
      body: {
        id,
        type: "ticket.created",
        event: "ticket.created",
        app_id: APP_1,
        timestamp: i,
        data: {},
      } as EventMessage,
    }));
    const batch = createMessageBatch<EventMessage>("commerce-events", messages);
    const ctx = createExecutionContext();
    await webhooksWorker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["evt_a", "evt_b"]);
    expect(result.retryMessages).toEqual([]);
  });
});
