import { beforeAll, describe, expect, it, vi } from "vitest";
import { acceptsGzip, matchesIfNoneMatch } from "../../src/core/cache";
import { setClock } from "../../src/core/clock";
import { observeStatements } from "../../src/db/client";
import { addDays, todayIn, weekdayOf } from "../../src/modules/meals/dates";
import { HELD_CHECKS } from "../helpers/d1-waits";
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
    // The store's check (knownApp) is held for a second only: on a busy machine it may run again.
    const stop = observeStatements((q) => {
      if (!HELD_CHECKS.test(q)) statements++;
    });
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

  it("serves the gzipped body as it is to clients that take gzip, with its own strong ETag", async () => {
    const path = `/api/v1/restaurants/menus/${a.green}/`;
    const plain = await get(path);
    const plainBody = await plain.text();
    const etag = plain.headers.get("etag")!;
    const zipped = await get(path, { "Accept-Encoding": "br, gzip;q=0.8" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("Accept-Encoding");
    expect(zipped.headers.get("etag")).toBe(etag.replace(/"$/, '-gzip"'));
    const bytes = await zipped.arrayBuffer();
    expect(bytes.byteLength).toBeLessThan(plainBody.length / 5);
    const unzipped = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    expect(unzipped).toBe(plainBody);
    // Either validator names the same entity.
    expect((await get(path, { "Accept-Encoding": "gzip", "If-None-Match": etag })).status).toBe(304);
    expect((await get(path, { "If-None-Match": zipped.headers.get("etag")! })).status).toBe(304);
    expect((await get(path, { "Accept-Encoding": "gzip;q=0" })).headers.get("content-encoding")).toBeNull();
    // Behind Cloudflare every request says "br, gzip"; what the client sent is in cf.clientAcceptEncoding.
    const rewritten = (clientAcceptEncoding: string) =>
      call(path, { appId: A, headers: { "Accept-Encoding": "br, gzip" }, cf: { clientAcceptEncoding } });
    expect((await rewritten("")).headers.get("content-encoding")).toBeNull();
    expect(await (await rewritten("")).text()).toBe(plainBody);
    expect((await rewritten("gzip, deflate")).headers.get("content-encoding")).toBe("gzip");
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

    const write = await call(`/order/v1/merchant/meals/restaurants/${a.kabsa}/`, {
      method: "PATCH",
      token: tokenA,
      appId: A,
      body: { name_en: "Kabsa House Olaya" },
    });
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
    const refused = await call(`/order/v1/merchant/meals/restaurants/${b.green}/`, {
      method: "PATCH",
      token: tokenB,
      appId: B,
      body: { primary_color: "green" },
    });
    expect(refused.status).toBe(400);
    expect((await get(path, {}, B)).headers.get("x-cache")).toBe("HIT");
  });

  it("an entry that depends on today expires at the restaurant's midnight even without a write", async () => {
    const path = `/public-api/v1/plans/${a.keto}/`;
    await get(path);
    expect((await get(path)).headers.get("x-cache")).toBe("HIT");
    // A day later (the clock only): the entry is past its validity, in memory and in KV.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 25 * 3600_000 });
    try {
      const next = await get(path);
      expect(next.headers.get("x-cache")).toBe("MISS");
      // Keto week starts a day after today, on a day that is not a Friday nor 2026-12-31.
      let start = addDays(todayIn("Asia/Riyadh"), 1);
      while (weekdayOf(start) === "friday" || start === "2026-12-31") start = addDays(start, 1);
      expect((await json(next)).start_date).toBe(start);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the day and its end come from the same clock: set to a minute before Riyadh's midnight, then past it", async () => {
    // Its own key (the version named), so that no entry of another test is read.
    const path = `/public-api/v1/plans/${a.keto}/?plan_version_id=${a.ketoWeek}`;
    setClock("2026-03-02T20:59:00.000Z"); // Monday 23:59 in Riyadh
    try {
      expect((await json(await get(path))).start_date).toBe("2026-03-03");
      expect((await get(path)).headers.get("x-cache")).toBe("HIT");
      setClock("2026-03-02T21:01:00.000Z"); // Tuesday 00:01
      const next = await get(path);
      expect(next.headers.get("x-cache")).toBe("MISS");
      expect((await json(next)).start_date).toBe("2026-03-04");
    } finally {
      setClock(null);
    }
  });

  it("List Channel Providers computes from cached provider data, refreshed by a write", async () => {
    const providers = () =>
      call("/api/v1/sales-channels/providers/", { appId: A, method: "POST", body: { city_id: 7 } });
    await providers();
    let statements = 0;
    // The store's check (knownApp) is held for a second only: on a busy machine it may run again.
    const stop = observeStatements((q) => {
      if (!HELD_CHECKS.test(q)) statements++;
    });
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
    expect(fresh.find((p: { id: number }) => p.id === a.kabsa)).toMatchObject({
      is_available_for_user: true,
      pickup_branches: [expect.objectContaining({ name_en: "Dammam" })],
    });
  });
});

describe("Accept-Encoding", () => {
  it("takes gzip when named or under *, unless its q is 0", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
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
    expect(matchesIfNoneMatch('"a-gzip"', '"a"')).toBe(true);
  });
});
