import { Webhook } from "standardwebhooks";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EVENT_TYPES } from "../../src/modules/webhooks/catalogue";
import { APP_1, APP_2, createWebhookFor, shardFor, tokenFor } from "../helpers/factories";
import { rowCallerLacks } from "../helpers/isolation";
import { fakeReceiver } from "../helpers/receiver";
import { call, json, problem } from "../helpers/request";

// This file needs a database of its own (vitest.config.ts): it or its helpers take stores 1 and 2, or
// records of theirs, as fixed ids.

const BASE = "/api/v1/dashboard/admin/integrations/webhooks/";
let token: string;
const as1 = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: APP_1, orgId: 1 });

beforeAll(async () => {
  token = await tokenFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
});
afterEach(() => vi.restoreAllMocks());

/** A webhook as stored, on its store's shard (ids are unique per shard only). */
const stored = (id: number, appId = APP_1) =>
  shardFor(appId)
    .prepare("SELECT * FROM webhooks WHERE id = ? AND app_id = ?")
    .bind(id, appId)
    .first<Record<string, any>>();

describe("Create, update, list and delete webhooks", () => {
  it("creates a webhook with a generated whsec_ secret and returns the Webhook object of 2.7", async () => {
    const res = await as1(BASE, {
      method: "POST",
      body: {
        url: "https://hooks.shop.example.org/in",
        events: ["ticket.created", "ticket.checked_in"],
        headers: { "X-Api-Key": "k1" },
      },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual([
      "created_at",
      "disabled_at",
      "disabled_reason",
      "events",
      "headers",
      "id",
      "is_active",
      "is_deleted",
      "modified_at",
      "secret_key",
      "url",
    ]);
    expect(body).toMatchObject({ disabled_reason: null, disabled_at: null });
    expect(body).toMatchObject({
      url: "https://hooks.shop.example.org/in",
      is_active: true,
      events: ["ticket.created", "ticket.checked_in"],
      headers: { "X-Api-Key": "k1" },
    });
    expect(body.secret_key).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await stored(body.id)).toMatchObject({ app_id: APP_1, secret_key: body.secret_key, is_active: 1 });
  });

  it.each([
    [
      "an unknown event, listing the valid ones",
      { url: "https://hooks.example.org/a", events: ["order.exploded"] },
      "events",
      new RegExp(EVENT_TYPES[0]!),
    ],
    ["no events", { url: "https://hooks.example.org/a", events: [] }, "events", /at least|>=1|too small/i],
    ["http", { url: "http://hooks.example.org/a", events: ["ticket.created"] }, "url", /https/],
    ["localhost", { url: "https://localhost/a", events: ["ticket.created"] }, "url", /public host/],
    ["a private address", { url: "https://10.0.0.8/a", events: ["ticket.created"] }, "url", /public address/],
    ["cloud metadata", { url: "https://169.254.169.254/", events: ["ticket.created"] }, "url", /public address/],
    ["IPv6 loopback", { url: "https://[::1]/", events: ["ticket.created"] }, "url", /IPv6/],
    [
      "a header overriding ours",
      { url: "https://hooks.example.org/a", events: ["ticket.created"], headers: { "Webhook-Signature": "x" } },
      "headers",
      /cannot be overridden/,
    ],
    [
      "a header with a line break",
      { url: "https://hooks.example.org/a", events: ["ticket.created"], headers: { "X-A": "a\r\nX-B: b" } },
      "headers.X-A",
      /line breaks/,
    ],
    [
      "a secret sent by the client",
      { url: "https://hooks.example.org/a", events: ["ticket.created"], secret_key: "whsec_mine" },
      "secret_key",
      /Unknown field/,
    ],
  ])("400 for %s", async (_n, body, field, message) => {
    const before = (await shardFor(APP_1).prepare("SELECT count(*) AS n FROM webhooks").first<{ n: number }>())!.n;
    const res = await as1(BASE, { method: "POST", body });
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.errors?.[field]?.join(" ")).toMatch(message);
    expect((await shardFor(APP_1).prepare("SELECT count(*) AS n FROM webhooks").first<{ n: number }>())!.n).toBe(
      before,
    );
  });

  it("updates url, events, is_active and headers, exactly as 4.7, and returns the secret", async () => {
    const w = await createWebhookFor(APP_1);
    const res = await as1(`${BASE}${w.id}/`, {
      method: "PATCH",
      body: {
        url: "https://new.example.org/hook",
        events: ["item.updated"],
        is_active: false,
        headers: { "X-Tenant": "1" },
      },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      id: w.id,
      url: "https://new.example.org/hook",
      events: ["item.updated"],
      is_active: false,
      headers: { "X-Tenant": "1" },
      secret_key: w.secretKey,
    });
    expect(await stored(w.id)).toMatchObject({ url: "https://new.example.org/hook", is_active: 0 });
    const partial = await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { is_active: true } });
    expect(await json(partial)).toMatchObject({ url: "https://new.example.org/hook", is_active: true });
  });

  it("refuses an update to a private target and leaves the webhook as it was", async () => {
    const w = await createWebhookFor(APP_1);
    const res = await as1(`${BASE}${w.id}/`, { method: "PATCH", body: { url: "https://192.168.0.1/x" } });
    expect(res.status).toBe(400);
    expect((await stored(w.id))!.url).toBe(w.url);
    expect((await as1(`${BASE}${w.id}/`, { method: "PATCH", body: {} })).status).toBe(400);
  });

  it("404 for another store's webhook, which stays as it was", async () => {
    const theirs = await rowCallerLacks("webhooks", APP_1, () => createWebhookFor(APP_2));
    for (const [method, path, body] of [
      ["PATCH", `${BASE}${theirs.id}/`, { is_active: false }],
      ["DELETE", `${BASE}${theirs.id}/`, undefined],
      ["POST", `${BASE}${theirs.id}/test/`, undefined],
      ["POST", `${BASE}${theirs.id}/rotate-secret/`, undefined],
    ] as const) {
      const res = await as1(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await stored(theirs.id, APP_2)).toMatchObject({ is_active: 1, is_deleted: 0, secret_key: theirs.secretKey });
  });

  it("lists the store's webhooks in the envelope, and deletes one (then 404)", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://list.example.org/one" });
    const list = await json(await as1(`${BASE}?url=${encodeURIComponent("https://list.example.org/one")}`));
    expect(list).toMatchObject({
      count: 1,
      next: null,
      previous: null,
      results: [{ id: w.id, url: "https://list.example.org/one" }],
    });
    const del = await as1(`${BASE}${w.id}/`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect((await as1(`${BASE}${w.id}/`, { method: "DELETE" })).status).toBe(404);
    expect((await json(await as1(`${BASE}?id=${w.id}`))).count).toBe(0);
    expect(await stored(w.id)).toMatchObject({ is_deleted: 1, is_active: 0 });
  });

  it("deletes by URL every webhook of the store with that URL, and only those", async () => {
    const url = "https://by-url.example.org/hook";
    const [a, b] = [await createWebhookFor(APP_1, { url }), await createWebhookFor(APP_1, { url })];
    const theirs = await createWebhookFor(APP_2, { url });
    const res = await as1(`${BASE}?url=${encodeURIComponent(url)}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deleted: 2 });
    for (const w of [a, b]) expect((await stored(w.id))!.is_deleted).toBe(1);
    expect((await stored(theirs.id, APP_2))!.is_deleted).toBe(0);
    expect((await as1(`${BASE}?url=${encodeURIComponent(url)}`, { method: "DELETE" })).status).toBe(404);
    expect((await as1(BASE, { method: "DELETE" })).status).toBe(400);
  });
});

describe("Test Webhook, secret rotation and logs", () => {
  it("sends a signed webhook.test at once and returns and logs the attempt", async () => {
    const w = await createWebhookFor(APP_1, { url: "https://receiver.example.org/in", headers: { "X-Api-Key": "k" } });
    const received = fakeReceiver(() => new Response("thanks", { status: 200 }));
    const res = await as1(`${BASE}${w.id}/test/`, { method: "POST" });
    expect(res.status).toBe(200);
    const log = await json(res);
    expect(log).toMatchObject({
      webhook: w.id,
      event: "webhook.test",
      attempt: 1,
      trigger: "test",
      status_code: 200,
      status: "delivered",
      response_body: "thanks",
      error_class: null,
    });
    expect(received).toHaveLength(1);
    const [seen] = received;
    expect(seen!.url).toBe("https://receiver.example.org/in");
    expect(seen!.method).toBe("POST");
    expect(seen!.headers["x-api-key"]).toBe("k");
    expect(seen!.headers["content-type"]).toBe("application/json");
    expect(seen!.headers["user-agent"]).toMatch(/Webhooks/);
    expect(seen!.redirect).toBe("manual");
    const payload = new Webhook(w.secretKey).verify(seen!.body, seen!.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: "webhook.test",
      event: "webhook.test",
      app_id: APP_1,
      data: { webhook: w.id },
    });
    const logs = await json(await as1(`${BASE}logs/?webhook=${w.id}`));
    expect(logs.count).toBe(1);
    expect(logs.results[0]).toEqual(log);
  });

  it("reports a failed test without retrying it", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver(() => new Response("down", { status: 503 }));
    const log = await json(await as1(`${BASE}${w.id}/test/`, { method: "POST" }));
    expect(log).toMatchObject({ status_code: 503, status: "failed", error_class: "http", next_attempt_at: null });
  });

  it("rotates the secret: deliveries carry both signatures for 24 hours", async () => {
    const w = await createWebhookFor(APP_1);
    const res = await as1(`${BASE}${w.id}/rotate-secret/`, { method: "POST" });
    expect(res.status).toBe(200);
    const rotated = await json(res);
    expect(rotated.secret_key).not.toBe(w.secretKey);
    const row = await stored(w.id);
    expect(row!.previous_secret_key).toBe(w.secretKey);
    expect(Date.parse(row!.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const received = fakeReceiver();
    await as1(`${BASE}${w.id}/test/`, { method: "POST" });
    const { body, headers } = received[0]!;
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(rotated.secret_key).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(w.secretKey).verify(body, headers)).not.toThrow();
  });

  it("filters logs by status, event and date, and refuses unknown filters", async () => {
    const w = await createWebhookFor(APP_1);
    fakeReceiver((_r, n) => (n === 1 ? new Response("ok") : new Response("no", { status: 500 })));
    await as1(`${BASE}${w.id}/test/`, { method: "POST" });
    await as1(`${BASE}${w.id}/test/`, { method: "POST" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await json(await as1(`${BASE}logs/?webhook=${w.id}&status=failed`))).count).toBe(1);
    expect((await json(await as1(`${BASE}logs/?webhook=${w.id}&event=webhook.test&created_at=${today}`))).count).toBe(
      2,
    );
    expect((await json(await as1(`${BASE}logs/?webhook=${w.id}&status_code__gte=500`))).results[0].status_code).toBe(
      500,
    );
    const bad = await as1(`${BASE}logs/?outcome=failed`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["outcome"]);
  });
});
