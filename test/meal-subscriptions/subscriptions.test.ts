import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, problem } from "../helpers/request";
import {
  clockAt,
  customerOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  ok,
  SUBORDERS,
  SUBS,
  subscriptionOf,
} from "./seed";

// Stores of this file's own. Riyadh is UTC+3; 2026-03-02 is a Monday, Fridays are off, 03-10 is closed.
const A = 6201;
const B = 6202;
const C = 6203;
let m: MealStore;
let c: MealCustomer;
let sub: Awaited<ReturnType<typeof subscriptionOf>>;

beforeAll(async () => {
  m = await mealStoreOf(A, { closedDates: ["2026-03-10"] });
  c = await customerOf(m);
  sub = await subscriptionOf(m, c, { start: "2026-03-03", count: 6 });
});
afterAll(() => setClock(null));

sharedCustomerAuthCases({ method: "GET", path: SUBS });

describe("List Subscriptions and Subscription Details", () => {
  it("the customer's own, each with its management fields at the cutoff", async () => {
    clockAt("2026-03-02T09:00:00Z"); // noon in Riyadh: changes close for 03-03 at midnight before it, minus 24 h
    const other = await customerOf(m);
    await subscriptionOf(m, other, { start: "2026-03-03", count: 2 });
    const page = await ok(await c.as(SUBS));
    expect(schemaErrors("listMealSubscriptions", page)).toEqual([]);
    expect(page.count).toBe(1);
    expect(page.next).toBeNull();
    const s = page.results[0];
    expect(s).toMatchObject({
      id: sub.id,
      app_id: A,
      status: "active",
      customer_id: c.id,
      restaurant: { id: m.restaurant.id, name_en: "Green Bowl", time_zone: "Asia/Riyadh" },
      plan: { id: m.plan.id, name_en: "Balanced" },
      plan_version: { id: m.version.id, num_of_days: 20 },
      start_date: "2026-03-03",
      end_date: "2026-03-09",
      delivery_window: { id: m.windows.morning.id, from_time: "06:00:00", to_time: "09:00:00" },
      pickup_branch: null,
      // Dates 03-03, 04, 05, (06 is a Friday) 07, 08, 09: 03-03 is within the cutoff.
      min_cancel_date: "2026-03-04",
      max_cancel_date: "2026-03-09",
      min_resume_date: null,
      max_resume_date: null,
      cancel_credits: 0,
      paused_days: 0,
      pause_attempts_credits: 2,
      pause_credits: 10,
      min_of_pause_days: 3,
      cutoff_hours: 24,
      first_changeable_date: "2026-03-04",
      can_change_location: true,
      can_change_meals: true,
      can_change_branch: false,
      can_change_delivery_window: true,
      can_pause: true,
      can_resume: false,
      can_cancel: true,
      suborders_summary: {
        total: 6,
        delivered: 0,
        remaining: 6,
        frozen: 0,
        postponed: 0,
        cancelled: 0,
        next_date: "2026-03-03",
      },
    });
    expect(s).not.toHaveProperty("upcoming_suborders");
  });

  it("filters by status and dates, and pages", async () => {
    clockAt("2026-03-02T09:00:00Z");
    const c2 = await customerOf(m);
    const s1 = await subscriptionOf(m, c2, { start: "2026-03-03", count: 2 });
    const s2 = await subscriptionOf(m, c2, { start: "2026-04-01", count: 2, subscription: { status: "cancelled" } });
    expect((await ok(await c2.as(`${SUBS}?status=cancelled`))).results.map((r: any) => r.id)).toEqual([s2.id]);
    expect((await ok(await c2.as(`${SUBS}?start_date__gte=2026-03-15`))).results.map((r: any) => r.id)).toEqual([
      s2.id,
    ]);
    const first = await ok(await c2.as(`${SUBS}?page_size=1&order_by=start_date`));
    expect(first.count).toBe(2);
    expect(first.results.map((r: any) => r.id)).toEqual([s1.id]);
    expect(first.next).toContain("page=2");
    const bad = await c2.as(`${SUBS}?status=gone`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("status");
  });

  it("details: the next deliveries; another customer's or another store's is a 404", async () => {
    clockAt("2026-03-02T09:00:00Z");
    const d = await ok(await c.as(`${SUBS}${sub.id}/`));
    expect(schemaErrors("getMealSubscription", d)).toEqual([]);
    expect(d.upcoming_suborders.map((u: any) => u.date)).toEqual(sub.dates);
    expect(d.upcoming_suborders[0]).toEqual({
      id: sub.suborders[0]!.id,
      date: "2026-03-03",
      status: "new",
      is_frozen: false,
      is_postponed: false,
    });
    const stranger = await customerOf(m);
    const res = await stranger.as(`${SUBS}${sub.id}/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("meal_subscription_not_found");
    const m2 = await mealStoreOf(B);
    const c2 = await customerOf(m2);
    const other = await c2.as(`${SUBS}${sub.id}/`);
    expect(other.status).toBe(404);
    // A token of store A sent with store B's app-id is refused before any read.
    const wrong = await call(`${SUBS}${sub.id}/`, { token: c.token, appId: B });
    expect(wrong.status).toBe(403);
  });

  it("reads the page or one subscription, with everything its view needs, in one round trip beyond the token check", async () => {
    clockAt("2026-03-02T09:00:00Z");
    const list = await callWaits(SUBS, { token: c.token, appId: A });
    const one = await callWaits(`${SUBS}${sub.id}/`, { token: c.token, appId: A });
    const { upcoming_suborders: upcoming, ...details } = await ok(one.res);
    expect((await ok(list.res)).results).toEqual([details]);
    expect(upcoming.map((u: { id: number }) => u.id)).toEqual(sub.suborders.map((x: { id: number }) => x.id));
    expect([list.waits.beyondAuth, one.waits.beyondAuth]).toEqual([1, 1]);
  });

  it("flags: pickup changes the branch, not the location; a plan that skips selection allows no meals; a final status none", async () => {
    clockAt("2026-03-02T09:00:00Z");
    const p = await subscriptionOf(m, c, { start: "2026-03-04", count: 2, isPickup: true });
    const pv = await ok(await c.as(`${SUBS}${p.id}/`));
    expect(pv).toMatchObject({
      is_pickup: true,
      pickup_branch: { id: m.branches.pickup.id, name_en: "Olaya" },
      delivery_window: null,
      can_change_location: false,
      can_change_delivery_window: false,
      can_change_branch: true,
      can_change_meals: true,
    });
    const done = await subscriptionOf(m, c, { start: "2026-03-04", count: 2, subscription: { status: "completed" } });
    const dv = await ok(await c.as(`${SUBS}${done.id}/`));
    expect(dv).toMatchObject({
      min_cancel_date: null,
      max_cancel_date: null,
      can_change_location: false,
      can_change_meals: false,
      can_pause: false,
      can_cancel: false,
    });
    const m3 = await mealStoreOf(C, { skipOptionSelection: true, numOfPauseAttempts: null, pauseCredits: null });
    const c3 = await customerOf(m3);
    const s3 = await subscriptionOf(m3, c3, { start: "2026-03-04", count: 2 });
    const v3 = await ok(await c3.as(`${SUBS}${s3.id}/`));
    expect(v3).toMatchObject({
      can_change_meals: false,
      can_change_location: true,
      pause_attempts_credits: 0,
      pause_credits: 0,
      can_pause: false,
    });
  });
});

describe("The cutoff, in the restaurant's time zone", () => {
  it("a delivery can be changed until exactly cutoff_hours before its day starts there", async () => {
    const d = sub.suborders[1]!; // 2026-03-04
    const body = {
      meals: [{ plan_category_id: m.days[1]!.categories[1]!.id, option_ids: [m.days[1]!.categories[1]!.options[0]!] }],
    };
    // 2026-03-02T20:59:59.999Z is 23:59:59.999 on 03-02 in Riyadh: 24 h before 03-04 starts, less a millisecond.
    clockAt("2026-03-02T20:59:59.999Z");
    await ok(await c.as(`${SUBORDERS}${d.id}/meals/`, { method: "PATCH", body }));
    clockAt("2026-03-02T21:00:00.000Z");
    const res = await c.as(`${SUBORDERS}${d.id}/meals/`, { method: "PATCH", body });
    expect(res.status).toBe(409);
    const p = await problem(res);
    expect(p).toMatchObject({ code: "suborder_past_cutoff", first_valid_date: "2026-03-05", cutoff_hours: 24 });
    expect(p.detail).toContain("2026-03-05");
    const v = await ok(await c.as(`${SUBS}${sub.id}/`));
    expect(v.first_changeable_date).toBe("2026-03-05");
    expect(v.min_cancel_date).toBe("2026-03-05");
  });

  it("another zone and a 48-hour cutoff: the first changeable date skips off days and closed dates", async () => {
    const m4 = await mealStoreOf(6204, {
      timeZone: "America/New_York",
      cutoffHours: 48,
      offDays: ["saturday"],
      closedDates: ["2026-03-09"],
    });
    const c4 = await customerOf(m4);
    const s4 = await subscriptionOf(m4, c4, { start: "2026-03-05", count: 4 });
    // 2026-03-05T04:00Z is 23:00 on 03-04 in New York: + 48 h falls on 03-06, so 03-07 is first; a Saturday (off),
    // so 03-08 is the first delivery date that can be changed.
    clockAt("2026-03-05T04:00:00Z");
    const v = await ok(await c4.as(`${SUBS}${s4.id}/`));
    expect(s4.dates).toEqual(["2026-03-05", "2026-03-06", "2026-03-08", "2026-03-10"]);
    expect(v).toMatchObject({ first_changeable_date: "2026-03-08", min_cancel_date: "2026-03-08", cutoff_hours: 48 });
    // An hour later it is 03-05 there: + 48 h falls on 03-07, and 03-08 is still the first.
    clockAt("2026-03-05T05:00:00Z");
    expect((await ok(await c4.as(`${SUBS}${s4.id}/`))).first_changeable_date).toBe("2026-03-08");
  });

  it("the merchant sets the restaurant's cutoff_hours, and the rules follow it", async () => {
    clockAt("2026-03-02T09:00:00Z");
    const res = await m.as(`/order/v1/merchant/meals/restaurants/${m.restaurant.id}/`, {
      method: "PATCH",
      body: { cutoff_hours: 48 },
    });
    expect((await ok(res)).cutoff_hours).toBe(48);
    const bad = await m.as(`/order/v1/merchant/meals/restaurants/${m.restaurant.id}/`, {
      method: "PATCH",
      body: { cutoff_hours: 169 },
    });
    expect(bad.status).toBe(400);
    // Noon of 03-02 + 48 h falls on 03-04: 03-05 is the first changeable date.
    const v = await ok(await c.as(`${SUBS}${sub.id}/`));
    expect(v).toMatchObject({ cutoff_hours: 48, first_changeable_date: "2026-03-05", min_cancel_date: "2026-03-05" });
    await ok(
      await m.as(`/order/v1/merchant/meals/restaurants/${m.restaurant.id}/`, {
        method: "PATCH",
        body: { cutoff_hours: 24 },
      }),
    );
  });
});
