import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { callWaits, json } from "../helpers/request";
import {
  eventsOf,
  JEDDAH,
  L,
  type LStore,
  logisticsStore,
  RIYADH,
  seedCaptain,
  seedSuborder,
  seedSubscription,
} from "./seed";

/**
 * How long the captains' and branches' writes keep a merchant waiting on D1, counted in round trips
 * one after another beyond the token check (test/helpers/d1-waits.ts), never timed: the row and the
 * references it names read at once, then one guarded batch that writes and reads the row back.
 */

const A = 4357;
let s: LStore;
beforeAll(async () => {
  s = await logisticsStore(A, 4_357_000);
  // The isolate's token check is counted apart: one request before the ones counted here.
  await s.as(`${L}captains/`);
});
afterAll(() => setClock(null));

const CAPTAINS = `${L}captains/`;
const send = (path: string, method: string, body?: Record<string, unknown>) =>
  callWaits(path, { method, body, token: s.token, appId: A });

describe("D1 round trips of the captains' writes", () => {
  it("Create, Update and Delete Captain each wait for D1 at most twice, with a city and a branch", async () => {
    const created = await send(CAPTAINS, "POST", {
      name: "Waleed",
      mobile_number: "0557100001",
      city_id: RIYADH,
      branch_id: s.olaya,
    });
    const captain = await json(created.res);
    expect(created.res.status, JSON.stringify(captain)).toBe(201);
    expect(captain).toMatchObject({
      name: "Waleed",
      mobile_number: "966557100001",
      city_id: RIYADH,
      branch_id: s.olaya,
    });
    expect(created.waits.beyondAuth).toBeLessThanOrEqual(2);

    const changed = await send(`${CAPTAINS}${captain.id}/`, "PATCH", {
      city_id: JEDDAH,
      branch_id: s.tahlia,
      mobile_number: "0557100002",
    });
    const body = await json(changed.res);
    expect(changed.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: captain.id, city_id: JEDDAH, branch_id: s.tahlia, mobile_number: "966557100002" });
    expect(changed.waits.beyondAuth).toBeLessThanOrEqual(2);
    // The answer the batch read back is the captain as it is stored.
    expect(await json(await s.as(`${CAPTAINS}${captain.id}/`))).toEqual(body);

    const deleted = await send(`${CAPTAINS}${captain.id}/`, "DELETE");
    expect(deleted.res.status).toBe(204);
    expect(deleted.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await s.as(`${CAPTAINS}${captain.id}/`)).status).toBe(404);
    const events = (type: string) => eventsOf(A, type).then((e) => e.filter((d) => d.id === captain.id).length);
    expect([await events("captain.created"), await events("captain.updated"), await events("captain.deleted")]).toEqual(
      [1, 1, 1],
    );
  });

  it("the refusals the batch guards answer as before: another captain's number, a captain deleted", async () => {
    const holder = await seedCaptain(s, { mobileNumber: "966557100010" });
    const mine = await seedCaptain(s, { mobileNumber: "966557100011" });
    const taken = await send(`${CAPTAINS}${mine.id}/`, "PATCH", { mobile_number: "0557100010" });
    expect(taken.res.status).toBe(409);
    expect(await json(taken.res)).toMatchObject({ code: "captain_mobile_taken", captain_id: holder.id });
    expect(await json(await s.as(`${CAPTAINS}${mine.id}/`))).toMatchObject({ mobile_number: "966557100011" });
    expect((await send(`${CAPTAINS}${mine.id}/`, "DELETE")).res.status).toBe(204);
    const gone = await send(`${CAPTAINS}${mine.id}/`, "PATCH", { name: "X" });
    expect(gone.res.status).toBe(404);
    expect(await json(gone.res)).toMatchObject({ code: "captain_not_found" });
  });

  it("Delete Captain reads its suborders with their restaurants' time zones at once, today's too", async () => {
    setClock("2026-12-10T09:00:00Z");
    const c = await seedCaptain(s);
    const sub = await seedSubscription(s);
    const later = await seedSuborder(s, sub, { date: "2026-12-20", captainId: c.id, status: "confirmed" });
    const refused = await send(`${CAPTAINS}${c.id}/`, "DELETE");
    expect(refused.res.status).toBe(409);
    expect(await json(refused.res)).toMatchObject({ code: "captain_in_use", suborders: [later.id] });
    expect(refused.waits.beyondAuth).toBe(1);
    // A suborder of today in the restaurant's zone (its day is not over anywhere): still one read.
    const other = await seedCaptain(s);
    const today = await seedSuborder(s, await seedSubscription(s), {
      date: "2026-12-10",
      captainId: other.id,
      status: "confirmed",
    });
    const kept = await send(`${CAPTAINS}${other.id}/`, "DELETE");
    expect(kept.res.status).toBe(409);
    expect(await json(kept.res)).toMatchObject({ code: "captain_in_use", suborders: [today.id] });
    expect(kept.waits.beyondAuth).toBe(1);
    setClock(null);
  });
});

describe("D1 round trips of the logistics branches' writes", () => {
  // The branch's own write is the meals side's (its update and delete find the branch again): what
  // this path adds, the city and the branch's captains, is read beside this path's own 404 check.
  it("Update and Delete Branch read the branch with the city or its captains at once", async () => {
    const made = await json(
      await s.as(`${L}branches/`, {
        method: "POST",
        body: {
          restaurant_id: s.kabsa,
          name_en: "Rawdah",
          name_ar: "الروضة",
          city_id: RIYADH,
          location: { lat: 24.73, lng: 46.77, address1: "Rawdah St" },
        },
      }),
    );
    const moved = await send(`${L}branches/${made.id}/`, "PATCH", { city_id: JEDDAH, name_en: "Rawdah 2" });
    expect(moved.res.status).toBe(200);
    expect(await json(moved.res)).toMatchObject({ id: made.id, city_id: JEDDAH, name_en: "Rawdah 2" });
    // One round trip of this path's reads, then the meals side's update (its find, its write, its read back).
    expect(moved.waits.beyondAuth).toBeLessThanOrEqual(4);
    const used = await seedCaptain(s, { branchId: made.id });
    const kept = await send(`${L}branches/${made.id}/`, "DELETE");
    expect(kept.res.status).toBe(409);
    expect(await json(kept.res)).toMatchObject({ code: "branch_in_use", captains: [used.id] });
    expect(kept.waits.beyondAuth).toBe(1);
    await s.as(`${CAPTAINS}${used.id}/`, { method: "DELETE" });
    const deleted = await send(`${L}branches/${made.id}/`, "DELETE");
    expect(deleted.res.status).toBe(204);
    expect(deleted.waits.beyondAuth).toBeLessThanOrEqual(3);
    expect((await s.as(`${L}branches/${made.id}/`)).status).toBe(404);
  });
});
