import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, callWaits, json, problem } from "../helpers/request";
import { ensureGeography, outboxOf } from "./records-fixtures";

// Stores of this file only.
const S1 = 4111;
const S2 = 4112;
const CUSTOMERS = "/order/v1/merchant/customers/";
let token: string;
let geo: Awaited<ReturnType<typeof ensureGeography>>;
let sara: number;
let omar: number;
let other: number;
const as = (path: string, opts: { method?: string; body?: unknown; appId?: number } = {}) =>
  call(path, { ...opts, token, appId: opts.appId ?? S1 });
const locations = (customerId: number) => `${CUSTOMERS}${customerId}/locations/`;

async function customer(appId: number, mobile: string): Promise<number> {
  const t = appId === S1 ? token : await tokenFor(appId, ["can_write_order"]);
  const res = await call(CUSTOMERS, {
    method: "POST",
    token: t,
    appId,
    body: { country_code: "966", mobile_number: mobile },
  });
  expect(res.status).toBe(201);
  return (await json(res)).id;
}

beforeAll(async () => {
  await ensureTenant(S1);
  await ensureTenant(S2);
  geo = await ensureGeography();
  token = await tokenFor(S1, ["can_read_order", "can_write_order"]);
  sara = await customer(S1, "0534501056");
  omar = await customer(S1, "0541234567");
  other = await customer(S2, "0534501056");
  // Store S1 serves Riyadh, not Jeddah.
  await shardFor(S1).prepare("INSERT INTO supported_cities (app_id, city_id) VALUES (?, 1)").bind(S1).run();
});

const HOME = {
  type: "home",
  name_en: "Home",
  name_ar: "المنزل",
  latitude: 24.6911,
  longitude: 46.6855,
  city_id: 1,
  district_id: 90001,
  address1: "King Fahd Rd 12",
  address2: "Floor 3",
  postal_code: "12214",
  formatted_address: "12 King Fahd Rd, Riyadh 12214",
  place_id: "ChIJ-place",
  route: "King Fahd Rd",
  street_number: "12",
  location_url: "https://maps.google.com/?q=24.6911,46.6855",
  image: "https://cdn.example.com/door.jpg",
  description: "Blue door",
};

describe("Customer Locations (MC1)", () => {
  it("creates a location: 201 with the FOUND fields, names from the geography lists, and its event", async () => {
    const res = await as(locations(sara), { method: "POST", body: HOME });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.any(Number),
      customer_id: sara,
      type: "home",
      name_en: "Home",
      name_ar: "المنزل",
      latitude: "24.6911",
      longitude: "46.6855",
      city_id: 1,
      city: { ...geo.riyadh, is_supported: true },
      city_name_en: geo.riyadh.name_en,
      city_name_ar: geo.riyadh.name_ar,
      district_id: 90001,
      district: "Records test district",
      district_ar: "حي الاختبار",
      address1: "King Fahd Rd 12",
      address2: "Floor 3",
      postal_code: "12214",
      formatted_address: "12 King Fahd Rd, Riyadh 12214",
      place_id: "ChIJ-place",
      route: "King Fahd Rd",
      street_number: "12",
      location_url: "https://maps.google.com/?q=24.6911,46.6855",
      image: "https://cdn.example.com/door.jpg",
      description: "Blue door",
      ordering: 0,
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    // The location, or a page of them, with the customer's check and the places: one D1 round trip.
    const one = await callWaits(`${locations(sara)}${body.id}/`, { token, appId: S1 });
    expect(await json(one.res)).toEqual(body);
    expect(one.waits.beyondAuth).toBe(1);
    const page = await callWaits(locations(sara), { token, appId: S1 });
    expect((await json(page.res)).results).toEqual([body]);
    expect(page.waits.beyondAuth).toBe(1);
    const events = await outboxOf(S1, "customer.location.created");
    expect(events.map((e) => e.payload.data)).toEqual([{ id: body.id, customer_id: sara }]);
  });

  it("takes only coordinates and a city; the city may be one the store does not serve", async () => {
    const res = await as(locations(omar), { method: "POST", body: { latitude: -21.5, longitude: 179.9, city_id: 2 } });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({
      type: "home",
      name_en: "",
      address1: "",
      latitude: "-21.5",
      longitude: "179.9",
      city: { id: 2, is_supported: false },
      city_name_en: geo.jeddah.name_en,
      district_id: null,
      district: null,
      district_ar: null,
      address2: null,
    });
  });

  it("lists the customer's own locations only, with filters and search", async () => {
    const work = await json(
      await as(locations(sara), {
        method: "POST",
        body: { type: "work", name_en: "Office", latitude: 24.7, longitude: 46.6, city_id: 1, ordering: 5 },
      }),
    );
    const page = await json(await as(locations(sara)));
    expect(page.count).toBe(2);
    expect(page.results.map((r: { customer_id: number }) => r.customer_id)).toEqual([sara, sara]);
    expect(page.results[1].id).toBe(work.id);
    const ids = async (q: string) => (await json(await as(`${locations(sara)}${q}`))).results.map((r: any) => r.id);
    expect(await ids("?type=work")).toEqual([work.id]);
    expect(await ids("?search=Office")).toEqual([work.id]);
    expect(await ids("?order_by=-ordering")).toEqual([work.id, page.results[0].id]);
    const bad = await as(`${locations(sara)}?type=castle`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("type");
  });

  it.each([
    ["a latitude above 90", { latitude: 90.01 }, "latitude"],
    ["a longitude below -180", { longitude: -180.5 }, "longitude"],
    ["coordinates as text", { latitude: "24.7" }, "latitude"],
    ["no city", { city_id: undefined }, "city_id"],
    ["an unknown city", { city_id: 987654 }, "city_id"],
    ["an unknown district", { district_id: 987654 }, "district_id"],
    ["a district of another city", { district_id: 90002 }, "district_id"],
    ["an unknown type", { type: "castle" }, "type"],
    ["a plain-http image", { image: "http://cdn.example.com/a.jpg" }, "image"],
    ["an unknown field", { is_default: true }, "is_default"],
  ])("400 for %s, naming the field; nothing is written", async (_name, patch, field) => {
    const before = (await json(await as(locations(omar)))).count;
    const res = await as(locations(omar), { method: "POST", body: { ...HOME, ...patch } });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toHaveProperty([field]);
    expect((await json(await as(locations(omar)))).count).toBe(before);
  });

  it("404s: another customer's location, another store's customer, a deleted customer", async () => {
    const saras = (await json(await as(locations(sara)))).results[0].id;
    const wrongOwner = await as(`${locations(omar)}${saras}/`);
    expect(wrongOwner.status).toBe(404);
    expect((await problem(wrongOwner)).code).toBe("customer_location_not_found");
    for (const [method, path, body] of [
      ["GET", locations(other)],
      ["POST", locations(other), HOME],
      ["GET", `${locations(other)}${saras}/`],
      ["GET", `${locations(987654321)}`],
      // The customer's 404 comes before what is wrong with the query.
      ["GET", `${locations(other)}?type=castle`],
    ] as const) {
      const res = await as(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await problem(res)).code).toBe("customer_not_found");
    }
    const gone = await customer(S1, "0551234567");
    await shardFor(APP_1).prepare("UPDATE customers SET is_deleted = 1 WHERE id = ?").bind(gone).run();
    expect((await as(locations(gone))).status).toBe(404);
  });
});

