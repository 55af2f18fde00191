// This file needs a database of its own: it sets the shards' measured sizes and closes shards, which
// decides where every store created meanwhile goes.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { directoryOf, shardOf } from "../../src/db/shards";
import worker from "../../src/index";
import { platformCall } from "../helpers/platform";
import { call, json, problem } from "../helpers/request";

const ORGS = "/platform/v1/organizations/";
const STORES = "/platform/v1/stores/";
const SHARDS = "/platform/v1/shards/";

let serial = 0;
async function newStore(extra: Record<string, unknown> = {}) {
  serial += 1;
  const org = await json(await platformCall(ORGS, { method: "POST", body: { name: `Placed ${serial}` } }));
  const res = await platformCall(STORES, {
    method: "POST",
    body: { organization_id: org.id, name_en: `Placed ${serial}`, name_ar: `موضوع ${serial}`, ...extra },
  });
  return res;
}

const measured = (name: string, sizeBytes: number, accepts = 1) =>
  directoryOf(env)
    .prepare(
      "INSERT INTO shards (name, size_bytes, accepts_stores) VALUES (?, ?, ?) " +
        "ON CONFLICT (name) DO UPDATE SET size_bytes = excluded.size_bytes, accepts_stores = excluded.accepts_stores",
    )
    .bind(name, sizeBytes, accepts)
    .run();

const shardsNow = async () => (await json(await platformCall(SHARDS))).results as { name: string; stores: number }[];

describe("placing a new store on a shard", () => {
  it("goes to the open shard with the smallest measured size, whichever it is", async () => {
    await Promise.all([measured("SHARD_1", 9_000_000), measured("SHARD_2", 1_000)]);
    const onTwo = await json(await newStore());
    expect(onTwo.shard).toBe("SHARD_2");
    await Promise.all([measured("SHARD_1", 1_000), measured("SHARD_2", 9_000_000)]);
    const onOne = await json(await newStore());
    expect(onOne.shard).toBe("SHARD_1");
    // Its rows are on that shard only: the copy of its directory row, its organization's, its settings.
    const rowOn = (shard: string) =>
      shardOf(env, shard).prepare("SELECT id, org_id FROM apps WHERE id = ?").bind(onTwo.id).first();
    expect(await rowOn("SHARD_2")).toEqual({ id: onTwo.id, org_id: onTwo.organization_id });
    expect(await rowOn("SHARD_1")).toBeNull();
  });

  it("breaks a tie of sizes by the fewest stores, and never picks a closed shard", async () => {
    await Promise.all([measured("SHARD_1", 0), measured("SHARD_2", 0)]);
    const counts = await shardsNow();
    const fewer = [...counts].sort((a, b) => a.stores - b.stores || a.name.localeCompare(b.name))[0]!.name;
    expect((await json(await newStore())).shard).toBe(fewer);
    await Promise.all([measured("SHARD_1", 0, 0), measured("SHARD_2", 9_000_000)]);
    expect((await json(await newStore())).shard).toBe("SHARD_2");
    await measured("SHARD_1", 0);
  });

  it("takes a pin to any bound shard, even a closed one; 404 shard_not_found for another name", async () => {
    await Promise.all([measured("SHARD_1", 0), measured("SHARD_2", 9_000_000, 0)]);
    const pinned = await newStore({ shard: "SHARD_2" });
    expect(pinned.status).toBe(201);
    expect((await json(pinned)).shard).toBe("SHARD_2");
    const before = await shardsNow();
    const unknown = await newStore({ shard: "SHARD_9" });
    expect(unknown.status).toBe(404);
    const body = await problem(unknown);
    expect(body.code).toBe("shard_not_found");
    expect(body.detail).toContain("SHARD_1, SHARD_2");
    expect(await shardsNow()).toEqual(before);
    const malformed = await newStore({ shard: "primary" });
    expect(malformed.status).toBe(400);
    expect((await problem(malformed)).errors).toHaveProperty("shard");
    await measured("SHARD_2", 0);
  });

  it("a store placed on the second shard works end to end: its key, its settings, its lists", async () => {
    const store = await json(await newStore({ shard: "SHARD_2", settings: { currency: "AED" } }));
    const key = await platformCall(`${STORES}${store.id}/api-keys/`, { method: "POST", body: { name: "first" } });
    expect(key.status).toBe(201);
    const token = (await json(key)).secret;
    const settings = await call("/api/v1/dashboard/admin/settings/", { token, appId: store.id });
    expect(settings.status).toBe(200);
    expect((await json(settings)).currency).toBe("AED");
    const item = await call("/order/v1/merchant/items/", {
      method: "POST",
      token,
      appId: store.id,
      body: { type: "product", service_type: "pickup", sku: "TEA-1", price: 10, name_en: "Tea", name_ar: "شاي" },
    });
    expect(item.status, await item.clone().text()).toBe(201);
    const listed = await json(await call("/order/v1/items/", { appId: store.id }));
    expect(listed.results.map((i: { id: number }) => i.id)).toContain((await json(item)).id);
    const details = await json(await platformCall(`${STORES}${store.id}/`));
    expect(details).toMatchObject({ id: store.id, shard: "SHARD_2", settings: { currency: "AED" } });
    const list = await json(await platformCall(`${STORES}?shard=SHARD_2&id=${store.id}`));
    expect(list.results).toEqual([expect.objectContaining({ id: store.id, shard: "SHARD_2" })]);
  });
});

