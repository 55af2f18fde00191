import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { ensureTenant, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, problem } from "../helpers/request";
import { eventsOf, JEDDAH, L, type LStore, logisticsStore, ok, RIYADH, seedCaptain, seedZone } from "./seed";

const MEALS = "/order/v1/merchant/meals/";
const A = 4311;
const B = 4312;
let s: LStore;
let other: LStore;
/** Green Bowl's zone over the middle of Kabsa House's: (24.70, 46.70) is in both. */
let greenZone: { id: number };
beforeAll(async () => {
  s = await logisticsStore(A, 4_810_500);
  other = await logisticsStore(B, 4_820_500);
  greenZone = await seedZone(s, s.green, RIYADH, [24.65, 46.65, 24.75, 46.75]);
});

sharedAuthCases({ method: "GET", path: `${L}cities/`, permission: "can_read_order" });
sharedAuthCases({ method: "GET", path: `${L}supported-windows/?lat=24.7&lng=46.7`, permission: "can_read_order" });

describe("ML1 Logistics City", () => {
  it("lists the cities of the store's zones and branches, each with its zones", async () => {
    const page = await ok(await s.as(`${L}cities/`));
    expect(schemaErrors("listLogisticsCities", page)).toEqual([]);
    expect(page.count).toBe(2);
    const [riyadh, jeddah] = page.results;
    expect(riyadh).toMatchObject({ id: RIYADH, name_en: "Riyadh" });
    expect(riyadh.zones.map((z: { id: number }) => z.id)).toEqual([s.kabsaZone, greenZone.id]);
    expect(riyadh.zones[0]).toEqual({
      id: s.kabsaZone,
      name_en: "Central Riyadh",
      restaurant_id: s.kabsa,
      polygon: [
        [24.6, 46.6],
        [24.6, 46.8],
        [24.78, 46.8],
        [24.78, 46.6],
      ],
    });
    // Jeddah: only Green Bowl's Tahlia branch, no zone.
    expect(jeddah).toMatchObject({ id: JEDDAH, zones: [] });
    const searched = await ok(await s.as(`${L}cities/?search=jedd`));
    expect(searched.results.map((c: { id: number }) => c.id)).toEqual([JEDDAH]);
    expect((await problem(await s.as(`${L}cities/?page=3`))).status).toBe(400);
  });

  it("waits for D1 twice beyond the token check: the cities and zones of the store, then the page of cities", async () => {
    const { res, waits } = await callWaits(`${L}cities/?page_size=1`, { token: s.token, appId: A });
    expect((await ok(res)).results[0].zones).toHaveLength(2);
    expect(waits.beyondAuth).toBe(2);
  });

  it("shows a store only its own zones, and an empty page without any", async () => {
    const theirs = await ok(await other.as(`${L}cities/`));
    expect(theirs.results[0].zones.map((z: { id: number }) => z.id)).toEqual([other.kabsaZone]);
    await ensureTenant(4313);
    const none = await ok(await call(`${L}cities/`, { token: await tokenFor(4313), appId: 4313 }));
    expect(none).toEqual({ count: 0, next: null, previous: null, results: [] });
  });
});