describe("Customer Memberships (MC2)", () => {
  beforeAll(async () => {
    const insert = shardFor(APP_1).prepare(
      "INSERT INTO customer_memberships (app_id, customer_id, name_en, name_ar, " +
        "subscription_id, status, start_date, end_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    await shardFor(S1).batch([
      insert.bind(S1, sara, "Gold", "ذهبي", 7, "active", "2026-11-01", "2026-12-01"),
      insert.bind(S1, sara, "Silver", "فضي", null, "expired", "2026-01-01", "2026-02-01"),
      insert.bind(S1, omar, "Omar's", "عمر", null, "active", "2026-11-01", null),
      insert.bind(S2, other, "Private", "خاص", null, "active", "2026-11-01", null),
    ]);
  });
  const memberships = (id: number) => `${CUSTOMERS}${id}/memberships/`;

  it("lists the customer's memberships, newest first, with filters", async () => {
    // The customer's check and the page: one D1 round trip.
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(memberships(sara), { token, appId: S1 });
    expect(beyondAuth).toBe(1);
    const page = await json(res);
    expect(page).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: expect.any(Number),
          customer_id: sara,
          name_en: "Gold",
          name_ar: "ذهبي",
          subscription_id: 7,
          status: "active",
          start_date: "2026-11-01",
          end_date: "2026-12-01",
          created_at: expect.any(String),
          modified_at: expect.any(String),
        },
        expect.objectContaining({ name_en: "Silver", status: "expired", subscription_id: null }),
      ],
    });
    const expired = await json(await as(`${memberships(sara)}?status=expired&page_size=1`));
    expect(expired.results.map((r: { name_en: string }) => r.name_en)).toEqual(["Silver"]);
    const bad = await as(`${memberships(sara)}?status=paused`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("status");
  });

  it("404 customer_not_found for another store's customer", async () => {
    const res = await as(memberships(other));
    expect(res.status).toBe(404);
    expect(await res.clone().text()).not.toContain("Private");
    expect(await problem(res)).toMatchObject({ code: "customer_not_found" });
    expect(await problem(await as(`${memberships(other)}?status=paused`))).toMatchObject({
      code: "customer_not_found",
    });
  });
});

sharedAuthCases({ method: "GET", path: `${CUSTOMERS}1/locations/`, permission: "can_read_order" });
sharedAuthCases({ method: "GET", path: `${CUSTOMERS}1/locations/1/`, permission: "can_read_order" });
sharedAuthCases({
  method: "POST",
  path: `${CUSTOMERS}1/locations/`,
  permission: "can_write_order",
  body: { latitude: 24.7, longitude: 46.6, city_id: 1 },
});
sharedAuthCases({ method: "GET", path: `${CUSTOMERS}1/memberships/`, permission: "can_read_order" });
