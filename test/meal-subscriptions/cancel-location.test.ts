import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { customerLocations } from "../../src/modules/customers/tables";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { problem } from "../helpers/request";
import { actionsIn, conflict, datesOf } from "./actions-fixtures";
import {
  clockAt,
  customerOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  ok,
  rowsOfSub,
  SUBS,
  subRow,
  subscriptionOf,
} from "./seed";

// Riyadh (UTC+3), cutoff 24 h. At 2026-03-02T09:00Z (noon, a Monday) the first changeable date is 03-04.
// Fridays (03-06, 03-13) are off and 03-10 is closed. Pause rules: 2 attempts, 10 days, at least 3 days.
// A store of this file's own (actions.test.ts has 6211).
const A = 6212;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A, { closedDates: ["2026-03-10"] });
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

const { fresh, act, since } = actionsIn(() => ({ m, c }));

sharedCustomerAuthCases({ method: "POST", path: `${SUBS}1/cancel/`, body: {} });
sharedCustomerAuthCases({ method: "PATCH", path: `${SUBS}1/location/`, body: { location_id: 1 } });

describe("Cancel", () => {
  it("from the first changeable delivery by default: those after become cancel credits", async () => {
    const s = await fresh();
    const body = await ok(await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: { reason: "Moving" } }));
    expect(schemaErrors("cancelMealSubscription", body)).toEqual([]);
    expect(body).toMatchObject({
      status: "cancelled",
      cancel_credits: 5,
      min_cancel_date: null,
      can_cancel: false,
      can_change_meals: false,
    });
    expect(body.cancelled_at).toBe("2026-03-02T09:00:00.000Z");
    expect((await datesOf(s.id)).map((d) => d[1])).toEqual([
      "new",
      "cancelled_by_customer",
      "cancelled_by_customer",
      "cancelled_by_customer",
      "cancelled_by_customer",
      "cancelled_by_customer",
    ]);
    const events = await since(["suborder.status_changed", "meal_subscription.cancelled"], [s.id]);
    expect(events).toHaveLength(6);
    expect(events[0]).toEqual({
      type: "suborder.status_changed",
      data: {
        id: s.suborders[1]!.id,
        subscription_id: s.id,
        date: "2026-03-04",
        from: "new",
        to: "cancelled_by_customer",
      },
    });
    expect(events[5]).toEqual({
      type: "meal_subscription.cancelled",
      data: {
        id: s.id,
        status: "cancelled",
        channel_app_id: null,
        from_date: "2026-03-04",
        cancelled_count: 5,
        cancel_credits: 5,
      },
    });
    const again = await conflict(
      await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: {} }),
      "invalid_state_transition",
    );
    expect(again.current_status).toBe("cancelled");
  });

  it("from a given date within min..max; outside is refused with both bounds", async () => {
    const s = await fresh();
    const early = await conflict(
      await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: { from_date: "2026-03-03" } }),
      "cancel_date_out_of_range",
    );
    expect(early).toMatchObject({ first_valid_date: "2026-03-04", last_valid_date: "2026-03-09" });
    await conflict(
      await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: { from_date: "2026-03-10" } }),
      "cancel_date_out_of_range",
    );
    const body = await ok(await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: { from_date: "2026-03-08" } }));
    expect(body.cancel_credits).toBe(2);
    expect((await datesOf(s.id)).filter((d) => d[1] === "cancelled_by_customer").map((d) => d[0])).toEqual([
      "2026-03-08",
      "2026-03-09",
    ]);
  });

  it("a paused subscription's frozen deliveries are cancelled too; nothing after the cutoff: nothing to cancel", async () => {
    const s = await fresh();
    await ok(await act(s.id, { action: "pause", from_date: "2026-03-05" }));
    const body = await ok(await c.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: {} }));
    expect(body.cancel_credits).toBe(5);
    expect((await rowsOfSub(s.id)).filter((r) => r.is_frozen)).toEqual([]);
    const tiny = await fresh(1);
    const p = await conflict(
      await c.as(`${SUBS}${tiny.id}/cancel/`, { method: "POST", body: {} }),
      "no_open_deliveries",
    );
    expect(p.first_valid_date).toBeNull();
  });

  it("another customer's subscription is a 404, and is left as it was", async () => {
    const s = await fresh(3);
    const stranger = await customerOf(m);
    const res = await stranger.as(`${SUBS}${s.id}/cancel/`, { method: "POST", body: {} });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("meal_subscription_not_found");
    expect((await act(s.id, { action: "pause", from_date: "2026-03-04" }, stranger)).status).toBe(404);
    expect((await subRow(s.id)).status).toBe("active");
  });
});

describe("Change Subscription Location", () => {
  it("every changeable delivery and the subscription move to the location; the cutoff's are kept", async () => {
    const s = await fresh(3);
    const [home] = await db(A)
      .insert(customerLocations)
      .values({ appId: A, customerId: c.id, latitude: 24.75, longitude: 46.65, address1: "Olaya St", nameEn: "Work" })
      .returning();
    const body = await ok(await c.as(`${SUBS}${s.id}/location/`, { method: "PATCH", body: { location_id: home!.id } }));
    expect(body).toMatchObject({ primary_location_id: home!.id, location: { id: home!.id, address1: "Olaya St" } });
    const rows = await rowsOfSub(s.id);
    expect(rows.map((r) => r.location_id)).toEqual([c.location.id, home!.id, home!.id]);
    const events = await since(["suborder.updated", "meal_subscription.updated"], [s.id]);
    expect(events.map((e) => e.type)).toEqual(["suborder.updated", "suborder.updated", "meal_subscription.updated"]);
    expect(events[2]!.data.fields).toEqual(["location"]);
  });

  it("outside the restaurant's zones, another customer's location, or a pickup subscription are refused", async () => {
    const s = await fresh(3);
    const [far] = await db(A)
      .insert(customerLocations)
      .values({ appId: A, customerId: c.id, latitude: 21.5, longitude: 39.2, address1: "Jeddah", nameEn: "Far" })
      .returning();
    await conflict(
      await c.as(`${SUBS}${s.id}/location/`, { method: "PATCH", body: { location_id: far!.id } }),
      "location_not_served",
    );
    const stranger = await customerOf(m);
    const res = await c.as(`${SUBS}${s.id}/location/`, {
      method: "PATCH",
      body: { location_id: stranger.location.id },
    });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("customer_location_not_found");
    const p = await subscriptionOf(m, c, { start: "2026-03-04", count: 2, isPickup: true });
    await conflict(
      await c.as(`${SUBS}${p.id}/location/`, { method: "PATCH", body: { location_id: c.location.id } }),
      "suborder_is_pickup",
    );
    expect((await rowsOfSub(s.id)).map((r) => r.location_id)).toEqual([c.location.id, c.location.id, c.location.id]);
  });
});
