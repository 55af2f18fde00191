import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { matchesIfNoneMatch } from "../../src/core/cache";
import { observeStatements } from "../../src/db/client";
import { tokenFor } from "../helpers/factories";
import { seedMealsFor } from "../helpers/meals";
import { call, json } from "../helpers/request";

const A = 53;
const B = 54;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  a = await seedMealsFor(A, 530_000);
  b = await seedMealsFor(B, 540_000);
  tokenA = await tokenFor(A, ["can_write_item"]);
  tokenB = await tokenFor(B, ["can_write_item"]);
});

const get = (path: string, headers: Record<string, string> = {}, appId = A) => call(path, { appId, headers });

describe("cache-aside in KV with HTTP revalidation", () => {
  it("misses, then hits with the same strong ETag and body; If-None-Match gets 304 without a body", async () => {
    const path = `/api/v1/restaurants/${a.green}/`;
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(first.headers.get("vary")).toContain("app-id");
    const body = await first.text();

    let statements = 0;
    const stop = observeStatements(() => statements++);
    const second = await get(path);
    stop();
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("etag")).toBe(etag);
    expect(await second.text()).toBe(body);
    expect(statements).toBe(0);

    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const res = await get(path, { "If-None-Match": inm });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(await res.text()).toBe("");
    }
    expect((await get(path, { "If-None-Match": '"stale"' })).status).toBe(200);
  });

  it("keys the entry by the query, whatever its order, and not by the app-id of another tenant", async () => {
    expect((await get("/api/v1/restaurants/?page_size=1&order_by=id")).headers.get("x-cache")).toBe("MISS");
    expect((await get("/api/v1/restaurants/?order_by=id&page_size=1")).headers.get("x-cache")).toBe("HIT");
    const other = await get("/api/v1/restaurants/?page_size=1&order_by=id", {}, B);
    expect(other.headers.get("x-cache")).toBe("MISS");
    expect((await json(other)).results[0].id).toBe(b.green);
  });

  it("never stores an error", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get("/api/v1/restaurants/999999/");
      expect(res.status).toBe(404);
      expect(res.headers.get("x-cache")).toBeNull();
    }
  });

  it("a merchant write makes the tenant's reads fresh at once, and leaves other tenants' entries", async () => {
    const path = `/api/v1/restaurants/${a.kabsa}/`;
    const menuPath = `/api/v1/restaurants/menus/${a.kabsa}/`;
    await get(path);
    await get(menuPath);
    const before = await get(path);
    expect(before.headers.get("x-cache")).toBe("HIT");
    const etag = before.headers.get("etag")!;
    const otherPath = `/api/v1/restaurants/${b.kabsa}/`;
    await get(otherPath, {}, B);

    const write = await call(`/order/v1/merchant/meals/restaurants/${a.kabsa}/`, { method: "PATCH", token: tokenA, appId: A, body: { name_en: "Kabsa House Olaya" } });
    expect(write.status).toBe(200);

    const after = await get(path, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await json(after)).name_en).toBe("Kabsa House Olaya");
    // Every read of the tenant, not only the record written.
    expect((await get(menuPath)).headers.get("x-cache")).toBe("MISS");
    expect((await get(otherPath, {}, B)).headers.get("x-cache")).toBe("HIT");
  });

  it("a refused write leaves the cache as it was", async () => {
    const path = `/api/v1/restaurants/${b.green}/`;
    await get(path, {}, B);
    const refused = await call(`/order/v1/merchant/meals/restaurants/${b.green}/`, { method: "PATCH", token: tokenB, appId: B, body: { primary_color: "green" } });
    expect(refused.status).toBe(400);
    expect((await get(path, {}, B)).headers.get("x-cache")).toBe("HIT");
  });

  it("an entry that depends on today expires at the restaurant's midnight even without a write", async () => {
    const path = `/public-api/v1/plans/${a.keto}/`;
    await get(path);
    expect((await get(path)).headers.get("x-cache")).toBe("HIT");
    // Move every entry of the tenant that has a validity to just past it.
    const keys = await env.CACHE.list<{ gen: string; etag: string; until?: number }>({ prefix: `meals:${A}:` });
    let moved = 0;
    for (const k of keys.keys) {
      if (k.metadata?.until === undefined) continue;
      const value = await env.CACHE.get(k.name);
      await env.CACHE.put(k.name, value!, { metadata: { ...k.metadata, until: Date.now() - 1 } });
      moved++;
    }
    expect(moved).toBeGreaterThan(0);
    expect((await get(path)).headers.get("x-cache")).toBe("MISS");
  });

  it("List Channel Providers computes from cached provider data, refreshed by a write", async () => {
    const providers = () => call("/api/v1/sales-channels/providers/", { appId: A, method: "POST", body: { city_id: 7 } });
    await providers();
    let statements = 0;
    const stop = observeStatements(() => statements++);
    const cached = await json(await providers());
    stop();
    expect(statements).toBe(0);
    expect(cached.every((p: { is_available_for_user: boolean }) => !p.is_available_for_user)).toBe(true);

    const branch = await call(`/order/v1/merchant/meals/restaurants/${a.kabsa}/branches/`, {
      method: "POST",
      token: tokenA,
      appId: A,
      body: { name_en: "Dammam", name_ar: "الدمام", city_id: 7, lat: 26.4207, lng: 50.0888 },
    });
    expect(branch.status).toBe(201);
    const fresh = await json(await providers());
    expect(fresh.find((p: { id: number }) => p.id === a.kabsa)).toMatchObject({ is_available_for_user: true, pickup_branches: [expect.objectContaining({ name_en: "Dammam" })] });
  });
});

describe("If-None-Match comparison (RFC 9110)", () => {
  it("uses the weak comparison, lists and *", () => {
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b" , "a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"a', '"a"')).toBe(false);
  });
});
