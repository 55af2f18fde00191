import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { customerLocations } from "../../src/modules/customers/tables";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { APP_1, db, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { callWaits, problem } from "../helpers/request";
import {
  clockAt,
  customerOf,
  eventsOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  ok,
  rowsOfSub,
  SUBORDERS,
  subscriptionOf,
} from "./seed";

// As in actions.test.ts: at 2026-03-02T09:00Z the first changeable date in Riyadh is 03-04.
const A = 6221;
const B = 6222;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

const fresh = (o: { count?: number; isPickup?: boolean } = {}) =>
  subscriptionOf(m, c, { start: "2026-03-03", count: o.count ?? 3, isPickup: o.isPickup });
const patch = (id: number, what: string, body: unknown, as: MealCustomer = c) =>
  as.as(`${SUBORDERS}${id}/${what}/`, { method: "PATCH", body });
const post = (what: string, body: unknown, as: MealCustomer = c) =>
  as.as(`${SUBORDERS}${what}/`, { method: "POST", body });
const row = async (id: number) =>
  (await shardFor(APP_1).prepare("SELECT * FROM suborders WHERE id = ?").bind(id).first<Record<string, any>>())!;
const updatedEvents = async (ids: number[]) =>
  (await eventsOf(A, ["suborder.updated"])).filter((e) => ids.includes(e.data.id));

async function conflict(res: Response, code: string) {
  expect(res.status).toBe(409);
  const p = await problem(res);
  expect(p.code).toBe(code);
  return p;
}

sharedCustomerAuthCases({ method: "GET", path: SUBORDERS });
sharedCustomerAuthCases({
  method: "POST",
  path: `${SUBORDERS}bulk/location/`,
  body: { suborder_ids: [1], location_id: 1 },
});
sharedCustomerAuthCases({
  method: "PATCH",
  path: `${SUBORDERS}1/meals/`,
  body: { meals: [{ plan_category_id: 1, option_ids: [1] }] },
});

describe("Customer SubOrders and details", () => {
  it("the customer's own, by date, with filters; another customer's is a 404", async () => {
    const c2 = await customerOf(m);
    const s = await subscriptionOf(m, c2, { start: "2026-03-03", count: 4 });
    const page = await ok(await c2.as(SUBORDERS));
    expect(schemaErrors("listMySuborders", page)).toEqual([]);
    expect(page.results.map((r: any) => r.date)).toEqual(s.dates);
    expect(page.results[0]).toMatchObject({
      subscription_id: s.id,
      status: "new",
      is_changeable: false,
      delivery_window: { id: m.windows.morning.id, from_time: "06:00:00" },
      meals: [{ plan_category_id: m.days[0]!.categories[0]!.id, option_ids: [m.days[0]!.categories[0]!.options[0]] }],
    });
    expect(page.results[1].is_changeable).toBe(true);
    const ranged = await ok(
      await c2.as(`${SUBORDERS}?date__gte=2026-03-04&date__lte=2026-03-05&subscription_id=${s.id}`),
    );
    expect(ranged.results.map((r: any) => r.date)).toEqual(["2026-03-04", "2026-03-05"]);
    expect((await ok(await c2.as(`${SUBORDERS}?state=frozen`))).count).toBe(0);
    for (const q of ["state=paused", "state=frozen&state=postponed", "colour=red"]) {
      const bad = await c2.as(`${SUBORDERS}?${q}`);
      expect(bad.status, q).toBe(400);
    }
    expect((await problem(await c2.as(`${SUBORDERS}?state=paused`))).errors).toHaveProperty("state");
    const d = await ok(await c2.as(`${SUBORDERS}${s.suborders[0]!.id}/`));
    expect(schemaErrors("getMySuborder", d)).toEqual([]);
    expect(d.id).toBe(s.suborders[0]!.id);
    const res = await c.as(`${SUBORDERS}${s.suborders[0]!.id}/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("suborder_not_found");
    expect((await ok(await c.as(`${SUBORDERS}?subscription_id=${s.id}`))).count).toBe(0);
  });

  it("reads the page or one suborder, with its terms, window and branch, in one round trip beyond the token check", async () => {
    const c2 = await customerOf(m);
    const s = await subscriptionOf(m, c2, { start: "2026-03-03", count: 2 });
    const list = await callWaits(SUBORDERS, { token: c2.token, appId: A });
    const one = await callWaits(`${SUBORDERS}${s.suborders[1]!.id}/`, { token: c2.token, appId: A });
    const page = await ok(list.res);
    expect(page.results.map((r: { is_changeable: boolean }) => r.is_changeable)).toEqual([false, true]);
    expect(await ok(one.res)).toEqual(page.results[1]);
    expect([list.waits.beyondAuth, one.waits.beyondAuth]).toEqual([1, 1]);
  });
});

describe("Change Meals", () => {
  it("replaces the choices of the categories given and keeps the others; emits suborder.updated", async () => {
    const s = await fresh();
    const d = s.suborders[1]!; // 03-04, plan day 2
    const [breakfast, lunch] = m.days[1]!.categories;
    const body = await ok(
      await patch(d.id, "meals", { meals: [{ plan_category_id: lunch!.id, option_ids: lunch!.options }] }),
    );
    expect(schemaErrors("changeSuborderMeals", body)).toEqual([]);
    expect(body.meals).toEqual([
      { plan_category_id: breakfast!.id, option_ids: [breakfast!.options[0]] },
      { plan_category_id: lunch!.id, option_ids: lunch!.options },
    ]);
    expect(JSON.parse((await row(d.id)).meals)).toEqual(body.meals);
    expect((await updatedEvents([d.id])).map((e) => e.data)).toEqual([
      { id: d.id, subscription_id: s.id, date: "2026-03-04", fields: ["meals"] },
    ]);
  });

  it("choices that do not fit the day are 400s naming each; the cutoff and final statuses are 409s", async () => {
    const s = await fresh();
    const d = s.suborders[1]!;
    const [breakfast, lunch] = m.days[1]!.categories;
    const otherDay = m.days[0]!.categories[0]!;
    const res = await patch(d.id, "meals", {
      meals: [
        { plan_category_id: otherDay.id, option_ids: [otherDay.options[0]] },
        { plan_category_id: breakfast!.id, option_ids: breakfast!.options },
        { plan_category_id: lunch!.id, option_ids: [lunch!.inactive[0]] },
      ],
    });
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.code).toBe("validation_error");
    expect(Object.keys(p.errors!).sort()).toEqual([
      "meals.0.plan_category_id",
      "meals.1.option_ids",
      "meals.2.option_ids",
    ]);
    expect(p.errors!["meals.1.option_ids"]![0]).toContain("At most 1");
    const dup = await patch(d.id, "meals", {
      meals: [
        { plan_category_id: lunch!.id, option_ids: [lunch!.options[0]] },
        { plan_category_id: lunch!.id, option_ids: [lunch!.options[1]] },
      ],
    });
    expect(dup.status).toBe(400);
    const past = await conflict(
      await patch(s.suborders[0]!.id, "meals", {
        meals: [{ plan_category_id: lunch!.id, option_ids: [lunch!.options[0]] }],
      }),
      "suborder_past_cutoff",
    );
    expect(past.first_valid_date).toBe("2026-03-04");
    // A delivered one (the kitchen's and the captain's moves are logistics').
    await shardFor(APP_1)
      .prepare("UPDATE suborders SET status = 'delivered' WHERE id = ?")
      .bind(s.suborders[2]!.id)
      .run();
    const done = await conflict(
      await patch(s.suborders[2]!.id, "meals", {
        meals: [{ plan_category_id: breakfast!.id, option_ids: [breakfast!.options[0]] }],
      }),
      "suborder_not_changeable",
    );
    expect(done.current_status).toBe("delivered");
    expect(await updatedEvents(s.suborders.map((x) => x.id))).toEqual([]);
  });

  it("a plan that skips option selection takes no choices", async () => {
    const m2 = await mealStoreOf(B, { skipOptionSelection: true });
    const c2 = await customerOf(m2);
    const s = await subscriptionOf(m2, c2, { start: "2026-03-04", count: 1 });
    const cat = m2.days[0]!.categories[0]!;
    await conflict(
      await patch(
        s.suborders[0]!.id,
        "meals",
        { meals: [{ plan_category_id: cat.id, option_ids: [cat.options[0]] }] },
        c2,
      ),
      "meal_selection_skipped",
    );
  });
});

describe("Change location and delivery window", () => {
  it("a location the restaurant delivers to; outside its zones, or a pickup suborder, is refused", async () => {
    const s = await fresh();
    const [work, far] = await db(A)
      .insert(customerLocations)
      .values([
        { appId: A, customerId: c.id, latitude: 24.75, longitude: 46.65, address1: "Olaya St", nameEn: "Work" },
        { appId: A, customerId: c.id, latitude: 21.5, longitude: 39.2, address1: "Jeddah", nameEn: "Far" },
      ])
      .returning();
    const d = s.suborders[1]!;
    const body = await ok(await patch(d.id, "location", { location_id: work!.id }));
    expect(body).toMatchObject({ location_id: work!.id, location: { id: work!.id, address1: "Olaya St" } });
    await conflict(await patch(d.id, "location", { location_id: far!.id }), "location_not_served");
    const p = await fresh({ isPickup: true });
    await conflict(await patch(p.suborders[1]!.id, "location", { location_id: work!.id }), "suborder_is_pickup");
    const res = await patch(d.id, "location", { location_id: 999_999 });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("customer_location_not_found");
  });

  it("a window of the suborder's restaurant serving subscriptions; another restaurant's, or an on-demand one, is refused", async () => {
    const s = await fresh();
    const d = s.suborders[1]!;
    const body = await ok(await patch(d.id, "delivery-window", { delivery_window_id: m.windows.evening.id }));
    expect(body.delivery_window).toEqual({ id: m.windows.evening.id, from_time: "18:00:00", to_time: "21:00:00" });
    expect((await row(d.id)).delivery_window_id).toBe(m.windows.evening.id);
    for (const w of [m.windows.other.id, m.windows.onDemand.id, 999_999]) {
      const p = await conflict(
        await patch(d.id, "delivery-window", { delivery_window_id: w }),
        "delivery_window_not_of_restaurant",
      );
      expect(p.delivery_window_ids).toEqual([m.windows.morning.id, m.windows.evening.id]);
    }
    const past = await conflict(
      await patch(s.suborders[0]!.id, "delivery-window", { delivery_window_id: m.windows.evening.id }),
      "suborder_past_cutoff",
    );
    expect(past.first_valid_date).toBe("2026-03-04");
    expect((await updatedEvents([d.id])).map((e) => e.data.fields)).toEqual([["delivery_window"]]);
  });
});

describe("Bulk changes and Pre-Order", () => {
  it("bulk location: one result per id in order; a missing, another customer's or past-cutoff id fails alone", async () => {
    const s = await fresh();
    const stranger = await customerOf(m);
    const theirs = await subscriptionOf(m, stranger, { start: "2026-03-04", count: 1 });
    const [work] = await db(A)
      .insert(customerLocations)
      .values({ appId: A, customerId: c.id, latitude: 24.75, longitude: 46.65, address1: "Olaya St", nameEn: "Work" })
      .returning();
    const ids = [s.suborders[2]!.id, 999_999, theirs.suborders[0]!.id, s.suborders[0]!.id, s.suborders[1]!.id];
    const body = await ok(await post("bulk/location", { suborder_ids: ids, location_id: work!.id }));
    expect(schemaErrors("bulkChangeSuborderLocation", body)).toEqual([]);
    expect(body).toMatchObject({ succeeded_count: 2, failed_count: 3 });
    expect(body.results.map((r: any) => [r.id, r.success, r.error?.code ?? null])).toEqual([
      [ids[0], true, null],
      [ids[1], false, "suborder_not_found"],
      [ids[2], false, "suborder_not_found"],
      [ids[3], false, "suborder_past_cutoff"],
      [ids[4], true, null],
    ]);
    expect(body.results[3].error.first_valid_date).toBe("2026-03-04");
    expect((await rowsOfSub(s.id)).map((r) => r.location_id)).toEqual([c.location.id, work!.id, work!.id]);
    expect((await row(theirs.suborders[0]!.id)).location_id).toBe(stranger.location.id);
    expect((await updatedEvents(ids)).map((e) => e.data.id).sort()).toEqual([ids[0], ids[4]].sort());
  });

  it("bulk window and bulk pickup branch: per id; the body is bounded", async () => {
    const s = await fresh();
    const p = await fresh({ isPickup: true });
    const w = await ok(
      await post("bulk/delivery-window", {
        suborder_ids: [s.suborders[1]!.id, p.suborders[1]!.id],
        delivery_window_id: m.windows.evening.id,
      }),
    );
    expect(w.results.map((r: any) => r.error?.code ?? "ok")).toEqual(["ok", "suborder_is_pickup"]);
    const b = await ok(
      await post("bulk/pickup-branch", {
        suborder_ids: [p.suborders[1]!.id, p.suborders[2]!.id, s.suborders[2]!.id],
        pickup_branch_id: m.branches.pickup2.id,
      }),
    );
    expect(b.results.map((r: any) => r.error?.code ?? "ok")).toEqual(["ok", "ok", "suborder_not_pickup"]);
    expect((await rowsOfSub(p.id)).map((r) => r.pickup_branch_id)).toEqual([
      m.branches.pickup.id,
      m.branches.pickup2.id,
      m.branches.pickup2.id,
    ]);
    const wrong = await ok(
      await post("bulk/pickup-branch", { suborder_ids: [p.suborders[2]!.id], pickup_branch_id: m.branches.other.id }),
    );
    expect(wrong.results[0].error.code).toBe("pickup_branch_not_of_restaurant");
    for (const body of [
      { suborder_ids: Array.from({ length: 101 }, (_, i) => i + 1), pickup_branch_id: 1 },
      { suborder_ids: [1, 1], pickup_branch_id: 1 },
      { suborder_ids: [], pickup_branch_id: 1 },
    ]) {
      const res = await post("bulk/pickup-branch", body);
      expect(res.status).toBe(400);
      expect((await problem(res)).errors).toHaveProperty("suborder_ids");
    }
  });

  it("Pre-Order: the meals of several deliveries at once, each checked against its own day", async () => {
    const s = await fresh();
    const day2 = m.days[1]!.categories[1]!;
    const day1 = m.days[0]!.categories[1]!;
    const body = await ok(
      await post("pre-order", {
        items: [
          { suborder_id: s.suborders[1]!.id, meals: [{ plan_category_id: day2.id, option_ids: [day2.options[1]] }] },
          { suborder_id: s.suborders[2]!.id, meals: [{ plan_category_id: day1.id, option_ids: [day1.options[0]] }] },
          { suborder_id: s.suborders[0]!.id, meals: [{ plan_category_id: day1.id, option_ids: [day1.options[0]] }] },
        ],
      }),
    );
    expect(schemaErrors("preOrderSuborderMeals", body)).toEqual([]);
    expect(body.results.map((r: any) => r.error?.code ?? "ok")).toEqual(["ok", "ok", "suborder_past_cutoff"]);
    const wrongDay = await ok(
      await post("pre-order", {
        items: [
          { suborder_id: s.suborders[1]!.id, meals: [{ plan_category_id: day1.id, option_ids: [day1.options[0]] }] },
        ],
      }),
    );
    expect(wrongDay.results[0]).toMatchObject({ success: false, error: { code: "validation_error" } });
    const rows = await rowsOfSub(s.id);
    expect(JSON.parse(rows[1]!.meals).at(-1)).toEqual({ plan_category_id: day2.id, option_ids: [day2.options[1]] });
    expect(JSON.parse(rows[2]!.meals).at(-1)).toEqual({ plan_category_id: day1.id, option_ids: [day1.options[0]] });
  });
});
