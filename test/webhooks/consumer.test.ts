import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APP_1, countRows, createWebhookFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";
import {
  consume,
  deliveriesOfWebhook,
  deliveryOf,
  deliveryRow,
  ledgerRow,
  logsOf,
  ticketEvent,
  webhookRow,
} from "./helpers";

afterEach(() => vi.restoreAllMocks());

const past = () => new Date(Date.now() - 1000).toISOString();
const disabledEvents = (id: number) =>
  countRows("outbox_events", `type = 'webhook.disabled' AND json_extract(payload, '$.data.id') = ${id}`);

describe("an event", () => {
  it("gets a ledger row per subscribed live webhook, and its first attempts at once (slow webhooks: the slow lane)", async () => {
    const healthy = await createWebhookFor(APP_1, { events: ["ticket.updated", "item.deleted"] });
    const slow = await createWebhookFor(APP_1, { slowSince: past() });
    const off = await createWebhookFor(APP_1, { isActive: false });
    const deleted = await createWebhookFor(APP_1, { isDeleted: true });
    const other = await createWebhookFor(APP_1, { events: ["item.deleted"] });
    const received = fakeReceiver();
    const event = ticketEvent();
    const { result, sent } = await consume(event);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(received.filter((r) => r.url === healthy.url)).toHaveLength(1);
    expect(received.filter((r) => r.url === slow.url)).toHaveLength(0);
    expect(sent.slow).toContainEqual(deliveryOf(event, slow.id));
    expect(await deliveryRow(event, healthy.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(await deliveryRow(event, slow.id)).toMatchObject({ status: "pending", attempts: 0 });
    // What a disabled webhook missed is on record, for a recover once it is on again.
    expect(await deliveryRow(event, off.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_disabled" });
    expect(await deliveryRow(event, deleted.id)).toBeNull();
    expect(await deliveryRow(event, other.id)).toBeNull();
    expect((await logsOf(healthy.id))[0]).toMatchObject({ attempt: 1, trigger: "event", outcome: "delivered" });
  });

  it("a first attempt that fails is retried as a message of its own, after ~5 s", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://retry-me.example.org/in" });
    fakeReceiver(() => new Response("no", { status: 500 }));
    const event = ticketEvent();
    const { result, sent } = await consume(event);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(sent.fast.filter((m) => "webhook_id" in m && m.webhook_id === w.id)).toEqual([deliveryOf(event, w.id)]);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "retrying", attempts: 1 });
  });

  it("is idempotent: an event delivered twice, or already fanned out by the publisher, adds nothing", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    const received = fakeReceiver();
    await consume(event);
    await consume(event);
    expect(received.filter((r) => r.url === w.url)).toHaveLength(1);
    expect(await deliveriesOfWebhook(w.id)).toHaveLength(1);
  });
});