describe("the shards", () => {
  it("lists every bound shard with its stores; the cron's measure-shard records each one's size", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "measure-shard" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const shards = await json(await platformCall(SHARDS));
    const counts = await directoryOf(env)
      .prepare("SELECT shard, count(*) AS n FROM apps GROUP BY shard ORDER BY shard")
      .all<{ shard: string; n: number }>();
    expect(shards.results.map((s: { name: string }) => s.name)).toEqual(["SHARD_1", "SHARD_2"]);
    for (const s of shards.results) {
      expect(s.size_bytes).toBeGreaterThan(0);
      expect(s.measured_at).toEqual(expect.any(String));
      expect(s.stores).toBe(counts.results.find((c) => c.shard === s.name)?.n ?? 0);
    }
  });

  it("closes and opens a shard, audited; refuses to close the last open one (409) and an unknown one (404)", async () => {
    const closed = await platformCall(`${SHARDS}SHARD_1/`, { method: "PATCH", body: { accepts_stores: false } });
    expect(closed.status).toBe(200);
    expect(await json(closed)).toMatchObject({ name: "SHARD_1", accepts_stores: false });
    const last = await platformCall(`${SHARDS}SHARD_2/`, { method: "PATCH", body: { accepts_stores: false } });
    expect(last.status).toBe(409);
    expect((await problem(last)).code).toBe("no_shard_open");
    expect((await json(await newStore())).shard).toBe("SHARD_2");
    const audit = await json(
      await platformCall(`/platform/v1/audit-events/?request_id=${closed.headers.get("x-request-id")}`),
    );
    expect(audit.results).toEqual([
      expect.objectContaining({
        action: "shard.updated",
        resource_type: "shard",
        resource_id: "SHARD_1",
        before: { name: "SHARD_1", accepts_stores: true },
        after: { name: "SHARD_1", accepts_stores: false },
      }),
    ]);
    const opened = await platformCall(`${SHARDS}SHARD_1/`, { method: "PATCH", body: { accepts_stores: true } });
    expect(await json(opened)).toMatchObject({ accepts_stores: true });
    const unknown = await platformCall(`${SHARDS}SHARD_7/`, { method: "PATCH", body: { accepts_stores: true } });
    expect(unknown.status).toBe(404);
    expect((await problem(unknown)).code).toBe("shard_not_found");
  });

  it("shows a store the platform suspends on the second shard in the platform's audit trail", async () => {
    const store = await json(await newStore({ shard: "SHARD_2" }));
    const res = await platformCall(`${STORES}${store.id}/suspend/`, { method: "POST", body: { reason: "Audit" } });
    expect(res.status).toBe(200);
    const trail = await json(await platformCall(`/platform/v1/audit-events/?app_id=${store.id}&page_size=10`));
    expect(trail.results.map((r: { action: string }) => r.action)).toEqual(["store.suspended", "store.created"]);
  });
});
