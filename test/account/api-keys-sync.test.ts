import { afterEach, describe, expect, it, vi } from "vitest";
import { APP_1, tokenFor } from "../helpers/factories";
import { call, pageIds as ids, json } from "../helpers/request";

/** List API Keys as a mirror reads it (docs/interface-decisions.md, "Lists: incremental sync"). */

const KEYS = "/api/v1/dashboard/admin/api-keys/";
const SETTINGS = "/api/v1/dashboard/admin/settings/";

/** The clock (Date only) a minute after `from`: each change below happens later than the one before. */
const later = (from: string) => vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(from) + 60_000 });

afterEach(() => vi.useRealTimers());

describe("List API Keys: modified_at", () => {
  it("revoking, rotating and using a key each move its modified_at; the filter and order see them", async () => {
    const token = await tokenFor(APP_1, ["can_manage_api_keys", "can_retrieve_app_config"]);
    const get = async (path: string, method = "GET") => json(await call(path, { method, token, appId: APP_1 }));
    const create = async (name: string) =>
      json(
        await call(KEYS, {
          method: "POST",
          token,
          appId: APP_1,
          body: { name, permissions: ["can_retrieve_app_config"] },
        }),
      );
    const a = await create("sync a");
    const b = await create("sync b");
    expect(a.modified_at).toBe(a.created_at);
    // The calling key's own use moves it too: each read below names the keys it is about.
    const both = `id__in=${a.id},${b.id}`;

    later(b.modified_at);
    const revoked = await get(`${KEYS}${a.id}/revoke/`, "POST");
    expect(revoked.modified_at).toBe(revoked.revoked_at);
    expect(revoked.modified_at > b.modified_at).toBe(true);
    const since = await get(`${KEYS}?${both}&modified_at__gte=${revoked.modified_at}&order_by=modified_at`);
    expect(ids(since)).toEqual([a.id]);
    expect(ids(await get(`${KEYS}?${both}&order_by=-modified_at`))).toEqual([a.id, b.id]);

    later(revoked.modified_at);
    const successor = await get(`${KEYS}${b.id}/rotate/`, "POST");
    const rotated = await get(`${KEYS}${b.id}/`);
    expect(rotated).toMatchObject({ replaced_by: successor.id, modified_at: new Date().toISOString() });
    expect(successor.modified_at).toBe(rotated.modified_at);

    // A use is shown (last_used_at), so it moves the key as well.
    later(rotated.modified_at);
    expect((await call(SETTINGS, { token: successor.secret, appId: APP_1 })).status).toBe(200);
    const used = await get(`${KEYS}?id__in=${a.id},${b.id},${successor.id}&modified_at__gt=${rotated.modified_at}`);
    expect(used.results).toEqual([
      expect.objectContaining({ id: successor.id, last_used_at: new Date().toISOString() }),
    ]);
    expect(used.results[0].modified_at).toBe(used.results[0].last_used_at);
  });

  it("takes no include_deleted: keys are never deleted", async () => {
    const token = await tokenFor(APP_1, ["can_manage_api_keys"]);
    expect((await call(`${KEYS}?include_deleted=true`, { token, appId: APP_1 })).status).toBe(400);
  });
});
