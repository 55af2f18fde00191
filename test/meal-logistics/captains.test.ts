import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedAuthCases } from "../helpers/auth-cases";
import { schemaErrors } from "../helpers/meals";
import { problem } from "../helpers/request";
import {
  eventsOf,
  JEDDAH,
  L,
  type LStore,
  logisticsStore,
  ok,
  RIYADH,
  seedCaptain,
  seedSuborder,
  seedSubscription,
} from "./seed";

const A = 4301;
const B = 4302;
let s: LStore;
let other: LStore;
beforeAll(async () => {
  s = await logisticsStore(A, 4_310_000);
  other = await logisticsStore(B, 4_320_000);
});
afterAll(() => setClock(null));

const CAPTAINS = `${L}captains/`;
const create = (store: LStore, body: Record<string, unknown>) => store.as(CAPTAINS, { method: "POST", body });

sharedAuthCases({ method: "GET", path: CAPTAINS, permission: "can_read_order" });
sharedAuthCases({
  method: "POST",
  path: CAPTAINS,
  permission: "can_write_order",
  body: { name: "Auth", mobile_number: "0551000001", city_id: RIYADH },
});

describe("ML2 Captain", () => {
  it("creates a captain with the number stored as E.164, reads, updates and deletes it, with events", async () => {
    const c = await ok(
      await create(s, {
        name: "Faisal",
        mobile_number: "+966 55 123 4567",
        city_id: RIYADH,
        branch_id: s.olaya,
        vehicle: "Motorcycle, plate 1234 ABC",
      }),
      201,
    );
    expect(schemaErrors("createCaptain", c, "201")).toEqual([]);
    expect(c).toMatchObject({
      app_id: A,
      name: "Faisal",
      country_code: "966",
      mobile_number: "966551234567",
      city_id: RIYADH,
      branch_id: s.olaya,
      is_active: true,
      vehicle: "Motorcycle, plate 1234 ABC",
      is_deleted: false,
    });
    expect(await ok(await s.as(`${CAPTAINS}${c.id}/`))).toEqual(c);

    const changed = await ok(
      await s.as(`${CAPTAINS}${c.id}/`, {
        method: "PATCH",
        body: { city_id: JEDDAH, branch_id: s.tahlia, is_active: false, mobile_number: "0551234568" },
      }),
    );
    expect(changed).toMatchObject({
      city_id: JEDDAH,
      branch_id: s.tahlia,
      is_active: false,
      mobile_number: "966551234568",
    });
    const cleared = await ok(
      await s.as(`${CAPTAINS}${c.id}/`, { method: "PATCH", body: { branch_id: null, vehicle: null } }),
    );
    expect(cleared).toMatchObject({ branch_id: null, vehicle: null, city_id: JEDDAH });

    const del = await s.as(`${CAPTAINS}${c.id}/`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await problem(await s.as(`${CAPTAINS}${c.id}/`))).code).toBe("captain_not_found");

    const ids = (type: string) => eventsOf(A, type).then((e) => e.filter((d) => d.id === c.id));
    expect(await ids("captain.created")).toEqual([{ id: c.id }]);
    expect(await ids("captain.updated")).toHaveLength(2);
    expect(await ids("captain.deleted")).toEqual([{ id: c.id }]);
  });

  it("validates the body: mobile number of the country, a city that exists, a branch of the store", async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const p = await problem(await create(s, body));
      expect(p.status, JSON.stringify(p)).toBe(400);
      expect(p.code).toBe("validation_error");
      expect(Object.keys(p.errors ?? {})).toContain(field);
    };
    const base = { name: "Valid", mobile_number: "0552000001", city_id: RIYADH };
    await bad({ ...base, mobile_number: "12345" }, "mobile_number");
    await bad({ ...base, mobile_number: "abc" }, "mobile_number");
    await bad({ ...base, country_code: "x1" }, "country_code");
    await bad({ ...base, country_code: "999" }, "country_code");
    await bad({ ...base, city_id: 999_999 }, "city_id");
    await bad({ ...base, city_id: 0 }, "city_id");
    await bad({ ...base, branch_id: other.olaya }, "branch_id");
    await bad({ ...base, name: "  " }, "name");
    await bad({ ...base, colour: "red" }, "colour");
    await bad({ mobile_number: "0552000001", city_id: RIYADH }, "name");
    const patch = await problem(await s.as(`${CAPTAINS}${(await seedCaptain(s)).id}/`, { method: "PATCH", body: {} }));
    expect(patch.status).toBe(400);
    const ccOnly = await problem(
      await s.as(`${CAPTAINS}${(await seedCaptain(s)).id}/`, { method: "PATCH", body: { country_code: "971" } }),
    );
    expect(ccOnly.errors).toHaveProperty("mobile_number");
  });

  it("refuses a mobile number another live captain of the store has (409), not another store's or a deleted one's", async () => {
    const first = await ok(await create(s, { name: "One", mobile_number: "0553000001", city_id: RIYADH }), 201);
    const taken = await problem(await create(s, { name: "Two", mobile_number: "+966553000001", city_id: RIYADH }));
    expect(taken.status).toBe(409);
    expect(taken).toMatchObject({ code: "captain_mobile_taken", captain_id: first.id });
    const second = await ok(await create(s, { name: "Two", mobile_number: "0553000002", city_id: RIYADH }), 201);
    const patch = await problem(
      await s.as(`${CAPTAINS}${second.id}/`, { method: "PATCH", body: { mobile_number: "0553000001" } }),
    );
    expect(patch.code).toBe("captain_mobile_taken");
    await ok(await create(other, { name: "Elsewhere", mobile_number: "0553000001", city_id: RIYADH }), 201);
    expect((await s.as(`${CAPTAINS}${first.id}/`, { method: "DELETE" })).status).toBe(204);
    await ok(await create(s, { name: "Again", mobile_number: "0553000001", city_id: RIYADH }), 201);
  });

  it("is the store's own: another store's captain is a 404 on every member route", async () => {
    const theirs = await seedCaptain(other);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const res = await s.as(`${CAPTAINS}${theirs.id}/`, {
        method,
        body: method === "PATCH" ? { name: "X" } : undefined,
      });
      expect((await problem(res)).code, method).toBe("captain_not_found");
    }
    expect((await s.as(`${CAPTAINS}abc/`)).status).toBe(400);
  });

  it("refuses to delete a captain with suborders still to deliver today or later; past or finished ones do not count", async () => {
    setClock("2026-12-10T09:00:00Z");
    const c = await seedCaptain(s);
    const sub = await seedSubscription(s);
    await seedSuborder(s, sub, { date: "2026-12-09", captainId: c.id });
    await seedSuborder(s, sub, { date: "2026-12-10", captainId: c.id, status: "delivered" });
    const due = await seedSuborder(s, sub, { date: "2026-12-11", captainId: c.id, status: "confirmed" });
    const p = await problem(await s.as(`${CAPTAINS}${c.id}/`, { method: "DELETE" }));
    expect(p).toMatchObject({ status: 409, code: "captain_in_use", suborders: [due.id] });
    // The restaurant's day decides: at 23:30 in Riyadh the suborder of the 11th is still today's.
    setClock("2026-12-11T20:30:00Z");
    expect((await problem(await s.as(`${CAPTAINS}${c.id}/`, { method: "DELETE" }))).code).toBe("captain_in_use");
    // Still the 11th in UTC, but the 12th in Riyadh: it is past.
    setClock("2026-12-11T21:30:00Z");
    expect((await s.as(`${CAPTAINS}${c.id}/`, { method: "DELETE" })).status).toBe(204);
    setClock(null);
  });
});

