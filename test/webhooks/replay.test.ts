import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_1, APP_2, createWebhookFor, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { countInOneRateWindow } from "../helpers/rate-window";
import { fakeReceiver } from "../helpers/receiver";
import { call, callWaits, json, problem } from "../helpers/request";
import { consume, deliveryIdOf, deliveryOf, deliveryRow, inOutbox, ledgerRow, logsOf, ticketEvent } from "./helpers";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const BASE = "/api/v1/dashboard/admin/integrations/webhooks/";
let writer: string;
let reader: string;
beforeAll(async () => {
  writer = await tokenFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
  reader = await tokenFor(APP_1, ["can_retrieve_app_config"]);
});
afterEach(() => vi.restoreAllMocks());

const as =
  (token: string) =>
  (path: string, opts: { method?: string; body?: unknown } = {}) =>
    call(path, { ...opts, token, appId: APP_1, orgId: 1 });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/**
 * Another store's webhook whose id this store does not hold (ids are unique per shard only). Its id
 * is remembered: this store's requests naming it count under this store's rate-limit key for that id,
 * which a webhook this store makes later may take.
 */
const namedForeign = new Set<number>();
async function theirWebhook() {
  const theirs = await rowCallerLacks("webhooks", APP_1, () => createWebhookFor(APP_2));
  namedForeign.add(theirs.id);
  return theirs;
}

/** Spies on both lanes' sends (what Resend and Recover put on the queues after the response). */
function lanes() {
  const sent: QueueSendBatchResponse = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
  const fast = vi.spyOn(env.EVENTS, "sendBatch").mockResolvedValue(sent);
  const slow = vi.spyOn(env.WEBHOOKS_SLOW, "sendBatch").mockResolvedValue(sent);
  const bodies = (spy: typeof fast) => spy.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => m.body));
  return { fast: () => bodies(fast), slow: () => bodies(slow) };
}

