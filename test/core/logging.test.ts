import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { ApiError, renderProblem } from "../../src/core/errors";
import { emit, newEvent } from "../../src/core/events/outbox";
import { errorText, type LogLine, requestLog } from "../../src/core/logging";
import type { AppEnv } from "../../src/env";
import type { DeliveryMessage, QueueMessage } from "../../src/modules/webhooks/consumer";
import webhooksWorker from "../../src/webhooks-worker";
import { APP_1, createWebhookFor, db, shardFor, tokenFor } from "../helpers/factories";
import { fakeReceiver } from "../helpers/receiver";
import { call } from "../helpers/request";

const TICKETS = "/order/v1/merchant/fulfillments/tickets/";

let out: MockInstance<typeof console.log>;
let err: MockInstance<typeof console.error>;

beforeEach(() => {
  out = vi.spyOn(console, "log").mockImplementation(() => {});
  err = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Every structured line printed so far, with its raw text and the stream it went to. */
function lines(): { line: Record<string, any>; raw: string; stream: "log" | "error" }[] {
  const parse = (stream: "log" | "error", calls: unknown[][]) =>
    calls
      .filter(([first]) => typeof first === "string" && first.startsWith("{"))
      .map(([raw]) => ({ line: JSON.parse(raw as string), raw: raw as string, stream }));
  return [...parse("log", out.mock.calls), ...parse("error", err.mock.calls)];
}
const ofKind = (msg: LogLine["msg"]) => lines().filter((l) => l.line.msg === msg);

/** The one request line of the one request made in the test. */
function requestLine() {
  const found = ofKind("request");
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe("request lines", () => {
  it("a served request: method, route pattern, status, duration, ids, principal; no token, no query", async () => {
    const token = await tokenFor(APP_1, ["can_read_order"]);
    const res = await call(`${TICKETS}?search=secretvalue`, { token });
    expect(res.status).toBe(200);
    const { line, raw, stream } = requestLine();
    expect(line).toEqual({
      msg: "request",
      level: "info",
      method: "GET",
      route: TICKETS,
      status: 200,
      ms: expect.any(Number),
      request_id: res.headers.get("x-request-id"),
      app_id: APP_1,
      principal: "merchant",
      code: null,
    });
    expect(stream).toBe("log");
    expect(line.ms).toBeGreaterThanOrEqual(0);
    expect(Math.round(line.ms * 10)).toBe(line.ms * 10);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain("Bearer");
    expect(raw).not.toContain("secretvalue");
    expect(raw).not.toContain("search");
  });

  it("a 401: principal null, the problem's code, and not the bad token", async () => {
    const bad = "cmk_thisisnotarealtoken0123456789";
    const res = await call(TICKETS, { token: bad });
    expect(res.status).toBe(401);
    const { line, raw } = requestLine();
    expect(line).toMatchObject({ method: "GET", route: TICKETS, status: 401, principal: null, app_id: APP_1 });
    expect(line.code).toMatch(/token|authenticated/);
    expect(line.request_id).toBe(res.headers.get("x-request-id"));
    expect(raw).not.toContain(bad);
    expect(raw).not.toContain("Bearer");
  });

  it("a 400 validation error: the operation's pattern, not the raw path", async () => {
    const token = await tokenFor(APP_1);
    const res = await call("/order/v1/merchant/items/abc/", { token });
    expect(res.status).toBe(400);
    const { line, raw } = requestLine();
    expect(line).toMatchObject({
      route: "/order/v1/merchant/items/:item_id/",
      status: 400,
      level: "info",
      code: "validation_error",
    });
    expect(raw).not.toContain("abc");
  });

  it("an unknown route: route null; a malformed app-id: app_id null", async () => {
    const res = await call("/order/v1/nowhere/?token=abc123", { appId: "1; DROP" });
    expect(res.status).toBe(404);
    const { line, raw } = requestLine();
    expect(line).toMatchObject({ route: null, status: 404, app_id: null, principal: null });
    expect(line.request_id).toBe(res.headers.get("x-request-id"));
    expect(raw).not.toContain("abc123");
    expect(raw).not.toContain("nowhere");
  });

  it("answers given by middleware are logged too: 405 without a route, 415 with the operation's", async () => {
    const token = await tokenFor(APP_1, ["can_write_order"]);
    expect((await call(TICKETS, { method: "DELETE", token })).status).toBe(405);
    expect(requestLine().line).toMatchObject({ method: "DELETE", route: null, status: 405 });
    out.mockClear();
    const res = await call(`${TICKETS}bulk-update/`, {
      method: "POST",
      token,
      rawBody: "ids=1",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(requestLine().line).toMatchObject({
      route: `${TICKETS}bulk-update/`,
      status: 415,
      code: "unsupported_media_type",
    });
  });

  it("a 5xx: level error on console.error, and the unhandled error with its stack", async () => {
    const app = new Hono<AppEnv>();
    app.use(requestId({ headerName: "X-Request-Id" }));
    app.use(requestLog());
    app.get("/things/:id/", () => {
      throw new TypeError("kaboom");
    });
    app.get("/refused/:id/", () => {
      throw new ApiError(409, "conflict", "No.");
    });
    app.onError((e, c) => renderProblem(e, c));
    const res = await app.request("/things/7/");
    expect(res.status).toBe(500);
    const { line, stream } = requestLine();
    expect(line).toMatchObject({ level: "error", route: "/things/:id/", status: 500, code: null });
    expect(line.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream).toBe("error");
    const [unhandled] = ofKind("unhandled error");
    expect(unhandled!.line).toEqual({
      msg: "unhandled error",
      level: "error",
      request_id: line.request_id,
      error: "TypeError: kaboom",
      stack: expect.stringContaining("kaboom"),
    });
    expect(await res.text()).not.toContain("kaboom");
    err.mockClear();
    out.mockClear();
    await app.request("/refused/1/");
    expect(requestLine().line).toMatchObject({ level: "info", status: 409, code: "conflict" });
  });

  it("a 5xx answered on purpose: `service unavailable` with its code, no stack, no `unhandled error`", async () => {
    const app = new Hono<AppEnv>();
    app.use(requestId({ headerName: "X-Request-Id" }));
    app.use(requestLog());
    app.get("/later/", () => {
      throw new ApiError(503, "provider_unavailable", "The provider did not answer.");
    });
    app.onError((e, c) => renderProblem(e, c));
    const res = await app.request("/later/");
    expect(res.status).toBe(503);
    const { line } = requestLine();
    expect(line).toMatchObject({ level: "error", status: 503, code: "provider_unavailable" });
    expect(ofKind("unhandled error")).toEqual([]);
    expect(ofKind("service unavailable").map((l) => l.line)).toEqual([
      {
        msg: "service unavailable",
        level: "error",
        request_id: line.request_id,
        code: "provider_unavailable",
        detail: "The provider did not answer.",
      },
    ]);
  });

  it("truncates error texts to 500 characters", () => {
    expect(errorText(new Error("x".repeat(2000)))).toHaveLength(500);
    expect(errorText("plain")).toBe("plain");
  });
});

/** The env the consumer gets, with the queue producers recorded (or failing) instead of sent. */
function consumerEnv(failing = false) {
  const queue = {
    send: async () => {
      if (failing) throw new Error("queue unavailable");
    },
    sendBatch: async () => {
      if (failing) throw new Error("queue unavailable");
    },
  };
  return { ...env, EVENTS: queue, EVENTS_DLQ: queue } as unknown as Env;
}

async function consume(body: QueueMessage, e = consumerEnv()) {
  const batch = createMessageBatch<QueueMessage>("commerce-events", [
    { id: "m1", timestamp: new Date(), attempts: 1, body },
  ]);
  const ctx = createExecutionContext();
  await webhooksWorker.queue(batch, e, ctx);
  return getQueueResult(batch, ctx);
}

const delivery = (webhookId: number): DeliveryMessage => ({
  kind: "delivery",
  event: newEvent(APP_1, "ticket.updated", { id: 7, previous_status: "pending", changes: { status: "confirmed" } }),
  webhook_id: webhookId,
});

describe("webhook delivery lines", () => {
  it.each([
    [202, "delivered", "info", "log"],
    [500, "retrying", "warn", "log"],
    [410, "disabled", "error", "error"],
  ] as const)(
    "a %i: one line, outcome %s, without the secret, the URL's query or the headers",
    async (status, outcome, level, stream) => {
      const w = await createWebhookFor(APP_1, {
        url: "https://hooks.example.org/in?key=querysecret",
        headers: { "X-Api-Key": "headersecret" },
      });
      fakeReceiver(() => new Response("receiver body", { status }));
      const msg = delivery(w.id);
      await consume(msg);
      const found = ofKind("webhook delivery");
      expect(found).toHaveLength(1);
      const { line, raw } = found[0]!;
      expect(found[0]!.stream).toBe(stream);
      expect(line).toEqual({
        msg: "webhook delivery",
        level,
        app_id: APP_1,
        webhook_id: w.id,
        event_id: msg.event.id,
        event_type: "ticket.updated",
        delivery_id: `${msg.event.id}.${w.id}`,
        attempt: 1,
        outcome,
        status_code: status,
        error_class: status === 202 ? null : "http",
        ms: expect.any(Number),
        next_attempt_at: outcome === "retrying" ? expect.any(String) : null,
      });
      for (const secret of ["whsec_", w.secretKey, "querysecret", "headersecret", "receiver body", "hooks.example.org"])
        expect(raw).not.toContain(secret);
    },
  );

  it("a message the consumer fails on: a background task line, and the message is retried", async () => {
    await createWebhookFor(APP_1, { events: ["item.deleted"] });
    const event = newEvent(APP_1, "item.deleted", { id: 1 });
    const result = await consume(event, consumerEnv(true));
    expect(result.retryMessages).toHaveLength(1);
    const found = ofKind("background task failed");
    expect(found).toHaveLength(1);
    expect(found[0]!.line).toEqual({
      msg: "background task failed",
      level: "error",
      task: "queue message",
      app_id: APP_1,
      message_id: "m1",
      event_id: event.id,
      error: "Error: queue unavailable",
    });
    expect(found[0]!.stream).toBe("error");
  });
});

describe("background task lines", () => {
  it("a failed publish after the response is logged, and its outbox row stays for the re-send", async () => {
    const pending: Promise<unknown>[] = [];
    const queue = {
      send: () => Promise.reject(new Error("queue down")),
      sendBatch: () => Promise.reject(new Error("queue down")),
    } as unknown as Queue;
    const event = newEvent(APP_1, "item.deleted", { id: 1 });
    await emit(db(), { queue, defer: (p) => void pending.push(p) }, [], [event]);
    expect(pending).toHaveLength(1);
    await expect(pending[0]).resolves.toBeUndefined(); // no unhandled rejection inside waitUntil
    const found = ofKind("background task failed");
    expect(found.map((l) => l.line)).toEqual([
      {
        msg: "background task failed",
        level: "error",
        task: "publish events",
        app_id: APP_1,
        error: "Error: queue down",
      },
    ]);
    const row = await shardFor(APP_1)
      .prepare("SELECT enqueued_at FROM outbox_events WHERE id = ?")
      .bind(event.id)
      .first<{ enqueued_at: string | null }>();
    expect(row).toEqual({ enqueued_at: null });
  });
});
