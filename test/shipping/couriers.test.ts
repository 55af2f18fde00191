import { beforeAll, describe, expect, it } from "vitest";
import { tokenFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { eventsWhere, rowOf, type Store, storeFor } from "../orders/helpers";
import { CONFIG, COURIERS, courierBody, created, JEDDAH, MALQA, OLAYA, PICKUPS, pickupBody, RIYADH } from "./helpers";

// Stores of this file's own.
const A = 9711;
const B = 9712;
let store: Store;
let other: Store;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const fakeOf = async (s: Store) => {
  const list = await json(await s.as(`${COURIERS}?type=integrated`));
  return list.results.find((c: { code: string }) => c.code === "fake");
};

describe("couriers C1-C7", () => {
  it("C5 creates a custom courier (201, stored, event); C4 shows it; another store's is 404", async () => {
    const c = await created(store, COURIERS, courierBody());
    expect(c).toMatchObject({
      type: "custom",
      code: null,
      name_en: "Our Vans",
      name_ar: "سياراتنا",
      is_active: true,
      cod_supported: true,
      coverage: { cities: [RIYADH, JEDDAH], districts: [] },
      services: [{ code: "standard", cod_supported: true }],
    });
    expect(c.price_rules[1]).toEqual({ city_id: RIYADH, weight_from: 5, weight_to: 30, price: 35.5 });
    const row = await rowOf("SELECT price_rules, app_id FROM couriers WHERE id = ?", c.id);
    expect(JSON.parse(row.price_rules)[1]).toEqual({
      city_id: RIYADH,
      weight_from_g: 5000,
      weight_to_g: 30000,
      price_minor: 3550,
    });
    expect((await eventsWhere(A, ["courier.created"], "id", c.id)).length).toBe(1);
    const got = await store.as(`${COURIERS}${c.id}/`);
    expect(got.status).toBe(200);
    expect((await json(got)).id).toBe(c.id);
    const foreign = await other.as(`${COURIERS}${c.id}/`);
    expect(foreign.status).toBe(404);
    expect((await problem(foreign)).code).toBe("courier_not_found");
  });

  it("C5 refuses unknown cities, districts outside coverage, rules of uncovered cities, bad bands and extra fields", async () => {
    const cases = [
      [{ coverage: { cities: [999999], districts: [] } }, "coverage.cities"],
      [{ coverage: { cities: [JEDDAH], districts: [OLAYA] } }, "coverage.districts.0"],
      [{ coverage: { cities: [JEDDAH], districts: [] } }, "price_rules.0.city_id"],
      [{ price_rules: [{ city_id: null, weight_from: 5, weight_to: 5, price: 1 }] }, "price_rules.0.weight_to"],
      [{ price_rules: [{ city_id: null, weight_from: 0, weight_to: 5, price: 1.234 }] }, "price_rules.0.price"],
      [{ estimated_days_min: 5, estimated_days_max: 2 }, "estimated_days_max"],
      [{ type: "integrated" }, ""],
    ] as [Record<string, unknown>, string][];
    for (const [extra, field] of cases) {
      const res = await store.as(COURIERS, { method: "POST", body: courierBody(extra) });
      const p = await problem(res);
      expect(res.status, JSON.stringify(p)).toBe(400);
      if (field) expect(Object.keys(p.errors ?? {})).toContain(field);
    }
  });

  it("C1 lists custom and integrated couriers with filters and search; integrated ones are mirrored once", async () => {
    const mine = await created(store, COURIERS, courierBody({ name_en: "Zed Express", is_active: false }));
    const all = await json(await store.as(`${COURIERS}?page_size=100`));
    expect(all.results.some((c: { id: number }) => c.id === mine.id)).toBe(true);
    const fake = await fakeOf(store);
    expect(fake).toMatchObject({ type: "integrated", name_en: "Fake Carrier (development)", is_active: true });
    const inactive = await json(await store.as(`${COURIERS}?is_active=false&type=custom`));
    expect(inactive.results.map((c: { id: number }) => c.id)).toContain(mine.id);
    expect(inactive.results.every((c: { is_active: boolean }) => !c.is_active)).toBe(true);
    const search = await json(await store.as(`${COURIERS}?search=Zed`));
    expect(search.results.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    await store.as(COURIERS);
    expect((await rowOf("SELECT count(*) AS n FROM couriers WHERE app_id = ? AND code = 'fake'", A)).n).toBe(1);
    expect((await store.as(`${COURIERS}?type=nope`)).status).toBe(400);
  });

  it("C1/C4: the first read mirrors the carriers; then a list or a courier waits for D1 once", async () => {
    const F = 9719;
    const fresh = await storeFor(F);
    const first = await callWaits(COURIERS, { token: fresh.token, appId: F });
    expect(first.res.status).toBe(200);
    const fake = (await json(first.res)).results.find((c: { code: string }) => c.code === "fake");
    expect(fake).toMatchObject({ type: "integrated" });
    const list = await callWaits(COURIERS, { token: fresh.token, appId: F });
    expect((await json(list.res)).results).toContainEqual(fake);
    expect(list.waits.beyondAuth).toBe(1);
    const one = await callWaits(`${COURIERS}${fake.id}/`, { token: fresh.token, appId: F });
    expect(await json(one.res)).toEqual(fake);
    expect(one.waits.beyondAuth).toBe(1);
  });

  it("C6 updates a custom courier (event); an integrated one is 409 courier_not_custom; unknown 404", async () => {
    const c = await created(store, COURIERS, courierBody());
    const res = await store.as(`${COURIERS}${c.id}/`, {
      method: "PATCH",
      body: { name_en: "Vans 2", coverage: { cities: [RIYADH], districts: [MALQA] }, price_rules: [] },
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      name_en: "Vans 2",
      coverage: { cities: [RIYADH], districts: [MALQA] },
      price_rules: [],
    });
    expect((await eventsWhere(A, ["courier.updated"], "id", c.id)).length).toBe(1);
    const fake = await fakeOf(store);
    const refused = await store.as(`${COURIERS}${fake.id}/`, { method: "PATCH", body: { name_en: "Mine" } });
    expect(refused.status).toBe(409);
    expect((await problem(refused)).code).toBe("courier_not_custom");
    expect((await store.as(`${COURIERS}99999999/`, { method: "PATCH", body: { name_en: "x" } })).status).toBe(404);
    expect((await store.as(`${COURIERS}${c.id}/`, { method: "PATCH", body: {} })).status).toBe(400);
  });

  it("C7 deletes a custom courier (204, soft, event); integrated 409; twice 404", async () => {
    const c = await created(store, COURIERS, courierBody());
    expect((await store.as(`${COURIERS}${c.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await rowOf("SELECT is_deleted FROM couriers WHERE id = ?", c.id)).is_deleted).toBe(1);
    expect((await eventsWhere(A, ["courier.deleted"], "id", c.id)).length).toBe(1);
    expect((await store.as(`${COURIERS}${c.id}/`, { method: "DELETE" })).status).toBe(404);
    const fake = await fakeOf(store);
    const refused = await store.as(`${COURIERS}${fake.id}/`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect((await problem(refused)).code).toBe("courier_not_custom");
  });

  it("needs can_read_shipment / can_write_shipment", async () => {
    const reader = await tokenFor(A, ["can_read_shipment"]);
    expect((await call(COURIERS, { token: reader, appId: A })).status).toBe(200);
    const res = await call(COURIERS, { method: "POST", body: courierBody(), token: reader, appId: A });
    expect(res.status).toBe(403);
  });
});

describe("C2 active couriers and C3 prices", () => {
  let s: Store;
  let vans: { id: number };
  let districtOnly: { id: number };
  let noCod: { id: number };
  beforeAll(async () => {
    s = await storeFor(9713);
    vans = await created(s, COURIERS, courierBody());
    districtOnly = await created(
      s,
      COURIERS,
      courierBody({
        name_en: "Malqa Bikes",
        coverage: { cities: [RIYADH], districts: [MALQA] },
        price_rules: [{ city_id: null, weight_from: 0, weight_to: 3, price: 9 }],
      }),
    );
    noCod = await created(s, COURIERS, courierBody({ name_en: "No Cash", cod_supported: false }));
  });

  it("C2: the couriers serving a destination, every other with its reason, the same twice", async () => {
    const body = { city_id: RIYADH, district_id: OLAYA, weight: 2 };
    const first = await json(await s.as(`${COURIERS}active/`, { method: "POST", body }));
    const again = await json(await s.as(`${COURIERS}active/`, { method: "POST", body }));
    expect(again).toEqual(first);
    const ids = first.results.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([vans.id, noCod.id]));
    expect(first.unavailable).toContainEqual({
      courier_id: districtOnly.id,
      name_en: "Malqa Bikes",
      reason: `The courier does not cover district ${OLAYA}.`,
    });
    const cod = await json(await s.as(`${COURIERS}active/`, { method: "POST", body: { ...body, cod_amount: 50 } }));
    expect(cod.unavailable).toContainEqual({
      courier_id: noCod.id,
      name_en: "No Cash",
      reason: "The courier does not collect cash on delivery.",
    });
    const heavy = await json(
      await s.as(`${COURIERS}active/`, { method: "POST", body: { city_id: RIYADH, district_id: MALQA, weight: 4 } }),
    );
    expect(heavy.unavailable).toContainEqual({
      courier_id: districtOnly.id,
      name_en: "Malqa Bikes",
      reason: `No price rule for 4 kg in city ${RIYADH}.`,
    });
    const bad = await s.as(`${COURIERS}active/`, { method: "POST", body: { city_id: JEDDAH, district_id: OLAYA } });
    expect(bad.status).toBe(400);
  });

  it("C3: prices from the rules (city rule first, then any city), carrier quotes, reasons; deterministic", async () => {
    const body = {
      origin: { city_id: RIYADH },
      destination: { city_id: RIYADH },
      packages: [
        { weight: 3, length: 10, width: 10, height: 10 },
        { weight: 3.5, length: 10, width: 10, height: 10 },
      ],
    };
    const res = await s.as(`${COURIERS}prices/`, { method: "POST", body });
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out.total_weight).toBe(6.5);
    expect(out.results).toContainEqual({
      courier_id: vans.id,
      service: "standard",
      price: 35.5,
      currency: "SAR",
      estimated_days: 2,
    });
    const fake = (await json(await s.as(`${COURIERS}?code=fake`))).results[0];
    // 6.5 kg: 15.00 + 6 started kilograms past the first × 2.00; express 10.00 more.
    expect(out.results).toContainEqual({
      courier_id: fake.id,
      service: "standard",
      price: 27,
      currency: "SAR",
      estimated_days: 3,
    });
    expect(out.results).toContainEqual({
      courier_id: fake.id,
      service: "express",
      price: 37,
      currency: "SAR",
      estimated_days: 1,
    });
    expect(out.unavailable).toContainEqual({
      courier_id: districtOnly.id,
      name_en: "Malqa Bikes",
      reason: `No price rule for 6.5 kg in city ${RIYADH}.`,
    });
    expect(await json(await s.as(`${COURIERS}prices/`, { method: "POST", body }))).toEqual(out);
    // Jeddah has no city rule: the any-city rule (40.00 up to 10 kg) applies.
    const jeddah = await json(
      await s.as(`${COURIERS}prices/`, { method: "POST", body: { ...body, destination: { city_id: JEDDAH } } }),
    );
    expect(jeddah.results).toContainEqual({
      courier_id: vans.id,
      service: "standard",
      price: 40,
      currency: "SAR",
      estimated_days: 2,
    });
    const both = await s.as(`${COURIERS}prices/`, {
      method: "POST",
      body: { ...body, origin: { city_id: RIYADH, pickup_location_id: 1 } },
    });
    expect(both.status).toBe(400);
    const only = await json(
      await s.as(`${COURIERS}prices/`, { method: "POST", body: { ...body, courier_ids: [vans.id, 99999999] } }),
    );
    expect(only.results.map((r: { courier_id: number }) => r.courier_id)).toEqual([vans.id]);
    expect(only.unavailable).toContainEqual({
      courier_id: 99999999,
      name_en: "",
      reason: "No courier 99999999 in this store.",
    });
  });

  it("a courier left out of the config's enabled list is unavailable with that reason", async () => {
    const cfg = await s.as(CONFIG, { method: "POST", body: { enabled_courier_ids: [vans.id] } });
    expect(cfg.status).toBe(200);
    const out = await json(await s.as(`${COURIERS}active/`, { method: "POST", body: { city_id: RIYADH } }));
    expect(out.results.map((c: { id: number }) => c.id)).toEqual([vans.id]);
    expect(out.unavailable).toContainEqual({
      courier_id: noCod.id,
      name_en: "No Cash",
      reason: "The courier is not enabled in the shipping config.",
    });
    await s.as(CONFIG, { method: "POST", body: { enabled_courier_ids: null } });
  });
});

describe("shipping config MH1 and pickup locations MH7", () => {
  it("MH1: empty by default; POST sets origin, package defaults, couriers (event); unknown ids 400", async () => {
    const s = await storeFor(9714);
    expect(await json(await s.as(CONFIG))).toEqual({
      default_pickup_location_id: null,
      package_defaults: null,
      enabled_courier_ids: null,
      modified_at: null,
    });
    const p = await created(s, PICKUPS, pickupBody());
    const res = await s.as(CONFIG, {
      method: "POST",
      body: { default_pickup_location_id: p.id, package_defaults: { weight: 1.25, length: 20, width: 15, height: 5 } },
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      default_pickup_location_id: p.id,
      package_defaults: { weight: 1.25, length: 20, width: 15, height: 5 },
    });
    expect((await eventsWhere(9714, ["shipping_config.updated"], "app_id", 9714)).length).toBe(1);
    expect((await s.as(CONFIG, { method: "POST", body: { default_pickup_location_id: 99999999 } })).status).toBe(400);
    expect((await s.as(CONFIG, { method: "POST", body: { enabled_courier_ids: [99999999] } })).status).toBe(400);
    expect((await s.as(CONFIG, { method: "POST", body: {} })).status).toBe(400);
    // The config's default origin cannot be deleted.
    const del = await s.as(`${PICKUPS}${p.id}/`, { method: "DELETE" });
    expect(del.status).toBe(409);
    expect((await problem(del)).code).toBe("pickup_location_in_use");
  });

  it("MH7 CRUD: bilingual names, coordinates, hours; one default per store; customers see the active ones", async () => {
    const s = await storeFor(9715);
    const a = await created(s, PICKUPS, pickupBody({ is_default: true }));
    expect(a).toMatchObject({
      name_ar: "المستودع الرئيسي",
      location: { address1: "Olaya St 1", lat: 24.69, lng: 46.68 },
      is_default: true,
      is_active: true,
    });
    const b = await created(s, PICKUPS, pickupBody({ name_en: "North", is_default: true }));
    expect((await json(await s.as(`${PICKUPS}${a.id}/`))).is_default).toBe(false);
    expect(b.is_default).toBe(true);
    expect((await eventsWhere(9715, ["pickup_location.updated"], "id", a.id)).length).toBe(1);
    const upd = await s.as(`${PICKUPS}${a.id}/`, { method: "PATCH", body: { is_active: false, district_id: OLAYA } });
    expect(upd.status).toBe(200);
    expect(await json(upd)).toMatchObject({ is_active: false, district_id: OLAYA });
    expect((await s.as(`${PICKUPS}${a.id}/`, { method: "PATCH", body: { district_id: 999999 } })).status).toBe(400);
    expect((await s.as(PICKUPS, { method: "POST", body: pickupBody({ city_id: 999999 }) })).status).toBe(400);
    expect(
      (
        await s.as(PICKUPS, {
          method: "POST",
          body: pickupBody({ working_hours: [{ day: "sunday", open: "18:00", close: "09:00" }] }),
        })
      ).status,
    ).toBe(400);
    const list = await json(await s.as(`${PICKUPS}?is_active=true`));
    expect(list.results.map((p: { id: number }) => p.id)).toEqual([b.id]);
    expect((await s.as(`${PICKUPS}${b.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await s.as(`${PICKUPS}${b.id}/`)).status).toBe(404);
    expect((await eventsWhere(9715, ["pickup_location.deleted"], "id", b.id)).length).toBe(1);
  });
});
