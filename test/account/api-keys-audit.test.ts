import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/crypto";
import { auditRowsOf, keyFor } from "../helpers/audit";
import { APP_1 } from "../helpers/factories";
import { platformCall, platformStore } from "../helpers/platform";
import { call, json } from "../helpers/request";

// The audit trail of merchant API keys: created (by a key or by the platform), revoked, rotated,
// each in the change's own batch, never with a secret or its hash; a refused change records nothing.

const KEYS = "/api/v1/dashboard/admin/api-keys/";
const PERMS = ["can_manage_api_keys", "can_retrieve_app_config"] as const;

const rowsOfKey = async (appId: number, keyId: number) =>
  (await auditRowsOf(appId, "api_key.")).filter((r) => r.resource_id === String(keyId));

/** The secret and its hash appear nowhere in the stored rows. */
async function expectNoSecret(rows: { text: string }[], secret: string) {
  const hash = await sha256Hex(secret);
  for (const r of rows) {
    expect(r.text).not.toContain(secret);
    expect(r.text).not.toContain(hash);
    expect(r.text).not.toContain("token_hash");
  }
}

describe("Audit trail of API keys", () => {
  it("records a key created by a key: no before, the key as listed after, the request's id", async () => {
    const manager = await keyFor(APP_1, [...PERMS]);
    const res = await call(KEYS, {
      method: "POST",
      token: manager.token,
      appId: APP_1,
      body: { name: "Audited", permissions: ["can_retrieve_app_config"] },
    });
    expect(res.status).toBe(201);
    const key = await json(res);
    const rows = await rowsOfKey(APP_1, key.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      app_id: APP_1,
      actor_type: "api_key",
      actor_id: manager.id,
      action: "api_key.created",
      resource_type: "api_key",
      request_id: res.headers.get("x-request-id"),
      before: null,
      after: {
        id: key.id,
        name: "Audited",
        prefix: key.prefix,
        last_four: key.last_four,
        permissions: ["can_retrieve_app_config"],
        created_by: manager.id,
        expires_at: null,
        revoked_at: null,
        replaced_by: null,
      },
    });
    await expectNoSecret(rows, key.secret);
  });

  it("records a rotation (the new key created, the old one before and after) and a revoke", async () => {
    const manager = await keyFor(APP_1, [...PERMS]);
    const opts = { method: "POST", token: manager.token, appId: APP_1 };
    const old = await json(
      await call(KEYS, { ...opts, body: { name: "R", permissions: ["can_retrieve_app_config"] } }),
    );
    const rotated = await call(`${KEYS}${old.id}/rotate/`, { ...opts, body: { grace_period_seconds: 60 } });
    expect(rotated.status).toBe(201);
    const fresh = await json(rotated);
    const requestId = rotated.headers.get("x-request-id");

    const [oldCreated, oldRotated] = await rowsOfKey(APP_1, old.id);
    expect(oldCreated!.action).toBe("api_key.created");
    expect(oldRotated).toMatchObject({
      action: "api_key.rotated",
      actor_id: manager.id,
      request_id: requestId,
      before: { id: old.id, expires_at: null, replaced_by: null },
      after: { id: old.id, expires_at: expect.any(String), replaced_by: fresh.id },
    });
    const [newCreated] = await rowsOfKey(APP_1, fresh.id);
    expect(newCreated).toMatchObject({
      action: "api_key.created",
      request_id: requestId,
      before: null,
      after: { id: fresh.id, name: "R", replaced_by: null },
    });

    const revoked = await call(`${KEYS}${fresh.id}/revoke/`, opts);
    expect(revoked.status).toBe(200);
    const freshRows = await rowsOfKey(APP_1, fresh.id);
    expect(freshRows.map((r) => r.action)).toEqual(["api_key.created", "api_key.revoked"]);
    expect(freshRows[1]).toMatchObject({
      actor_id: manager.id,
      request_id: revoked.headers.get("x-request-id"),
      before: { revoked_at: null },
      after: { revoked_at: expect.any(String) },
    });
    await expectNoSecret([...freshRows, oldCreated!, oldRotated!], fresh.secret);
    await expectNoSecret([...freshRows, oldCreated!, oldRotated!], old.secret);
  });

  it("a refused change records nothing: escalation (403), revoked twice or rotated (409), unknown key (404)", async () => {
    const manager = await keyFor(APP_1, [...PERMS]);
    const opts = { method: "POST", token: manager.token, appId: APP_1 };
    const key = await json(
      await call(KEYS, { ...opts, body: { name: "Once", permissions: ["can_retrieve_app_config"] } }),
    );
    expect((await call(`${KEYS}${key.id}/revoke/`, opts)).status).toBe(200);
    const before = (await auditRowsOf(APP_1, "api_key.")).length;
    const statuses = [
      (await call(KEYS, { ...opts, body: { name: "Up", permissions: ["can_write_order"] } })).status,
      (await call(`${KEYS}${key.id}/revoke/`, opts)).status,
      (await call(`${KEYS}${key.id}/rotate/`, opts)).status,
      (await call(`${KEYS}999999999/revoke/`, opts)).status,
    ];
    expect(statuses).toEqual([403, 409, 409, 404]);
    expect((await auditRowsOf(APP_1, "api_key.")).length).toBe(before);
  });

  it("records a key the platform issues with the actor platform; none for an unknown store", async () => {
    const { storeId } = await platformStore();
    const res = await platformCall(`/platform/v1/stores/${storeId}/api-keys/`, {
      method: "POST",
      body: { name: "first" },
    });
    expect(res.status).toBe(201);
    const key = await json(res);
    const rows = await rowsOfKey(storeId, key.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      app_id: storeId,
      actor_type: "platform",
      actor_id: null,
      action: "api_key.created",
      request_id: res.headers.get("x-request-id"),
      before: null,
      after: { id: key.id, name: "first", created_by: null },
    });
    await expectNoSecret(rows, key.secret);
    const missing = await platformCall("/platform/v1/stores/999999999/api-keys/", {
      method: "POST",
      body: { name: "x" },
    });
    expect(missing.status).toBe(404);
    expect(await auditRowsOf(999999999)).toHaveLength(0);
  });
});