describe("ML4 Supported Windows", () => {
  const at = (q: string, store = s) => store.as(`${L}supported-windows/?${q}`);
  const ids = async (q: string, store = s) => (await ok(await at(q, store))).results.map((w: { id: number }) => w.id);

  it("answers the windows of the restaurants whose zones contain the point, with the captain app's fields", async () => {
    const both = await ok(await at("lat=24.70&lng=46.70"));
    expect(schemaErrors("listSupportedWindows", both)).toEqual([]);
    // Ordered by start time: Green Bowl's morning and noon, Kabsa House's evening.
    expect(both.results.map((w: { id: number }) => w.id)).toEqual([
      s.windows.greenMorning,
      s.windows.greenNoon,
      s.windows.kabsaEvening,
    ]);
    expect(both.results[0]).toEqual({
      id: s.windows.greenMorning,
      app_id: A,
      created_at: expect.any(String),
      modified_at: expect.any(String),
      ordering: expect.any(Number),
      restaurant_id: s.green,
      type: "both",
      from_time: "06:00:00",
      to_time: "09:00:00",
      is_default: false,
      tag: null,
      is_on_demand_opened: true,
    });
    // Inside Kabsa House's zone only.
    expect(await ids("lat=24.62&lng=46.62")).toEqual([s.windows.kabsaEvening]);
    // Outside every zone (Jeddah): an empty page.
    expect(await ok(await at("lat=21.55&lng=39.15"))).toMatchObject({ count: 0, results: [], next: null });
    // A city narrows the zones; the other store's zones are not ours.
    expect(await ids(`lat=24.70&lng=46.70&city_id=${JEDDAH}`)).toEqual([]);
    expect(await ids(`lat=24.70&lng=46.70&city_id=${RIYADH}&restaurant_id=${s.kabsa}`)).toEqual([
      s.windows.kabsaEvening,
    ]);
    expect(await ids("lat=24.70&lng=46.70", other)).toEqual([other.windows.kabsaEvening]);
  });

  it("filters by what a window serves: its type, or both", async () => {
    // Kabsa House's windows become a subscription one and an on-demand one, through the meals write.
    await ok(
      await s.as(`${MEALS}restaurants/${s.kabsa}/`, {
        method: "PATCH",
        body: {
          delivery_windows: [
            { from_time: "11:00", to_time: "13:00", type: "subscription", is_default: true, tag: "Lunch" },
            { from_time: "19:00", to_time: "21:00", type: "on_demand", is_on_demand_opened: false },
          ],
        },
      }),
    );
    const kabsa = (await ok(await at("lat=24.62&lng=46.62"))).results;
    expect(
      kabsa.map((w: { type: string; tag: string | null; is_default: boolean }) => [w.type, w.tag, w.is_default]),
    ).toEqual([
      ["subscription", "Lunch", true],
      ["on_demand", null, false],
    ]);
    expect(
      (await ok(await at("lat=24.62&lng=46.62&type=subscription"))).results.map((w: { type: string }) => w.type),
    ).toEqual(["subscription"]);
    const onDemand = await ok(await at("lat=24.70&lng=46.70&type=on_demand"));
    // Green Bowl's two windows serve both; Kabsa House's on-demand one.
    expect(onDemand.results.map((w: { type: string }) => w.type)).toEqual(["both", "both", "on_demand"]);
    expect(await ids("lat=24.70&lng=46.70&type=both")).toEqual([s.windows.greenMorning, s.windows.greenNoon]);
  });

  it("is a 400 for a missing, malformed or out-of-range point, or an unknown parameter", async () => {
    for (const [q, field] of [
      ["lng=46.7", "lat"],
      ["lat=24.7", "lng"],
      ["lat=abc&lng=46.7", "lat"],
      ["lat=91&lng=46.7", "lat"],
      ["lat=24.7&lng=181", "lng"],
      ["lat=24.7&lng=46.7&type=drone", "type"],
      ["lat=24.7&lng=46.7&city_id=x", "city_id"],
      ["lat=24.7&lng=46.7&colour=red", "colour"],
    ] as const) {
      const p = await problem(await at(q));
      expect(p.status, q).toBe(400);
      expect(p.errors, q).toHaveProperty(field);
    }
    const unknown = await problem(await at("lat=24.7&lng=46.7&colour=red"));
    expect(unknown.errors!.colour![0]).toContain("Allowed: lat, lng, city_id, type, page");
  });
});

