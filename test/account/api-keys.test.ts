import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { forgetHeldTokens, PERMISSIONS } from "../../src/core/auth";
import { directoryOf } from "../../src/db/shards";
import { ApiKeySchema, ApiKeyWithSecretSchema } from "../../src/modules/account/api-keys/schemas";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, APP_2, shardFor, tokenFor } from "../helpers/factories";
import { platformCall, platformStore } from "../helpers/platform";
import { call, json, problem } from "../helpers/request";

const KEYS = "/api/v1/dashboard/admin/api-keys/";
const SETTINGS = "/api/v1/dashboard/admin/settings/";

const manager = (appId = APP_1) => tokenFor(appId, ["can_manage_api_keys", "can_retrieve_app_config"]);
const create = (token: string, body: unknown, appId = APP_1) => call(KEYS, { method: "POST", token, appId, body });

describe("Create, list and read API keys", () => {
  it("creates a key with its secret once; lists and reads it without the secret", async () => {
    const token = await manager();
    const res = await create(token, { name: "Back office", permissions: ["can_retrieve_app_config"] });
    expect(res.status).toBe(201);
    const key = ApiKeyWithSecretSchema.strict().parse(await json(res));
    expect(key).toMatchObject({
      name: "Back office",
      permissions: ["can_retrieve_app_config"],
      created_by: expect.any(Number),
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      status: "active",
      prefix: key.secret.slice(0, 10),
      last_four: key.secret.slice(-4),
    });
    expect((await call(SETTINGS, { token: key.secret, appId: APP_1 })).status).toBe(200);

    const one = await json(await call(`${KEYS}${key.id}/`, { token, appId: APP_1 }));
    expect(ApiKeySchema.strict().parse(one)).toMatchObject({ id: key.id, name: "Back office" });
    expect(JSON.stringify(one)).not.toContain(key.secret.slice(4, 20));
    const list = await json(await call(`${KEYS}?search=Back%20office&status=active`, { token, appId: APP_1 }));
    expect(list.results.map((k: { id: number }) => k.id)).toContain(key.id);
    for (const k of list.results) expect(k).not.toHaveProperty("secret");

    const event = await shardFor(APP_1)
      .prepare(
        "SELECT payload FROM outbox_events WHERE type = 'api_key.created' AND app_id = ? AND json_extract(payload, '$.data.id') = ?",
      )
      .bind(APP_1, key.id)
      .first<{ payload: string }>();
    expect(JSON.parse(event!.payload).data).toEqual({
      id: key.id,
      name: "Back office",
      permissions: ["can_retrieve_app_config"],
    });
  });

  it("writes last_used_at after a request made with the key", async () => {
    const token = await manager();
    const key = await json(await create(token, { name: "used", permissions: ["can_retrieve_app_config"] }));
    await call(SETTINGS, { token: key.secret, appId: APP_1 });
    const read = await json(await call(`${KEYS}${key.id}/`, { token, appId: APP_1 }));
    expect(read.last_used_at).toEqual(expect.any(String));
  });

  it("403 permission_escalation naming the permissions the calling key lacks; nothing created", async () => {
    const token = await manager();
    const res = await create(token, { name: "wider", permissions: ["can_retrieve_app_config", "can_write_order"] });
    expect(res.status).toBe(403);
    expect(await problem(res)).toMatchObject({ code: "permission_escalation", permissions: ["can_write_order"] });
    const list = await json(await call(`${KEYS}?search=wider`, { token, appId: APP_1 }));
    expect(list.count).toBe(0);
  });

  it("400 for an expiry in the past or past the calling key's own; its expiry when none is given", async () => {
    const ends = new Date(Date.now() + 86_400_000).toISOString();
    const token = await tokenFor(APP_1, ["can_manage_api_keys"], { expiresAt: ends });
    const past = await create(token, {
      name: "p",
      permissions: ["can_manage_api_keys"],
      expires_at: "2020-01-01T00:00:00Z",
    });
    expect(past.status).toBe(400);
    expect((await problem(past)).errors).toHaveProperty("expires_at");
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const beyond = await create(token, { name: "b", permissions: ["can_manage_api_keys"], expires_at: later });
    expect(beyond.status).toBe(400);
    const inherited = await json(await create(token, { name: "i", permissions: ["can_manage_api_keys"] }));
    expect(inherited.expires_at).toBe(ends);
  });

  it("404 for another store's key; 400 for an unknown status filter", async () => {
    const other = await json(
      await create(await manager(APP_2), { name: "theirs", permissions: ["can_manage_api_keys"] }, APP_2),
    );
    const res = await call(`${KEYS}${other.id}/`, { token: await manager(), appId: APP_1 });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("api_key_not_found");
    const bad = await call(`${KEYS}?status=gone`, { token: await manager(), appId: APP_1 });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("status");
  });
});

