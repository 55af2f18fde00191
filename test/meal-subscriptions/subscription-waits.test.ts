import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { customerLocations } from "../../src/modules/customers/tables";
import { db } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import { actionsIn, datesOf } from "./actions-fixtures";
import {
  clockAt,
  customerOf,
  eventsOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  rowsOfSub,
  SUBORDERS,
  SUBS,
} from "./seed";

/**
 * How long the customer's subscription actions keep a client waiting on D1, counted in round trips
 * one after another beyond the customer's standing check (test/helpers/d1-waits.ts), never timed:
 * the subscription with its terms and deliveries in one batch, then the guarded change, whose batch
 * reads the subscription back as Subscription Details shows it. Changing the location reads the
 * restaurant's areas with the first: the meals side reads them through the subscription's row.
 */

// Riyadh (UTC+3), cutoff 24 h: at 2026-03-02T09:00Z the first changeable date is 03-04.
const A = 6271;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

const { fresh, since } = actionsIn(() => ({ m, c }));
const send = (path: string, method: string, body: Record<string, unknown>) =>
  callWaits(path, { method, body, token: c.token, appId: A });

describe("D1 round trips of the subscription actions", () => {
  it("Postpone, Pause, Resume and Cancel each wait for D1 at most twice; the answer is Subscription Details'", async () => {
    const s = await fresh();
    const postponed = await send(`${SUBS}${s.id}/suborders/actions/`, "POST", {
      action: "postpone",
      dates: ["2026-03-04"],
    });
    const body = await json(postponed.res);
    expect(postponed.res.status, JSON.stringify(body)).toBe(200);
    expect(postponed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await datesOf(s.id)).some(([, , , isPostponed]) => isPostponed)).toBe(true);
    expect(await json(await c.as(`${SUBS}${s.id}/`))).toEqual(body);

    const t = await fresh();
    const paused = await send(`${SUBS}${t.id}/suborders/actions/`, "POST", {
      action: "pause",
      from_date: "2026-03-05",
    });
    const pausedBody = await json(paused.res);
    expect(paused.res.status, JSON.stringify(pausedBody)).toBe(200);
    expect(pausedBody).toMatchObject({ id: t.id, status: "paused", paused_from: "2026-03-05" });
    expect(paused.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await c.as(`${SUBS}${t.id}/`))).toEqual(pausedBody);

    const resumed = await send(`${SUBS}${t.id}/suborders/actions/`, "POST", {
      action: "resume",
      resume_date: "2026-03-08",
    });
    const resumedBody = await json(resumed.res);
    expect(resumed.res.status, JSON.stringify(resumedBody)).toBe(200);
    expect(resumedBody).toMatchObject({ id: t.id, status: "active", resume_date: "2026-03-08" });
    expect(resumed.waits.beyondAuth).toBeLessThanOrEqual(2);

    const cancelled = await send(`${SUBS}${t.id}/cancel/`, "POST", {});
    const cancelBody = await json(cancelled.res);
    expect(cancelled.res.status, JSON.stringify(cancelBody)).toBe(200);
    expect(cancelBody).toMatchObject({ id: t.id, status: "cancelled", can_cancel: false });
    expect(cancelled.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await c.as(`${SUBS}${t.id}/`))).toEqual(cancelBody);
    const types = (await since(["meal_subscription.paused", "meal_subscription.cancelled"], [t.id])).map((e) => e.type);
    expect(types).toEqual(["meal_subscription.paused", "meal_subscription.cancelled"]);
  });

  it("Change Location waits for D1 twice: the restaurant's areas are read through the subscription's row", async () => {
    const s = await fresh(3);
    const [home] = await db(A)
      .insert(customerLocations)
      .values({ appId: A, customerId: c.id, latitude: 24.75, longitude: 46.65, address1: "Olaya St", nameEn: "Work" })
      .returning();
    const moved = await send(`${SUBS}${s.id}/location/`, "PATCH", { location_id: home!.id });
    const body = await json(moved.res);
    expect(moved.res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ primary_location_id: home!.id, location: { id: home!.id, address1: "Olaya St" } });
    expect(moved.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await rowsOfSub(s.id)).map((r) => r.location_id)).toEqual([c.location.id, home!.id, home!.id]);
    expect(await json(await c.as(`${SUBS}${s.id}/`))).toEqual(body);
  });
});

describe("D1 round trips of the suborder changes", () => {
  // The rows with their terms (and the location), and the restaurants' windows and areas or the plan
  // days' categories, which the meals side reads through the rows, in one round trip; then the
  // guarded change, whose batch reads a single suborder back.
  it("Change Meals and Change Location of one suborder, and the bulk change, wait for D1 twice", async () => {
    const s = await fresh(3);
    const d = s.suborders[1]!; // 03-04, plan day 2
    const [, lunch] = m.days[1]!.categories;
    const meals = await send(`${SUBORDERS}${d.id}/meals/`, "PATCH", {
      meals: [{ plan_category_id: lunch!.id, option_ids: lunch!.options.slice(0, 1) }],
    });
    const body = await json(meals.res);
    expect(meals.res.status, JSON.stringify(body)).toBe(200);
    expect(body.meals).toContainEqual({ plan_category_id: lunch!.id, option_ids: lunch!.options.slice(0, 1) });
    expect(meals.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await json(await c.as(`${SUBORDERS}${d.id}/`))).toEqual(body);

    const [work] = await db(A)
      .insert(customerLocations)
      .values({ appId: A, customerId: c.id, latitude: 24.75, longitude: 46.65, address1: "Olaya St", nameEn: "Work" })
      .returning();
    const moved = await send(`${SUBORDERS}${d.id}/location/`, "PATCH", { location_id: work!.id });
    const movedBody = await json(moved.res);
    expect(moved.res.status, JSON.stringify(movedBody)).toBe(200);
    expect(movedBody).toMatchObject({ id: d.id, location_id: work!.id });
    expect(moved.waits.beyondAuth).toBeLessThanOrEqual(2);

    const ids = [s.suborders[2]!.id, 999_999];
    const bulk = await send(`${SUBORDERS}bulk/location/`, "POST", { suborder_ids: ids, location_id: work!.id });
    expect(bulk.res.status).toBe(200);
    expect(await json(bulk.res)).toMatchObject({ succeeded_count: 1, failed_count: 1 });
    expect(bulk.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await rowsOfSub(s.id)).map((r) => r.location_id)).toEqual([c.location.id, work!.id, work!.id]);
    const updated = (await eventsOf(A, ["suborder.updated"])).filter((e) => e.data.subscription_id === s.id);
    expect(updated.map((e) => e.data.fields)).toEqual([["meals"], ["location"], ["location"]]);
  });
});