describe("ML5 List Captains", () => {
  it("lists the store's live captains, filtered by city, branch and activity, searched by name or number", async () => {
    const store = await logisticsStore(4303, 4_330_000);
    const a = await seedCaptain(store, {
      name: "Omar Riyadh",
      mobileNumber: "966554000001",
      cityId: RIYADH,
      branchId: store.olaya,
    });
    const b = await seedCaptain(store, {
      name: "Ali Jeddah",
      mobileNumber: "966554000002",
      cityId: JEDDAH,
      branchId: store.tahlia,
    });
    const c = await seedCaptain(store, {
      name: "Omar Off",
      mobileNumber: "966554000003",
      isActive: false,
      branchId: null,
    });
    await seedCaptain(store, { name: "Gone", mobileNumber: "966554000004", isDeleted: true });
    await seedCaptain(other, { name: "Omar Other" });
    const ids = async (q: string) =>
      (await ok(await store.as(`${CAPTAINS}${q}`))).results.map((r: { id: number }) => r.id).sort();
    const all = await ok(await store.as(CAPTAINS));
    expect(schemaErrors("listCaptains", all)).toEqual([]);
    expect(all.count).toBe(3);
    expect(await ids(`?city_id=${RIYADH}`)).toEqual([a.id, c.id].sort());
    expect(await ids(`?branch_id=${store.tahlia}`)).toEqual([b.id]);
    expect(await ids("?branch_id__isnull=true")).toEqual([c.id]);
    expect(await ids("?is_active=false")).toEqual([c.id]);
    expect(await ids("?is_active=true&city_id=1")).toEqual([a.id]);
    expect(await ids("?search=omar")).toEqual([a.id, c.id].sort());
    expect(await ids("?search=0554000002")).toEqual([b.id]);
    expect(await ids("?search=%2B966554000003")).toEqual([c.id]);
    const page = await ok(await store.as(`${CAPTAINS}?page_size=2&order_by=name`));
    expect(page.results.map((r: { name: string }) => r.name)).toEqual(["Ali Jeddah", "Omar Off"]);
    expect(page.next).toContain("page=2");
    const unknown = await problem(await store.as(`${CAPTAINS}?colour=red`));
    expect(unknown.status).toBe(400);
    expect((await problem(await store.as(`${CAPTAINS}?is_active=maybe`))).errors).toHaveProperty("is_active");
  });
});
