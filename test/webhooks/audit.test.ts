import { beforeAll, describe, expect, it } from "vitest";
import { auditRowsOf, keyFor } from "../helpers/audit";
import { APP_1, shardFor } from "../helpers/factories";
import { call, callWaits, json } from "../helpers/request";

// Every change to a webhook writes one audit row in the change's own batch: who (the key), what,
// the request's id, the webhook before and after; never its secret nor its headers' values.

const BASE = "/api/v1/dashboard/admin/integrations/webhooks/";
const HEADER_VALUE = "Bearer receiver-credential-0001";
let key: { id: number; token: string };
const send = (path: string, method = "GET", body?: unknown) =>
  callWaits(path, { method, token: key.token, appId: APP_1, orgId: APP_1, body });

beforeAll(async () => {
  key = await keyFor(APP_1, ["can_update_app_config", "can_retrieve_app_config"]);
});

async function create(url = "https://hooks.audit.example.org/in") {
  const { res } = await send(BASE, "POST", {
    url,
    events: ["ticket.created"],
    headers: { Authorization: HEADER_VALUE },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)) as { id: number; secret_key: string };
}

const secretsOf = async (id: number) =>
  (await shardFor(APP_1)
    .prepare("SELECT secret_key, previous_secret_key FROM webhooks WHERE id = ?")
    .bind(id)
    .first<{ secret_key: string; previous_secret_key: string | null }>())!;

async function eventsOf(id: number) {
  const { results } = await shardFor(APP_1)
    .prepare(
      "SELECT type FROM outbox_events WHERE app_id = ? AND type LIKE 'webhook.%' AND json_extract(payload, '$.data.id') = ? ORDER BY rowid",
    )
    .bind(APP_1, id)
    .all<{ type: string }>();
  return results.map((r) => r.type);
}

/** The rows of one webhook, and a check that no secret of it is anywhere in them. */
async function rowsOfWebhook(id: number) {
  const rows = (await auditRowsOf(APP_1, "webhook.")).filter((r) => r.resource_id === String(id));
  const { secret_key, previous_secret_key } = await secretsOf(id);
  for (const r of rows) {
    expect(r.text).not.toContain(secret_key);
    if (previous_secret_key) expect(r.text).not.toContain(previous_secret_key);
    expect(r.text).not.toContain(HEADER_VALUE);
  }
  return rows;
}