describe("ML3 Branch", () => {
  const BRANCHES = `${L}branches/`;
  it("lists the branches of every restaurant of the store, filtered by restaurant and city", async () => {
    const all = await ok(await s.as(BRANCHES));
    expect(schemaErrors("listLogisticsBranches", all)).toEqual([]);
    expect(all.results.map((b: { id: number }) => b.id).sort()).toEqual([s.olaya, s.tahlia, s.malaz].sort());
    const kabsa = await ok(await s.as(`${BRANCHES}?restaurant_id=${s.kabsa}`));
    expect(kabsa.results.map((b: { id: number }) => b.id)).toEqual([s.malaz]);
    const jeddah = await ok(await s.as(`${BRANCHES}?city_id=${JEDDAH}`));
    expect(jeddah.results.map((b: { id: number }) => b.id)).toEqual([s.tahlia]);
    expect(await ok(await s.as(`${BRANCHES}${s.olaya}/`))).toMatchObject({
      id: s.olaya,
      restaurant_id: s.green,
      name_en: "Olaya",
      city_id: RIYADH,
      location: { address1: "Olaya St, Riyadh", lat: "24.6907", lng: "46.6853" },
      is_main: true,
      supports_pickup: true,
    });
    expect((await problem(await s.as(`${BRANCHES}${other.olaya}/`))).code).toBe("branch_not_found");
  });

  it("creates, updates and deletes through the meals side's branch service: one record, both paths", async () => {
    const made = await ok(
      await s.as(BRANCHES, {
        method: "POST",
        body: {
          restaurant_id: s.kabsa,
          name_en: "Rawdah",
          name_ar: "الروضة",
          city_id: RIYADH,
          location: { lat: 24.73, lng: 46.77, address1: "Rawdah St" },
          supports_pickup: false,
        },
      }),
      201,
    );
    expect(schemaErrors("createLogisticsBranch", made, "201")).toEqual([]);
    expect(made).toMatchObject({
      restaurant_id: s.kabsa,
      name_en: "Rawdah",
      city_id: RIYADH,
      location: { address1: "Rawdah St", lat: "24.73", lng: "46.77" },
      supports_pickup: false,
      is_main: false,
    });
    // The meals path sees and changes the same record.
    const viaMeals = await ok(
      await s.as(`${MEALS}branches/${made.id}/`, { method: "PATCH", body: { name_en: "Rawdah 2" } }),
    );
    expect(viaMeals.name_en).toBe("Rawdah 2");
    const moved = await ok(
      await s.as(`${BRANCHES}${made.id}/`, {
        method: "PATCH",
        body: { location: { lat: 24.74, lng: 46.78 }, is_main: true },
      }),
    );
    expect(moved).toMatchObject({ name_en: "Rawdah 2", location: { lat: "24.74", lng: "46.78" }, is_main: true });
    // Making it main cleared Malaz's.
    expect((await ok(await s.as(`${BRANCHES}${s.malaz}/`))).is_main).toBe(false);
    expect((await eventsOf(A, "restaurant.updated")).filter((e) => e.id === s.kabsa).length).toBeGreaterThanOrEqual(3);

    expect((await s.as(`${BRANCHES}${made.id}/`, { method: "DELETE" })).status).toBe(204);
    expect((await problem(await s.as(`${BRANCHES}${made.id}/`))).code).toBe("branch_not_found");
  });

  it("validates the restaurant, the city and the location, and keeps branches with captains", async () => {
    const base = {
      restaurant_id: s.kabsa,
      name_en: "X",
      name_ar: "س",
      city_id: RIYADH,
      location: { lat: 24.7, lng: 46.7 },
    };
    for (const [body, field] of [
      [{ ...base, restaurant_id: other.kabsa }, "restaurant_id"],
      [{ ...base, city_id: 999_999 }, "city_id"],
      [{ ...base, location: { lat: 95, lng: 46.7 } }, "location.lat"],
      [{ ...base, location: { lat: 24.7 } }, "location.lng"],
      [{ ...base, name_en: "" }, "name_en"],
    ] as const) {
      const p = await problem(await s.as(BRANCHES, { method: "POST", body }));
      expect(p.status, field).toBe(400);
      expect(p.errors, field).toHaveProperty(field);
    }
    const patch = await problem(
      await s.as(`${BRANCHES}${s.olaya}/`, { method: "PATCH", body: { restaurant_id: s.kabsa } }),
    );
    expect(patch.errors).toHaveProperty("restaurant_id");
    expect(
      (await problem(await s.as(`${BRANCHES}${other.olaya}/`, { method: "PATCH", body: { name_en: "Y" } }))).code,
    ).toBe("branch_not_found");

    const c = await seedCaptain(s, { branchId: s.tahlia, cityId: JEDDAH });
    const used = await problem(await s.as(`${BRANCHES}${s.tahlia}/`, { method: "DELETE" }));
    expect(used).toMatchObject({ status: 409, code: "branch_in_use", captains: [c.id] });
    expect((await problem(await s.as(`${BRANCHES}${other.tahlia}/`, { method: "DELETE" }))).code).toBe(
      "branch_not_found",
    );
  });
});
