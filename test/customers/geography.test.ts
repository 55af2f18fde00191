import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, pageIds as ids, json, problem } from "../helpers/request";

// This file's own stores: A serves Riyadh and Jeddah, B only Riyadh.
const A = 137;
const B = 138;
const GEO = "/order/v1/merchant/geography";
const PUBLIC = "/api/v1/customer/cities/";
let readA: string;
let writeA: string;
let writeB: string;

const get = (path: string, token = readA, appId = A) => call(path, { token, appId });
const put = (cityId: number | string, token = writeA, appId = A) =>
  call(`${GEO}/supported-cities/${cityId}/`, { method: "PUT", token, appId });
const del = (cityId: number | string, token = writeA, appId = A) =>
  call(`${GEO}/supported-cities/${cityId}/`, { method: "DELETE", token, appId });
const events = async (appId: number) =>
  (
    await shardFor(appId)
      .prepare("SELECT type, payload FROM outbox_events WHERE app_id = ? ORDER BY rowid")
      .bind(appId)
      .all<{ type: string; payload: string }>()
  ).results.map((r) => ({ type: r.type, data: JSON.parse(r.payload).data }));

beforeAll(async () => {
  await ensureTenant(A);
  await ensureTenant(B);
  readA = await tokenFor(A, ["can_read_order"]);
  writeA = await tokenFor(A, ["can_write_order"]);
  writeB = await tokenFor(B, ["can_write_order"]);
  for (const [city, token, appId] of [
    [1, writeA, A],
    [2, writeA, A],
    [1, writeB, B],
  ] as const)
    expect((await put(city, token, appId)).status).toBe(200);
});

