import { beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/core/permissions";
import { APP_1, createCustomerFor, customerTokenFor, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { outboxOf } from "./records-fixtures";

// The customer app's own locations (CA8). Stores of this file only.
const S1 = 4221;
const S2 = 4222;
const API = "/api/v1/customer";
const RIYADH = 1;
const JEDDAH = 2;
const OLAYA = 1; // a district of Riyadh (geography migration)

async function as(id: number, path: string, opts: { method?: string; body?: unknown; appId?: number } = {}) {
  const appId = opts.appId ?? S1;
  return call(API + path, { ...opts, appId, token: await customerTokenFor(appId, id) });
}
const locationRow = (id: number) =>
  shardFor(APP_1).prepare("SELECT * FROM customer_locations WHERE id = ?").bind(id).first<Record<string, any>>();

const home = {
  type: "home",
  name_en: "Home",
  name_ar: "المنزل",
  latitude: 24.6917,
  longitude: 46.6853,
  city_id: RIYADH,
  district_id: OLAYA,
  address1: "King Fahd Road 12",
};

let sara: number;
let omar: number;
let saraHome: number;
let omarWork: number;

beforeAll(async () => {
  await ensureTenant(S1);
  await ensureTenant(S2);
  sara = (await createCustomerFor(S1)).id;
  omar = (await createCustomerFor(S1)).id;
  const a = await as(sara, "/locations/", { method: "POST", body: home });
  saraHome = (await json(a)).id;
  const b = await as(omar, "/locations/", {
    method: "POST",
    body: { ...home, type: "work", name_en: "OMAR-PRIVATE", district_id: null },
  });
  omarWork = (await json(b)).id;
});

describe("CA8 customer locations", () => {
  it(
    "POST creates a location of the customer with its city and district, and emits " + "customer.location.created",
    async () => {
      const res = await as(sara, "/locations/", { method: "POST", body: { ...home, type: "friend_house" } });
      expect(res.status).toBe(201);
      const body = await json(res);
      expect(body).toMatchObject({
        customer_id: sara,
        type: "friend_house",
        latitude: "24.6917",
        longitude: "46.6853",
        city_id: RIYADH,
        city: { id: RIYADH, name_en: "Riyadh", name_ar: "الرياض" },
        city_name_en: "Riyadh",
        district_id: OLAYA,
        district: "Al Olaya",
        district_ar: "العليا",
        image: null,
      });
      const events = await outboxOf(S1, "customer.location.created");
      expect(events.map((e) => e.payload.data)).toContainEqual({ id: body.id, customer_id: sara });
    },
  );

  it("POST range-checks the coordinates and checks the place (400 naming the field)", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ latitude: 90.5 }, "latitude"],
      [{ longitude: -180.1 }, "longitude"],
      [{ latitude: "24.7" }, "latitude"],
      [{ city_id: 999999 }, "city_id"],
      [{ district_id: 999999 }, "district_id"],
      [{ city_id: JEDDAH }, "district_id"],
      [{ type: "castle" }, "type"],
      [{ image: "http://example.com/x.jpg" }, "image"],
    ];
    for (const [change, field] of cases) {
      const res = await as(sara, "/locations/", { method: "POST", body: { ...home, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await problem(res)).errors, JSON.stringify(change)).toHaveProperty([field]);
    }
  });

  it("GET lists and shows only the customer's own locations", async () => {
    const list = await as(sara, "/locations/?page_size=100");
    expect(list.status).toBe(200);
    const page = await json(list);
    expect(page.results.length).toBeGreaterThan(0);
    expect(page.results.every((l: { customer_id: number }) => l.customer_id === sara)).toBe(true);
    expect(JSON.stringify(page)).not.toContain("OMAR-PRIVATE");
    const one = await as(sara, `/locations/${saraHome}/`);
    expect(one.status).toBe(200);
    expect((await json(one)).id).toBe(saraHome);
    // The customer's check, the rows and their places: one D1 round trip beyond the token's.
    const token = await customerTokenFor(S1, sara);
    for (const path of ["/locations/", `/locations/${saraHome}/`]) {
      const {
        res,
        waits: { beyondAuth },
      } = await callWaits(API + path, { token, appId: S1 });
      expect(res.status).toBe(200);
      expect(beyondAuth, path).toBe(1);
    }
  });

  it("another customer's location is a 404 for every operation, and stays as it was", async () => {
    const before = await locationRow(omarWork);
    for (const [method, path, body] of [
      ["GET", `/locations/${omarWork}/`, undefined],
      ["PATCH", `/locations/${omarWork}/`, { name_en: "Taken" }],
      ["POST", `/locations/${omarWork}/image/`, { image: "https://cdn.example.com/x.jpg" }],
      ["DELETE", `/locations/${omarWork}/`, undefined],
    ] as const) {
      const res = await as(sara, path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      const text = await res.text();
      expect(text).toContain("customer_location_not_found");
      expect(text).not.toContain("OMAR-PRIVATE");
    }
    expect(await locationRow(omarWork)).toEqual(before);
  });

  it("a merchant token on the customer's locations is 403 wrong_principal", async () => {
    const res = await call(`${API}/locations/`, { token: await tokenFor(S1, [...PERMISSIONS]), appId: S1 });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("wrong_principal");
  });

  it(
    "PATCH changes the given fields, keeps the district in the city, and emits " + "customer.location.updated",
    async () => {
      const res = await as(sara, `/locations/${saraHome}/`, {
        method: "PATCH",
        body: { name_en: "Home (new)", latitude: 24.7, description: "Ring twice" },
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({
        id: saraHome,
        name_en: "Home (new)",
        latitude: "24.7",
        description: "Ring twice",
        district_id: OLAYA,
      });
      // Riyadh's district with Jeddah as the city: refused; with the district cleared: accepted.
      const moved = await as(sara, `/locations/${saraHome}/`, { method: "PATCH", body: { city_id: JEDDAH } });
      expect(moved.status).toBe(400);
      expect((await problem(moved)).errors).toHaveProperty("district_id");
      const cleared = await as(sara, `/locations/${saraHome}/`, {
        method: "PATCH",
        body: { city_id: JEDDAH, district_id: null },
      });
      expect(cleared.status).toBe(200);
      expect(await json(cleared)).toMatchObject({ city_id: JEDDAH, city_name_en: "Jeddah", district_id: null });
      for (const body of [{}, { latitude: -91 }, { customer_id: omar }, { image: "https://x.example/a.jpg" }]) {
        const bad = await as(sara, `/locations/${saraHome}/`, { method: "PATCH", body });
        expect(bad.status, JSON.stringify(body)).toBe(400);
      }
      const events = await outboxOf(S1, "customer.location.updated");
      expect(events.map((e) => e.payload.data)).toContainEqual({ id: saraHome, customer_id: sara });
    },
  );

  it("POST image/ records an https URL, null removes it", async () => {
    const url = "https://cdn.example.com/locations/door.jpg";
    const set = await as(sara, `/locations/${saraHome}/image/`, { method: "POST", body: { image: url } });
    expect(set.status).toBe(200);
    expect((await json(set)).image).toBe(url);
    const removed = await as(sara, `/locations/${saraHome}/image/`, { method: "POST", body: { image: null } });
    expect((await json(removed)).image).toBeNull();
    const bad = await as(sara, `/locations/${saraHome}/image/`, { method: "POST", body: { image: "ftp://x/y" } });
    expect(bad.status).toBe(400);
  });

  it("DELETE soft-deletes (204) with customer.location.deleted; then it is a 404", async () => {
    const created = await json(await as(sara, "/locations/", { method: "POST", body: home }));
    const res = await as(sara, `/locations/${created.id}/`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect((await locationRow(created.id))!.is_deleted).toBe(1);
    const gone = await as(sara, `/locations/${created.id}/`);
    expect(gone.status).toBe(404);
    const again = await as(sara, `/locations/${created.id}/`, { method: "DELETE" });
    expect(again.status).toBe(404);
    const events = await outboxOf(S1, "customer.location.deleted");
    expect(events.map((e) => e.payload.data)).toContainEqual({ id: created.id, customer_id: sara });
  });

  it("another store's customer with the same location id is a 403 (token) or 401 (no such customer)", async () => {
    const res = await call(`${API}/locations/${saraHome}/`, { token: await customerTokenFor(S2, sara), appId: S2 });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("token_revoked");
    const wrongStore = await call(`${API}/locations/${saraHome}/`, {
      token: await customerTokenFor(S1, sara),
      appId: S2,
    });
    expect(wrongStore.status).toBe(403);
    expect((await problem(wrongStore)).code).toBe("wrong_tenant");
  });
});
