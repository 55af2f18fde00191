import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { APP_1, tokenFor } from "../helpers/factories";
import { platformCall } from "../helpers/platform";
import { callWaits, json } from "../helpers/request";

const KEYS = "/api/v1/dashboard/admin/api-keys/";

describe("D1 waits of the API key and platform operations", () => {
  // Step 1 of docs/shards.md: a new key takes its id from the directory before the shard's batch (one
  // wait more, for create and rotate) until the relay of step 2 writes the shard's copy after it.
  it("a key's reads wait once beyond the token check; create twice, revoke once; rotate three times", async () => {
    const token = await tokenFor(APP_1, ["can_manage_api_keys"]);
    const created = await callWaits(KEYS, {
      method: "POST",
      token,
      appId: APP_1,
      body: { name: "w", permissions: ["can_manage_api_keys"] },
    });
    expect(created.res.status).toBe(201);
    expect(created.waits.beyondAuth).toBe(2);
    const { id } = await json(created.res);
    for (const path of [KEYS, `${KEYS}${id}/`]) {
      const read = await callWaits(path, { token, appId: APP_1 });
      expect(read.res.status).toBe(200);
      expect(read.waits.beyondAuth, path).toBe(1);
    }
    const rotated = await callWaits(`${KEYS}${id}/rotate/`, { method: "POST", token, appId: APP_1 });
    expect(rotated.res.status).toBe(201);
    expect(rotated.waits.beyondAuth).toBe(3);
    const revoked = await callWaits(`${KEYS}${(await json(rotated.res)).id}/revoke/`, {
      method: "POST",
      token,
      appId: APP_1,
    });
    expect(revoked.res.status).toBe(200);
    expect(revoked.waits.beyondAuth).toBe(1);
  });

  // Step 1 of docs/shards.md: the directory gives the store its id first, and a store operation finds
  // the store's shard in the directory first.
  it("the platform's create store waits three times (its id, the batch, its read); suspend twice", async () => {
    const org = await json(await platformCall("/platform/v1/organizations/", { method: "POST", body: { name: "W" } }));
    const meter = await callWaits("/platform/v1/stores/", {
      method: "POST",
      token: env.PLATFORM_API_KEY,
      appId: null,
      body: { organization_id: org.id, name_en: "W", name_ar: "و" },
    });
    expect(meter.res.status).toBe(201);
    expect(meter.waits.total).toBe(3);
    const { id } = await json(meter.res);
    const suspend = await callWaits(`/platform/v1/stores/${id}/suspend/`, {
      method: "POST",
      token: env.PLATFORM_API_KEY,
      appId: null,
      body: { reason: "w" },
    });
    expect(suspend.res.status).toBe(200);
    expect(suspend.waits.total).toBe(2);
  });
});