describe("Revoke and rotate", () => {
  it("a revoked key is refused at once (401 token_revoked); revoking it again is a 409", async () => {
    const token = await manager();
    const key = await json(await create(token, { name: "gone", permissions: ["can_retrieve_app_config"] }));
    expect((await call(SETTINGS, { token: key.secret, appId: APP_1 })).status).toBe(200);
    const revoked = await call(`${KEYS}${key.id}/revoke/`, { method: "POST", token, appId: APP_1 });
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toMatchObject({ id: key.id, status: "revoked", revoked_at: expect.any(String) });
    const refused = await call(SETTINGS, { token: key.secret, appId: APP_1 });
    expect(refused.status).toBe(401);
    expect((await problem(refused)).code).toBe("token_revoked");
    const again = await call(`${KEYS}${key.id}/revoke/`, { method: "POST", token, appId: APP_1 });
    expect(again.status).toBe(409);
    expect((await problem(again)).code).toBe("invalid_state_transition");
    const listed = await json(await call(`${KEYS}?status=revoked&search=gone`, { token, appId: APP_1 }));
    expect(listed.results.map((k: { id: number }) => k.id)).toContain(key.id);
  });

  it("rotation: the new key works, the old one during its grace, then is refused as expired", async () => {
    const token = await manager();
    const old = await json(await create(token, { name: "rotating", permissions: ["can_retrieve_app_config"] }));
    const res = await call(`${KEYS}${old.id}/rotate/`, {
      method: "POST",
      token,
      appId: APP_1,
      body: { grace_period_seconds: 3600 },
    });
    expect(res.status).toBe(201);
    const fresh = await json(res);
    expect(fresh).toMatchObject({ name: "rotating", permissions: ["can_retrieve_app_config"], status: "active" });
    expect(fresh.secret).not.toBe(old.secret);
    expect((await call(SETTINGS, { token: fresh.secret, appId: APP_1 })).status).toBe(200);
    expect((await call(SETTINGS, { token: old.secret, appId: APP_1 })).status).toBe(200);
    const before = await json(await call(`${KEYS}${old.id}/`, { token, appId: APP_1 }));
    expect(before.replaced_by).toBe(fresh.id);
    const graceEnds = Date.parse(before.expires_at);
    expect(graceEnds - Date.now()).toBeGreaterThan(3_000_000);
    expect(graceEnds - Date.now()).toBeLessThanOrEqual(3_600_000);

    // The grace passes: its end is moved into the past rather than waited for.
    // The directory's row is the one the token check reads; the shard's copy is what the lists show.
    for (const d1 of [shardFor(APP_1), directoryOf(env)])
      await d1
        .prepare("UPDATE merchant_api_tokens SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
        .bind(old.id)
        .run();
    forgetHeldTokens();
    const refused = await call(SETTINGS, { token: old.secret, appId: APP_1 });
    expect(refused.status).toBe(401);
    expect((await problem(refused)).code).toBe("token_expired");
    expect((await call(SETTINGS, { token: fresh.secret, appId: APP_1 })).status).toBe(200);

    const rotated = await shardFor(APP_1)
      .prepare(
        "SELECT payload FROM outbox_events WHERE type = 'api_key.rotated' AND app_id = ? AND json_extract(payload, '$.data.id') = ?",
      )
      .bind(APP_1, old.id)
      .first<{ payload: string }>();
    expect(JSON.parse(rotated!.payload).data).toMatchObject({ id: old.id, replaced_by: fresh.id });
  });

  it("rotation without a body keeps the old key a day; a grace of 0 stops it at once; a rotated key is not rotated again", async () => {
    const token = await manager();
    const a = await json(await create(token, { name: "a", permissions: ["can_retrieve_app_config"] }));
    const rotatedA = await call(`${KEYS}${a.id}/rotate/`, { method: "POST", token, appId: APP_1 });
    expect(rotatedA.status).toBe(201);
    const oldA = await json(await call(`${KEYS}${a.id}/`, { token, appId: APP_1 }));
    expect(Date.parse(oldA.expires_at) - Date.now()).toBeGreaterThan(86_000_000);
    const again = await call(`${KEYS}${a.id}/rotate/`, { method: "POST", token, appId: APP_1 });
    expect(again.status).toBe(409);

    const b = await json(await create(token, { name: "b", permissions: ["can_retrieve_app_config"] }));
    await call(`${KEYS}${b.id}/rotate/`, { method: "POST", token, appId: APP_1, body: { grace_period_seconds: 0 } });
    const refused = await call(SETTINGS, { token: b.secret, appId: APP_1 });
    expect(refused.status).toBe(401);
    expect((await problem(refused)).code).toBe("token_expired");
    const tooLong = await call(`${KEYS}${a.id}/rotate/`, {
      method: "POST",
      token,
      appId: APP_1,
      body: { grace_period_seconds: 604_801 },
    });
    expect(tooLong.status).toBe(400);
  });

  it("403 permission_escalation when rotating a key with permissions the caller lacks", async () => {
    const wide = await json(
      await create(await tokenFor(APP_1, [...PERMISSIONS]), { name: "wide", permissions: ["can_write_order"] }),
    );
    const res = await call(`${KEYS}${wide.id}/rotate/`, { method: "POST", token: await manager(), appId: APP_1 });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("permission_escalation");
  });

  it("403 app_suspended with a suspended store's key", async () => {
    const { storeId } = await platformStore();
    const token = await manager(storeId);
    expect((await call(KEYS, { token, appId: storeId })).status).toBe(200);
    await platformCall(`/platform/v1/stores/${storeId}/suspend/`, { method: "POST", body: { reason: "Audit" } });
    const res = await call(KEYS, { token, appId: storeId });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("app_suspended");
  });
});

sharedAuthCases({ method: "GET", path: KEYS, permission: "can_manage_api_keys" });
sharedAuthCases({
  method: "POST",
  path: KEYS,
  permission: "can_manage_api_keys",
  body: { name: "x", permissions: ["can_manage_api_keys"] },
});
sharedAuthCases({ method: "POST", path: `${KEYS}1/revoke/`, permission: "can_manage_api_keys" });
sharedAuthCases({ method: "POST", path: `${KEYS}1/rotate/`, permission: "can_manage_api_keys" });