describe("an attempt", () => {
  it("2xx: signed, with the webhook's headers, and the delivery ends delivered", async () => {
    const w = await createWebhookFor(APP_1, {
      headers: { "X-Api-Key": "k", "Webhook-Id": "forged" },
      failingSince: "2026-01-01T00:00:00.000Z",
    });
    const received = fakeReceiver(() => new Response("got it", { status: 202 }));
    const event = ticketEvent();
    const { result } = await consume(deliveryOf(event, w.id), { queue: "commerce-webhooks-slow" });
    expect(result.explicitAcks).toEqual(["m1"]);
    const [req] = received;
    expect(req!.headers["webhook-id"]).toBe(`${event.id}.${w.id}`);
    expect(req!.headers["x-api-key"]).toBe("k");
    expect(req!.redirect).toBe("manual");
    expect(new Webhook(w.secretKey).verify(req!.body, req!.headers)).toEqual(event);
    expect((await logsOf(w.id))[0]).toMatchObject({
      attempt: 1,
      trigger: "event",
      status_code: 202,
      outcome: "delivered",
      response_body: "got it",
    });
    expect(await deliveryRow(event, w.id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      next_attempt_at: null,
      leased_until: null,
      last_status_code: 202,
      last_error_class: null,
    });
    expect((await webhookRow(w.id))!.failing_since).toBeNull();
  });

  it("5xx: the message waits ~5 s for the next attempt, and the ledger says when", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(() => new Response("oops", { status: 500 }));
    const event = ticketEvent();
    const { result, delays } = await consume(deliveryOf(event, w.id));
    expect(result.retryMessages).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(4);
    expect(delays[0]).toBeLessThanOrEqual(6);
    expect((await logsOf(w.id))[0]).toMatchObject({ attempt: 1, status_code: 500, outcome: "retrying" });
    const row = await deliveryRow(event, w.id);
    expect(row).toMatchObject({ status: "retrying", attempts: 1, last_status_code: 500, last_error_class: "http" });
    // When the message comes back: the attempt's time (on record) and the message's delay.
    expect(Date.parse(row!.next_attempt_at) - Date.parse(row!.last_attempt_at)).toBe(delays[0]! * 1000);
    expect((await webhookRow(w.id))!.failing_since).not.toBeNull();
  });

  it("the second attempt waits ~5 minutes, and honours a longer Retry-After", async () => {
    const w = await createWebhookFor(APP_1, { failingSince: past() });
    const event = ticketEvent();
    await ledgerRow(w, event, { status: "retrying", attempts: 1, nextAttemptAt: past() });
    fakeReceiver(() => new Response("busy", { status: 503, headers: { "Retry-After": "3600" } }));
    const { delays } = await consume(deliveryOf(event, w.id), { queue: "commerce-webhooks-slow" });
    expect(delays).toEqual([3600]);
    expect((await logsOf(w.id))[0]).toMatchObject({ attempt: 2, trigger: "retry", outcome: "retrying" });
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "retrying", attempts: 2 });
  });

  it.each([
    ["a timeout", () => Promise.reject(new DOMException("The operation timed out.", "TimeoutError")), "timeout"],
    [
      "a redirect, not followed",
      () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example.org" } }),
      "redirect",
    ],
    ["a network error", () => Promise.reject(new TypeError("Network connection lost.")), "network"],
    ["a lookup failure the runtime names", () => Promise.reject(new Error("getaddrinfo ENOTFOUND x")), "dns"],
    ["Cloudflare's origin DNS error (530, 1016)", () => new Response("error code: 1016", { status: 530 }), "dns"],
  ])("%s: retried and classified", async (_n, answer, errorClass) => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(answer as () => Response);
    const event = ticketEvent();
    const { result } = await consume(deliveryOf(event, w.id));
    expect(result.retryMessages).toHaveLength(1);
    expect((await logsOf(w.id))[0]).toMatchObject({ outcome: "retrying", error_class: errorClass });
    expect(await deliveryRow(event, w.id)).toMatchObject({ last_error_class: errorClass });
  });

  it("an opaque failure is classed dns when a resolver says the name does not exist", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://no-such-host.example.org/in" });
    const received = fakeReceiver((req) =>
      req.url.startsWith("https://cloudflare-dns.com/")
        ? Response.json({ Status: 3 })
        : Promise.reject(new Error("internal error; reference = abc")),
    );
    // Production only: development and tests never ask a public resolver.
    await consume(deliveryOf(ticketEvent(), w.id), { vars: { ENVIRONMENT: "production" } });
    expect(received.filter((r) => r.url.includes("dns-query")).length).toBeGreaterThan(0);
    expect((await logsOf(w.id))[0]).toMatchObject({
      error_class: "dns",
      response_body: expect.stringMatching(/resolve/),
    });
  });

  it("an opaque failure on a name that resolves stays a network error", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver((req) =>
      req.url.startsWith("https://cloudflare-dns.com/")
        ? Response.json({ Status: 0, Answer: [{ data: "93.184.215.14" }] })
        : Promise.reject(new Error("internal error; reference = abc")),
    );
    await consume(deliveryOf(ticketEvent(), w.id), { vars: { ENVIRONMENT: "production" } });
    expect((await logsOf(w.id))[0]).toMatchObject({ error_class: "network" });
  });

  it("outside production an opaque failure stays a network error, and no resolver is asked", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://no-such-host.example.org/in" });
    const received = fakeReceiver(() => Promise.reject(new Error("internal error; reference = abc")));
    await consume(deliveryOf(ticketEvent(), w.id));
    expect(received.filter((r) => r.url.includes("dns-query"))).toHaveLength(0);
    expect((await logsOf(w.id))[0]).toMatchObject({ error_class: "network" });
  });

  it("a target refused since it was saved is not contacted", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://10.0.0.7/hook" });
    const received = fakeReceiver();
    const { result } = await consume(deliveryOf(ticketEvent(), w.id));
    expect(received).toHaveLength(0);
    expect(result.retryMessages).toHaveLength(1);
    expect((await logsOf(w.id))[0]).toMatchObject({ error_class: "blocked", status_code: null });
  });

  it("after the last attempt of the schedule: failed, and dead-lettered", async () => {
    const w = await createWebhookFor(APP_1, { failingSince: past() });
    const event = ticketEvent();
    await ledgerRow(w, event, { status: "retrying", attempts: 9, nextAttemptAt: past() });
    fakeReceiver(() => new Response("still down", { status: 500 }));
    const msg = deliveryOf(event, w.id);
    const { result, sent } = await consume(msg, { queue: "commerce-webhooks-slow" });
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    expect((await logsOf(w.id)).at(-1)).toMatchObject({ attempt: 10, outcome: "failed", next_attempt_at: null });
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "failed", attempts: 10, next_attempt_at: null });
    expect(sent.dlq).toEqual([{ ...msg, dead_lettered: true }]);
  });

  it(
    "a wait longer than Queues allows is made of hops of at most 12 hours, without contacting " + "the target",
    async () => {
      const w = await createWebhookFor(APP_1, { failingSince: past() });
      const event = ticketEvent();
      const later = new Date(Date.now() + 20 * 3600 * 1000).toISOString();
      await ledgerRow(w, event, { status: "retrying", attempts: 7, nextAttemptAt: later });
      const received = fakeReceiver();
      const { delays } = await consume(deliveryOf(event, w.id), { queue: "commerce-webhooks-slow" });
      expect(received).toHaveLength(0);
      expect(delays).toEqual([43_200]);
      expect(await deliveryRow(event, w.id)).toMatchObject({ attempts: 7, next_attempt_at: later });
    },
  );

  it("a duplicate of a settled delivery is acknowledged without sending", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    const received = fakeReceiver();
    await consume(deliveryOf(event, w.id));
    const again = await consume(deliveryOf(event, w.id));
    expect(again.result.explicitAcks).toEqual(["m1"]);
    expect(received).toHaveLength(1);
    expect(await logsOf(w.id)).toHaveLength(1);
  });

  it("two messages carrying one delivery at once make one attempt (the ledger's claim)", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    const received = fakeReceiver();
    const { result } = await consume([deliveryOf(event, w.id), deliveryOf(event, w.id)]);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(received).toHaveLength(1);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("a slow webhook's delivery on the fast lane moves to the slow lane, uncontacted", async () => {
    const w = await createWebhookFor(APP_1, { slowSince: past() });
    const event = ticketEvent();
    const received = fakeReceiver();
    const { result, sent } = await consume(deliveryOf(event, w.id));
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(received).toHaveLength(0);
    expect(sent.slow).toEqual([deliveryOf(event, w.id)]);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("a timeout moves the webhook to the slow lane; a quick failure does not; a quick answer brings it back", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(() => new Response("no", { status: 500 }));
    await consume(deliveryOf(ticketEvent(), w.id));
    expect(await webhookRow(w.id)).toMatchObject({ slow_since: null, failing_since: expect.any(String) });
    vi.restoreAllMocks();
    fakeReceiver(() => Promise.reject(new DOMException("The operation timed out.", "TimeoutError")));
    await consume(deliveryOf(ticketEvent(), w.id));
    expect((await webhookRow(w.id))!.slow_since).not.toBeNull();
    vi.restoreAllMocks();
    fakeReceiver();
    await consume(deliveryOf(ticketEvent(), w.id), { queue: "commerce-webhooks-slow" });
    expect(await webhookRow(w.id)).toMatchObject({ slow_since: null, failing_since: null });
  });

  it("a message from before the ledger (no row) gets its row and its attempt", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    fakeReceiver();
    await consume(deliveryOf(event, w.id));
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it.each([
    ["disabled", { isActive: false }, "webhook_disabled"],
    ["deleted", { isDeleted: true, isActive: false }, "webhook_deleted"],
  ] as const)("a queued delivery of a webhook %s since ends skipped, with the reason", async (_n, state, reason) => {
    const w = await createWebhookFor(APP_1, state);
    const event = ticketEvent();
    await ledgerRow(w, event);
    const received = fakeReceiver();
    const { result } = await consume(deliveryOf(event, w.id));
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(received).toHaveLength(0);
    expect(await deliveryRow(event, w.id)).toMatchObject({ status: "skipped", skip_reason: reason });
  });
});

describe("disabling", () => {
  it(
    "410 Gone: the delivery fails, the webhook is off with why and when, and its open " + "deliveries are skipped",
    async () => {
      const w = await createWebhookFor(APP_1);
      const queued = ticketEvent();
      await ledgerRow(w, queued, { status: "retrying", attempts: 1, nextAttemptAt: past() });
      fakeReceiver(() => new Response("gone", { status: 410 }));
      const event = ticketEvent();
      const { result } = await consume(deliveryOf(event, w.id));
      expect(result.explicitAcks).toEqual(["m1"]);
      expect((await logsOf(w.id))[0]).toMatchObject({ status_code: 410, outcome: "disabled" });
      expect(await deliveryRow(event, w.id)).toMatchObject({ status: "failed", last_status_code: 410 });
      expect(await deliveryRow(queued, w.id)).toMatchObject({ status: "skipped", skip_reason: "webhook_disabled" });
      const row = await webhookRow(w.id);
      expect(row).toMatchObject({ is_active: 0, disabled_reason: "The target answered 410 Gone." });
      // When: the attempt that was answered 410.
      expect(row!.disabled_at).toBe((await deliveryRow(event, w.id))!.last_attempt_at);
      expect(await disabledEvents(w.id)).toBe(1);
    },
  );

  it("two deliveries answered 410 at once: one disable, one webhook.disabled event", async () => {
    const w = await createWebhookFor(APP_1);
    // Both attempts are in flight before either records: each waits for the other to arrive.
    let arrived = 0;
    let bothIn: () => void = () => {};
    const both = new Promise<void>((r) => (bothIn = r));
    fakeReceiver(async () => {
      if (++arrived === 2) bothIn();
      await both;
      return new Response("gone", { status: 410 });
    });
    const [a, b] = [ticketEvent(), ticketEvent()];
    await consume([deliveryOf(a, w.id), deliveryOf(b, w.id)]);
    expect(await logsOf(w.id)).toHaveLength(2);
    expect(await disabledEvents(w.id)).toBe(1);
    expect(await deliveryRow(a, w.id)).toMatchObject({ status: "failed" });
    expect(await deliveryRow(b, w.id)).toMatchObject({ status: "failed" });
  });

  // A failing receiver once showed in the runtime's logs as uncaught errors: nothing the consumer
  // defers may reject, whatever the receiver does, even when the events' queue refuses the send.
  it("hands waitUntil nothing that rejects, whatever the receiver does", async () => {
    const answers = [
      () => new Response("oops", { status: 500 }),
      () => {
        throw new TypeError("Network connection lost.");
      },
      () => {
        throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
      },
      () => new Response("gone", { status: 410 }),
    ];
    for (const answer of answers) {
      const w = await createWebhookFor(APP_1);
      fakeReceiver(answer);
      const refusing = {
        send: () => Promise.reject(new Error("queue unavailable")),
        sendBatch: () => Promise.reject(new Error("queue unavailable")),
      };
      const { deferred } = await consume([deliveryOf(ticketEvent(), w.id)], {
        vars: { EVENTS: refusing as unknown as Queue },
      });
      const settled = await Promise.allSettled(deferred);
      expect(settled.filter((r) => r.status === "rejected")).toEqual([]);
      vi.restoreAllMocks();
    }
  });

  it("a webhook failing every attempt for 5 days is disabled, once", async () => {
    const w = await createWebhookFor(APP_1, {
      failingSince: new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString(),
    });
    fakeReceiver(() => new Response("down", { status: 500 }));
    const { result } = await consume(deliveryOf(ticketEvent(), w.id), { queue: "commerce-webhooks-slow" });
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(await webhookRow(w.id)).toMatchObject({
      is_active: 0,
      disabled_reason: "Every delivery failed for 5 days.",
    });
    expect(await disabledEvents(w.id)).toBe(1);
  });
});

describe("the dead-letter queue", () => {
  it("records failed a delivery the consumer kept failing on, and drops one it dead-lettered itself", async () => {
    const w = await createWebhookFor(APP_1);
    const event = ticketEvent();
    await ledgerRow(w, event, { status: "retrying", attempts: 2, nextAttemptAt: past() });
    const msg = deliveryOf(event, w.id);
    const { result } = await consume(msg, { queue: "commerce-events-dlq" });
    expect(result.explicitAcks).toEqual(["m1"]);
    expect((await logsOf(w.id)).at(-1)).toMatchObject({ attempt: 3, outcome: "failed" });
    expect(await deliveryRow(event, w.id)).toMatchObject({
      status: "failed",
      last_error: expect.stringMatching(/Dead/),
    });
    await consume({ ...msg, dead_lettered: true }, { queue: "commerce-events-dlq" });
    expect(await logsOf(w.id)).toHaveLength(1);
  });
});