describe("List Webhook Deliveries", () => {
  it("lists the store's deliveries, filtered by webhook and status, with how each ended", async () => {
    const w = await createWebhookFor(APP_1);
    const [a, b] = [ticketEvent(), ticketEvent()];
    await ledgerRow(w, a, { status: "failed", attempts: 10, lastStatusCode: 500, lastErrorClass: "http" });
    await ledgerRow(w, b, { status: "skipped", skipReason: "webhook_disabled", nextAttemptAt: null });
    const theirs = await theirWebhook();
    await ledgerRow(theirs, ticketEvent(APP_2));
    const page = await json(await as(writer)(`${BASE}deliveries/?webhook=${w.id}&status=failed`));
    expect(page).toMatchObject({ count: 1, next: null });
    expect(page.results[0]).toEqual({
      id: deliveryIdOf(a.id, w.id),
      webhook: w.id,
      event_id: a.id,
      event: "ticket.updated",
      status: "failed",
      skip_reason: null,
      attempts: 10,
      next_attempt_at: expect.any(String),
      last_attempt_at: null,
      last_status_code: 500,
      last_error_class: "http",
      last_error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const skipped = await json(await as(reader)(`${BASE}deliveries/?webhook=${w.id}&skip_reason=webhook_disabled`));
    expect(skipped.results.map((r: { event_id: string }) => r.event_id)).toEqual([b.id]);
    expect((await json(await as(writer)(`${BASE}deliveries/?webhook=${theirs.id}`))).count).toBe(0);
    const bad = await as(writer)(`${BASE}deliveries/?status=lost`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["status"]);
  });
});

describe("Resend Webhook Delivery", () => {
  it("puts an ended delivery back on a fresh schedule and sends it; its attempt is logged as a resend", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    await inOutbox(event);
    await ledgerRow(w, event, { status: "failed", attempts: 10, nextAttemptAt: null });
    const sent = lanes();
    const { res, waits } = await callWaits(`${BASE}deliveries/${deliveryIdOf(event.id, w.id)}/resend/`, {
      method: "POST",
      token: writer,
      appId: APP_1,
      orgId: 1,
    });
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ status: "pending", attempts: 10 });
    // The delivery and its webhook (the id names it) at once, then the update that answers.
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "pending", schedule_from: 10 });
    expect(sent.fast()).toEqual([deliveryOf(event, w.id)]);
    vi.restoreAllMocks();
    fakeReceiver(() => new Response("no", { status: 500 }));
    const { delays } = await consume(deliveryOf(event, w.id));
    // A fresh schedule: the 11th attempt is the first of it, retried after ~5 s, not dead-lettered.
    expect(delays[0]).toBeLessThanOrEqual(6);
    expect((await logsOf(w.id)).at(-1)).toMatchObject({ attempt: 11, trigger: "resend", outcome: "retrying" });
  });

  it("goes to the slow lane for a slow webhook", async () => {
    const w = await createWebhookFor(APP_1, { slowSince: ago(1000) });
    const event = ticketEvent();
    await inOutbox(event);
    await ledgerRow(w, event, { status: "skipped", skipReason: "webhook_disabled", nextAttemptAt: null });
    const sent = lanes();
    await as(writer)(`${BASE}deliveries/${deliveryIdOf(event.id, w.id)}/resend/`, { method: "POST" });
    expect(sent.slow()).toEqual([deliveryOf(event, w.id)]);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "pending", skip_reason: null });
  });

  it("404 for an unknown or another store's delivery, 409 for an open one or an inactive webhook", async () => {
    const w = await createWebhookFor(APP_1);
    const open = ticketEvent();
    await ledgerRow(w, open, { status: "retrying", attempts: 1 });
    const off = await createWebhookFor(APP_1, { isActive: false });
    const missed = ticketEvent();
    await ledgerRow(off, missed, { status: "skipped", skipReason: "webhook_disabled" });
    const theirs = await theirWebhook();
    const foreign = ticketEvent(APP_2);
    await ledgerRow(theirs, foreign, { status: "failed" });
    lanes();
    const resend = (id: string) => as(writer)(`${BASE}deliveries/${id}/resend/`, { method: "POST" });
    for (const [id, status, code] of [
      [`evt_${"0".repeat(32)}.${w.id}`, 404, "delivery_not_found"],
      [deliveryIdOf(foreign.id, theirs.id), 404, "delivery_not_found"],
      [deliveryIdOf(open.id, w.id), 409, "delivery_in_progress"],
      [deliveryIdOf(missed.id, off.id), 409, "webhook_inactive"],
    ] as const) {
      const res = await resend(id);
      expect(res.status, id).toBe(status);
      expect((await problem(res)).code).toBe(code);
    }
    expect((await resend("not-a-delivery")).status).toBe(400);
    expect(await deliveryRow(foreign, theirs.id)).toMatchObject({ status: "failed" });
  });

  it("is rate-limited: at most 10 resends and recovers a minute per webhook", async () => {
    lanes();
    // A webhook of its own each attempt, with an id no request named yet: the limiter counts per webhook.
    const statuses = await countInOneRateWindow(async () => {
      let w = await createWebhookFor(APP_1);
      while (namedForeign.has(w.id)) w = await createWebhookFor(APP_1);
      const event = ticketEvent();
      await inOutbox(event);
      await ledgerRow(w, event, { status: "delivered", attempts: 1, nextAttemptAt: null });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        await shardFor(APP_1)
          .prepare("UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = ?")
          .bind(event.id)
          .run();
        statuses.push(
          (await as(writer)(`${BASE}deliveries/${deliveryIdOf(event.id, w.id)}/resend/`, { method: "POST" })).status,
        );
      }
      return statuses;
    });
    expect(
      statuses.slice(0, 10).every((s) => s === 202),
      String(statuses),
    ).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("Recover Webhook Deliveries", () => {
  it("re-sends the failed and skipped deliveries created in the window, oldest first, and nothing else", async () => {
    const w = await createWebhookFor(APP_1);
    const make = async (status: "failed" | "skipped" | "delivered" | "retrying", createdAt: string) => {
      const e = ticketEvent();
      await inOutbox(e);
      await ledgerRow(w, e, {
        status,
        attempts: status === "skipped" ? 0 : 10,
        skipReason: status === "skipped" ? "webhook_disabled" : null,
        createdAt,
      });
      return e;
    };
    const old = await make("failed", ago(3 * 3600_000));
    const failed = await make("failed", ago(3600_000));
    const skipped = await make("skipped", ago(1800_000));
    const delivered = await make("delivered", ago(1700_000));
    const open = await make("retrying", ago(1600_000));
    const sent = lanes();
    const { res, waits } = await callWaits(`${BASE}${w.id}/recover/`, {
      method: "POST",
      body: { since: ago(2 * 3600_000) },
      token: writer,
      appId: APP_1,
      orgId: 1,
    });
    expect(res.status).toBe(202);
    expect(await json(res)).toEqual({ recovered: 2, more: false });
    // The webhook and the deliveries to put back at once, then the update.
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(sent.fast()).toEqual([deliveryOf(failed, w.id), deliveryOf(skipped, w.id)]);
    expect(await deliveryRow(failed, w.id)).toMatchObject({ status: "pending", schedule_from: 10 });
    expect(await deliveryRow(skipped, w.id)).toMatchObject({ status: "pending", skip_reason: null });
    expect(await deliveryRow(old, w.id)).toMatchObject({ status: "failed" });
    expect(await deliveryRow(delivered, w.id)).toMatchObject({ status: "delivered" });
    expect(await deliveryRow(open, w.id)).toMatchObject({ status: "retrying" });
  });

  it("takes at most 1,000 a call and says when more remain", async () => {
    const w = await createWebhookFor(APP_1);
    await shardFor(APP_1)
      .prepare(
        `INSERT INTO webhook_deliveries (app_id, webhook_id, event_id, event, status, attempts, schedule_from,
         created_at, updated_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
       SELECT ?, ?, 'evt_bulk' || i, 'ticket.updated', 'failed', 10, 0, ?, ? FROM n`,
      )
      .bind(APP_1, w.id, ago(60_000), ago(60_000))
      .run();
    lanes();
    const first = await json(
      await as(writer)(`${BASE}${w.id}/recover/`, { method: "POST", body: { since: ago(3600_000) } }),
    );
    expect(first).toEqual({ recovered: 1000, more: true });
    const second = await json(
      await as(writer)(`${BASE}${w.id}/recover/`, { method: "POST", body: { since: ago(3600_000) } }),
    );
    expect(second).toEqual({ recovered: 1, more: false });
  });

  it("409 for a webhook that is off, 404 for another store's, 400 for a window that ends before it starts", async () => {
    const off = await createWebhookFor(APP_1, { isActive: false });
    const theirs = await theirWebhook();
    const body = { since: ago(3600_000) };
    const inactive = await as(writer)(`${BASE}${off.id}/recover/`, { method: "POST", body });
    expect([inactive.status, (await problem(inactive)).code]).toEqual([409, "webhook_inactive"]);
    const foreign = await as(writer)(`${BASE}${theirs.id}/recover/`, { method: "POST", body });
    expect([foreign.status, (await problem(foreign)).code]).toEqual([404, "webhook_not_found"]);
    const backwards = await as(writer)(`${BASE}${off.id}/recover/`, {
      method: "POST",
      body: { since: ago(1000), until: ago(3600_000) },
    });
    expect(backwards.status).toBe(400);
    expect((await problem(backwards)).errors).toHaveProperty(["until"]);
  });
});

describe("secrets by permission", () => {
  it("shows the whole secret to who may update the configuration, and masks it for readers", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://secrets.example.org/in" });
    const q = `${BASE}?url=${encodeURIComponent(w.url)}`;
    const full = await json(await as(writer)(q));
    expect(full.results[0].secret_key).toBe(w.secretKey);
    const masked = await json(await as(reader)(q));
    expect(masked.results[0].secret_key).toBe(`whsec_…${w.secretKey.slice(-4)}`);
    expect(JSON.stringify(masked)).not.toContain(w.secretKey.slice(6, 30));
  });

  it("returns the whole secret when a webhook is created and when its secret is rotated", async () => {
    const created = await json(
      await as(writer)(BASE, { method: "POST", body: { url: "https://new.example.org/in", events: ["item.deleted"] } }),
    );
    expect(created.secret_key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const rotated = await json(await as(writer)(`${BASE}${created.id}/rotate-secret/`, { method: "POST" }));
    expect(rotated.secret_key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret_key).not.toBe(created.secret_key);
  });
});