describe("Audit trail of webhooks", () => {
  it("create: one row, the key as actor, the request's id, after only; event webhook.created", async () => {
    const { res, waits } = await send(BASE, "POST", {
      url: "https://hooks.audit.example.org/created",
      events: ["ticket.created"],
      headers: { Authorization: HEADER_VALUE },
    });
    expect(res.status).toBe(201);
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    const webhook = await json(res);
    const rows = await rowsOfWebhook(webhook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      app_id: APP_1,
      actor_type: "api_key",
      actor_id: key.id,
      action: "webhook.created",
      resource_type: "webhook",
      request_id: res.headers.get("x-request-id"),
      before: null,
      after: {
        url: "https://hooks.audit.example.org/created",
        is_active: true,
        events: ["ticket.created"],
        header_names: ["Authorization"],
        disabled_reason: null,
        disabled_at: null,
        previous_secret_expires_at: null,
        created_at: webhook.created_at,
      },
    });
    expect(rows[0]!.text).not.toContain(webhook.secret_key);
    expect(await eventsOf(webhook.id)).toEqual(["webhook.created"]);
  });

  it("update: before and after, in the update's own batch (two D1 waits at most)", async () => {
    const webhook = await create();
    const { res, waits } = await send(`${BASE}${webhook.id}/`, "PATCH", {
      url: "https://hooks.audit.example.org/moved",
      is_active: false,
    });
    expect(res.status).toBe(200);
    expect(waits.beyondAuth).toBeLessThanOrEqual(2);
    const body = await json(res);
    expect(body).toMatchObject({ url: "https://hooks.audit.example.org/moved", is_active: false });
    const rows = await rowsOfWebhook(webhook.id);
    expect(rows.map((r) => r.action)).toEqual(["webhook.created", "webhook.updated"]);
    const [created, updated] = rows;
    // The same shape before and after: the create's after is the update's before.
    expect(updated!.before).toEqual(created!.after);
    expect(updated!.after).toMatchObject({
      url: "https://hooks.audit.example.org/moved",
      is_active: false,
      disabled_reason: body.disabled_reason,
      disabled_at: body.disabled_at,
    });
    expect(updated).toMatchObject({ actor_id: key.id, request_id: res.headers.get("x-request-id") });
    expect(await eventsOf(webhook.id)).toEqual(["webhook.created", "webhook.updated"]);
  });

  it("rotate: one row whose after names the overlap, with neither secret", async () => {
    const webhook = await create();
    const { res } = await send(`${BASE}${webhook.id}/rotate-secret/`, "POST");
    expect(res.status).toBe(200);
    const rotated = await json(res);
    expect(rotated.secret_key).not.toBe(webhook.secret_key);
    const rows = await rowsOfWebhook(webhook.id);
    expect(rows.map((r) => r.action)).toEqual(["webhook.created", "webhook.secret_rotated"]);
    expect(rows[1]!.before).toMatchObject({ previous_secret_expires_at: null });
    expect(rows[1]!.after!.previous_secret_expires_at).toEqual(expect.any(String));
    for (const r of rows) {
      expect(r.text).not.toContain(webhook.secret_key);
      expect(r.text).not.toContain(rotated.secret_key);
    }
    expect(await eventsOf(webhook.id)).toEqual(["webhook.created", "webhook.secret_rotated"]);
  });

  it("delete by id: one row, before only", async () => {
    const webhook = await create();
    const { res } = await send(`${BASE}${webhook.id}/`, "DELETE");
    expect(res.status).toBe(204);
    const rows = await rowsOfWebhook(webhook.id);
    expect(rows.map((r) => r.action)).toEqual(["webhook.created", "webhook.deleted"]);
    expect(rows[1]).toMatchObject({ before: rows[0]!.after, after: null, actor_id: key.id });
    expect(await eventsOf(webhook.id)).toEqual(["webhook.created", "webhook.deleted"]);
  });

  it("delete by URL: one row and one event per webhook deleted", async () => {
    const url = "https://hooks.audit.example.org/by-url";
    const [a, b] = [await create(url), await create(url)];
    const { res } = await send(`${BASE}?url=${encodeURIComponent(url)}`, "DELETE");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deleted: 2 });
    for (const w of [a, b]) {
      const rows = await rowsOfWebhook(w.id);
      expect(rows.map((r) => r.action)).toEqual(["webhook.created", "webhook.deleted"]);
      expect(rows[1]!.before).toMatchObject({ url });
      expect(await eventsOf(w.id)).toEqual(["webhook.created", "webhook.deleted"]);
    }
  });

  it("a refused change writes no row: unknown webhook (404), a URL refused (400), nothing left to delete", async () => {
    const before = (await auditRowsOf(APP_1)).length;
    const webhook = await create();
    const refused = [
      await send(`${BASE}999999/`, "PATCH", { is_active: false }),
      await send(`${BASE}999999/rotate-secret/`, "POST"),
      await send(`${BASE}999999/`, "DELETE"),
      await send(`${BASE}${webhook.id}/`, "PATCH", { url: "http://localhost/in" }),
      await send(BASE, "POST", { url: "http://127.0.0.1/in", events: ["ticket.created"] }),
      await send(`${BASE}?url=${encodeURIComponent("https://nobody.example.org/in")}`, "DELETE"),
    ];
    expect(refused.map((r) => r.res.status)).toEqual([404, 404, 404, 400, 400, 404]);
    expect((await auditRowsOf(APP_1)).length).toBe(before + 1); // the create only
  });

  it("a request without a token changes nothing and records nothing", async () => {
    const webhook = await create();
    const res = await call(`${BASE}${webhook.id}/`, { method: "DELETE", appId: APP_1, orgId: APP_1 });
    expect(res.status).toBe(401);
    expect((await rowsOfWebhook(webhook.id)).map((r) => r.action)).toEqual(["webhook.created"]);
  });
});