describe("Countries (MG1)", () => {
  it("lists the GCC countries with their ISO and calling codes, Saudi Arabia first", async () => {
    const res = await get(`${GEO}/countries/`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(schemaErrors("listCountries", body)).toEqual([]);
    expect(body).toMatchObject({ count: 6, next: null, previous: null });
    expect(body.results[0]).toEqual({
      id: 1,
      code: "SA",
      name_en: "Saudi Arabia",
      name_ar: "المملكة العربية السعودية",
      phone_code: "966",
      ordering: 1,
    });
    const codes = Object.fromEntries(
      body.results.map((c: { code: string; phone_code: string }) => [c.code, c.phone_code]),
    );
    expect(codes).toEqual({ SA: "966", AE: "971", KW: "965", QA: "974", BH: "973", OM: "968" });
  });

  it("searches both names, filters on code, orders and pages", async () => {
    expect(ids(await json(await get(`${GEO}/countries/?search=saudi`)))).toEqual([1]);
    expect(ids(await json(await get(`${GEO}/countries/?search=${encodeURIComponent("الكويت")}`)))).toEqual([3]);
    expect((await json(await get(`${GEO}/countries/?code=QA`))).results[0].name_en).toBe("Qatar");
    const byName = await json(await get(`${GEO}/countries/?order_by=-name_en`));
    expect(byName.results[0].name_en).toBe("United Arab Emirates");
    const page = await json(await get(`${GEO}/countries/?page_size=4&page=2`));
    expect(page.results).toHaveLength(2);
    expect(page.next).toBeNull();
    expect(page.previous).toContain("page=1");
    const first = await json(await get(`${GEO}/countries/?page_size=4`));
    expect(first.next).toMatch(/^https:\/\/api\.test\/order\/v1\/merchant\/geography\/countries\/\?.*page=2/);
  });
});

describe("Regions (MG2)", () => {
  it("lists Saudi Arabia's 13 regions with their ISO 3166-2 codes, in both languages", async () => {
    const body = await json(await get(`${GEO}/regions/?country_id=1&page_size=100`));
    expect(schemaErrors("listRegions", body)).toEqual([]);
    expect(body.count).toBe(13);
    expect(body.results.map((r: { code: string }) => r.code)).toEqual([
      ...["SA-01", "SA-02", "SA-03", "SA-04", "SA-05", "SA-06", "SA-07", "SA-08", "SA-09", "SA-10", "SA-11", "SA-12"],
      "SA-14",
    ]);
    expect(body.results[0]).toEqual({
      id: 1,
      country_id: 1,
      code: "SA-01",
      name_en: "Riyadh Region",
      name_ar: "منطقة الرياض",
      ordering: 1,
    });
    for (const r of body.results) expect(r.name_ar).toMatch(/[\u0600-\u06FF]/);
  });

  it("finds a region by either name or code; another country has none yet", async () => {
    expect((await json(await get(`${GEO}/regions/?search=asir`))).results[0].code).toBe("SA-14");
    expect((await json(await get(`${GEO}/regions/?search=${encodeURIComponent("الشرقية")}`))).results[0].code).toBe(
      "SA-04",
    );
    expect((await json(await get(`${GEO}/regions/?code=SA-02`))).results[0].name_en).toBe("Makkah Region");
    expect((await json(await get(`${GEO}/regions/?country_id=2`))).count).toBe(0);
  });
});

describe("Cities (MG3)", () => {
  it("serves city 1 as Riyadh and 2 as Jeddah, with coordinates, keywords and is_supported", async () => {
    const body = await json(await get(`${GEO}/cities/?page_size=100`));
    expect(schemaErrors("listCities", body)).toEqual([]);
    expect(body.count).toBeGreaterThanOrEqual(24);
    const [riyadh, jeddah] = body.results;
    expect(riyadh).toMatchObject({ id: 1, region_id: 1, country_code: "SA", name_en: "Riyadh", name_ar: "الرياض" });
    expect(riyadh.lat).toBeCloseTo(24.71, 1);
    expect(riyadh.lng).toBeCloseTo(46.68, 1);
    expect(Object.keys(riyadh).sort()).toEqual(
      [
        "country_code",
        "id",
        "is_supported",
        "keywords",
        "lat",
        "lng",
        "name_ar",
        "name_en",
        "ordering",
        "region_id",
      ].sort(),
    );
    expect(jeddah).toMatchObject({ id: 2, region_id: 2, name_en: "Jeddah", name_ar: "جدة", is_supported: true });
    const names = body.results.map((c: { name_en: string }) => c.name_en);
    for (const n of ["Makkah", "Madinah", "Dammam", "Al Khobar", "Abha", "Taif", "Al-Ahsa", "Jubail", "Al-Kharj"])
      expect(names).toContain(n);
    // Every region has its capital, at least.
    expect(new Set(body.results.map((c: { region_id: number }) => c.region_id)).size).toBe(13);
  });

  it("finds a city by another spelling, in English or Arabic", async () => {
    for (const [term, id] of [
      ["Jiddah", 2],
      ["jedda", 2],
      ["جده", 2],
      ["جدة", 2],
      ["Mecca", 3],
      ["Hofuf", 19],
      ["الهفوف", 19],
      ["khobar", 6],
    ] as const) {
      const res = await json(await get(`${GEO}/cities/?search=${encodeURIComponent(term)}`));
      expect(ids(res), term).toContain(id);
    }
    expect((await json(await get(`${GEO}/cities/?search=nowhere-city`))).count).toBe(0);
  });

  it("filters on region_id and country_code", async () => {
    const eastern = await json(await get(`${GEO}/cities/?region_id=4&page_size=100`));
    expect(eastern.count).toBeGreaterThanOrEqual(6);
    for (const c of eastern.results) expect(c.region_id).toBe(4);
    expect(ids(eastern)).toEqual(expect.arrayContaining([5, 6, 7, 19, 20, 22]));
    expect((await json(await get(`${GEO}/cities/?country_code=SA`))).count).toBeGreaterThanOrEqual(24);
    expect((await json(await get(`${GEO}/cities/?country_code=KW`))).count).toBe(0);
  });

  it("says is_supported per calling store, and filters on it", async () => {
    const a = await json(await get(`${GEO}/cities/?page_size=100`));
    const supportedA = a.results
      .filter((c: { is_supported: boolean }) => c.is_supported)
      .map((c: { id: number }) => c.id);
    expect(supportedA).toEqual([1, 2]);
    const readB = await tokenFor(B, ["can_read_order"]);
    const b = await json(await get(`${GEO}/cities/?is_supported=true`, readB, B));
    expect(ids(b)).toEqual([1]);
    expect(ids(await json(await get(`${GEO}/cities/?is_supported=true`)))).toEqual([1, 2]);
    const notA = await json(await get(`${GEO}/cities/?is_supported=false&page_size=100`));
    expect(ids(notA)).not.toContain(1);
    expect(ids(notA)).not.toContain(2);
    expect(notA.count).toBe(a.count - 2);
    expect((await json(await get(`${GEO}/cities/?is_supported=1&search=jeddah`))).results[0].id).toBe(2);
  });

  it("answers a bad is_supported, an unknown parameter and a page out of range with 400 naming them", async () => {
    const bad = await problem(await get(`${GEO}/cities/?is_supported=maybe&page=0`));
    expect(bad.errors).toEqual({ is_supported: ["Must be true or false."], page: [expect.any(String)] });
    const twice = await problem(await get(`${GEO}/cities/?is_supported=true&is_supported=false`));
    expect(twice.errors?.is_supported).toEqual(["Give this parameter once."]);
    const unknown = await problem(await get(`${GEO}/cities/?supported=true`));
    expect(unknown.errors?.supported?.[0]).toContain("is_supported");
    expect(unknown.errors?.supported?.[0]).toContain("region_id");
    const order = await problem(await get(`${GEO}/cities/?order_by=keywords`));
    expect(order.errors?.order_by?.[0]).not.toContain("is_supported");
    const far = await problem(await get(`${GEO}/cities/?page=99`));
    expect(far.status).toBe(400);
    expect(far.errors?.page?.[0]).toContain("page(s)");
  });
});

describe("Districts (MG4)", () => {
  it("lists the districts of a city, searchable in both languages", async () => {
    const riyadh = await json(await get(`${GEO}/districts/?city_id=1&page_size=100`));
    expect(schemaErrors("listDistricts", riyadh)).toEqual([]);
    expect(riyadh.count).toBeGreaterThanOrEqual(4);
    for (const d of riyadh.results) expect(d.city_id).toBe(1);
    // Districts are shared by every store: other tests' districts may be listed beside the seeded ones.
    expect(riyadh.results).toContainEqual({ id: 1, city_id: 1, name_en: "Al Olaya", name_ar: "العليا", ordering: 1 });
    const names = riyadh.results.map((d: { name_en: string }) => d.name_en);
    expect(names).toEqual(expect.arrayContaining(["Al Malqa", "Al Yasmin", "Al Nakheel"]));
    const hamra = await json(await get(`${GEO}/districts/?search=${encodeURIComponent("الحمراء")}`));
    expect(hamra.results).toEqual([expect.objectContaining({ name_en: "Al Hamra", city_id: 2 })]);
    expect((await json(await get(`${GEO}/districts/?city_id=2&search=shati`))).results[0].name_ar).toBe("الشاطئ");
    expect((await json(await get(`${GEO}/districts/?city_id=24`))).count).toBe(0);
  });
});

describe("Support City and Stop Supporting City (beyond the spec)", () => {
  const C = 139;
  let write: string;
  let read: string;
  beforeAll(async () => {
    await ensureTenant(C);
    write = await tokenFor(C, ["can_write_order"]);
    read = await tokenFor(C, ["can_read_order"]);
  });
  const supported = async () => ids(await json(await get(`${GEO}/cities/?is_supported=true`, read, C)));

  it("PUT serves the city, idempotently, with one event; DELETE stops, idempotently, with one event", async () => {
    const first = await put(16, write, C);
    expect(first.status).toBe(200);
    const city = await json(first);
    expect(schemaErrors("supportCity", city)).toEqual([]);
    expect(city).toMatchObject({ id: 16, name_en: "Abha", name_ar: "أبها", is_supported: true });
    expect((await put(16, write, C)).status).toBe(200);
    expect(await supported()).toEqual([16]);
    expect(await events(C)).toEqual([
      { type: "store.supported_cities.updated", data: { city_id: 16, is_supported: true } },
    ]);

    const gone = await del(16, write, C);
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
    expect((await del(16, write, C)).status).toBe(204);
    expect(await supported()).toEqual([]);
    expect((await events(C)).slice(1)).toEqual([
      { type: "store.supported_cities.updated", data: { city_id: 16, is_supported: false } },
    ]);

    // Served again: the same row is revived, not a second one.
    expect((await put(16, write, C)).status).toBe(200);
    expect(await supported()).toEqual([16]);
    const rows = await shardFor(C)
      .prepare("SELECT is_deleted, deleted_at FROM supported_cities WHERE app_id = ?")
      .bind(C)
      .all();
    expect(rows.results).toEqual([{ is_deleted: 0, deleted_at: null }]);
    expect(await events(C)).toHaveLength(3);
  });

  it("answers an unknown city with 404 city_not_found and a malformed id with 400, writing nothing", async () => {
    for (const send of [put, del]) {
      const res = await send(999_999, write, C);
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("city_not_found");
      const bad = await send("abc", write, C);
      expect(bad.status).toBe(400);
      expect((await problem(bad)).errors).toHaveProperty("city_id");
    }
    expect(await events(C)).toHaveLength(3);
  });

  it("changes only the calling store's cities", async () => {
    expect((await del(1, write, C)).status).toBe(204);
    const readB = await tokenFor(B, ["can_read_order"]);
    expect(ids(await json(await get(`${GEO}/cities/?is_supported=true`, readB, B)))).toEqual([1]);
    expect((await put(24, write, C)).status).toBe(200);
    expect(ids(await json(await get(`${GEO}/cities/?is_supported=true`)))).toEqual([1, 2]);
    expect(ids(await json(await get(`${GEO}/cities/?is_supported=true`, readB, B)))).toEqual([1]);
  });
});

describe("Supported Cities (CA20): public, cached", () => {
  const pub = (appId: number, headers: Record<string, string> = {}, query = "") =>
    call(`${PUBLIC}${query}`, { appId, headers });

  it("lists the store's cities with the city fields, without a token", async () => {
    const res = await pub(A);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(schemaErrors("listSupportedCities", body)).toEqual([]);
    expect(ids(body)).toEqual([1, 2]);
    expect(body.results[1]).toMatchObject({ id: 2, name_en: "Jeddah", name_ar: "جدة", is_supported: true });
    expect(ids(await json(await pub(B)))).toEqual([1]);
    expect(ids(await json(await pub(A, {}, `?search=${encodeURIComponent("جده")}`)))).toEqual([2]);
    expect((await json(await pub(A, {}, "?page_size=1"))).next).toContain("page=2");
  });

  it("needs an app-id that names a store", async () => {
    const missing = await call(PUBLIC, { appId: null });
    expect(missing.status).toBe(400);
    expect((await problem(missing)).errors).toHaveProperty("app-id");
    const unknown = await pub(987_654);
    expect(unknown.status).toBe(404);
    expect((await problem(unknown)).code).toBe("app_not_found");
    const bad = await pub(A, {}, "?order_by=nope");
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("order_by");
  });

  it("answers with an ETag, 304 on If-None-Match, and is fresh at once after a merchant write", async () => {
    const D = 140;
    await ensureTenant(D);
    const write = await tokenFor(D, ["can_write_order"]);
    expect((await put(1, write, D)).status).toBe(200);
    const first = await pub(D);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const hit = await pub(D);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("etag")).toBe(etag);
    const notModified = await pub(D, { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    // Another store's write leaves this entry alone.
    expect((await put(3, writeB, B)).status).toBe(200);
    expect((await pub(D)).headers.get("x-cache")).toBe("HIT");
    expect((await del(3, writeB, B)).status).toBe(204);

    expect((await put(2, write, D)).status).toBe(200);
    const after = await pub(D, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(ids(await json(after))).toEqual([1, 2]);

    const before = (await pub(D)).headers.get("etag")!;
    expect((await del(1, write, D)).status).toBe(204);
    const removed = await pub(D, { "If-None-Match": before });
    expect(removed.status).toBe(200);
    expect(ids(await json(removed))).toEqual([2]);
    // A refused write (unknown city) does not touch the cache.
    expect((await put(999_999, write, D)).status).toBe(404);
    expect((await pub(D)).headers.get("x-cache")).toBe("HIT");
  });
});

for (const path of ["countries", "regions", "cities", "districts"])
  sharedAuthCases({ method: "GET", path: `${GEO}/${path}/`, permission: "can_read_order" });
sharedAuthCases({ method: "PUT", path: `${GEO}/supported-cities/1/`, permission: "can_write_order" });
sharedAuthCases({ method: "DELETE", path: `${GEO}/supported-cities/1/`, permission: "can_write_order" });
