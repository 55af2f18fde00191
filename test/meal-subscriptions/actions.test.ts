import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
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
  SUBS,
  subRow,
  subscriptionOf,
} from "./seed";

// Riyadh (UTC+3), cutoff 24 h. At 2026-03-02T09:00Z (noon, a Monday) the first changeable date is 03-04.
// Fridays (03-06, 03-13) are off and 03-10 is closed. Pause rules: 2 attempts, 10 days, at least 3 days.
const A = 6211;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A, { closedDates: ["2026-03-10"] });
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

const { fresh, act, since } = actionsIn(() => ({ m, c }));

sharedCustomerAuthCases({
  method: "POST",
  path: `${SUBS}1/suborders/actions/`,
  body: { action: "resume", resume_date: "2026-03-08" },
});

describe("Postpone", () => {
  it("moves the deliveries to the next free delivery dates after the last, skipping off days and closed dates", async () => {
    const s = await fresh();
    const body = await ok(await act(s.id, { action: "postpone", dates: ["2026-03-07", "2026-03-04"] }));
    expect(schemaErrors("mealSuborderActions", body)).toEqual([]);
    expect(body.end_date).toBe("2026-03-12");
    expect(await datesOf(s.id)).toEqual([
      ["2026-03-03", "new", 0, 0],
      ["2026-03-11", "new", 0, 1],
      ["2026-03-05", "new", 0, 0],
      ["2026-03-12", "new", 0, 1],
      ["2026-03-08", "new", 0, 0],
      ["2026-03-09", "new", 0, 0],
    ]);
    expect((await subRow(s.id)).end_date).toBe("2026-03-12");
    const events = await since(["suborder.updated", "meal_subscription.updated"], [s.id]);
    expect(events).toEqual([
      {
        type: "suborder.updated",
        data: { id: s.suborders[1]!.id, subscription_id: s.id, date: "2026-03-11", fields: ["date", "is_postponed"] },
      },
      {
        type: "suborder.updated",
        data: { id: s.suborders[3]!.id, subscription_id: s.id, date: "2026-03-12", fields: ["date", "is_postponed"] },
      },
      {
        type: "meal_subscription.updated",
        data: { id: s.id, status: "active", channel_app_id: null, fields: ["end_date"] },
      },
    ]);
    const listed = await ok(await c.as(`/api/v1/suborders/?subscription_id=${s.id}&state=postponed`));
    expect(listed.results.map((r: any) => r.date)).toEqual(["2026-03-11", "2026-03-12"]);
  });

  it("a date within the cutoff names the first valid date; a date without a delivery names it", async () => {
    const s = await fresh();
    const p = await conflict(await act(s.id, { action: "postpone", dates: ["2026-03-03"] }), "suborder_past_cutoff");
    expect(p.first_valid_date).toBe("2026-03-04");
    const q = await conflict(
      await act(s.id, { action: "postpone", dates: ["2026-03-06", "2026-03-08"] }),
      "no_delivery_on_date",
    );
    expect(q.dates).toEqual(["2026-03-06"]);
    expect(await datesOf(s.id)).toEqual(s.dates.map((d) => [d, "new", 0, 0]));
  });

  it("bad bodies are 400s naming the field", async () => {
    const s = await fresh(2);
    for (const [body, field] of [
      [{ action: "postpone", dates: [] }, "dates"],
      [{ action: "postpone", dates: ["2026-02-30"] }, "dates.0"],
      [{ action: "postpone", dates: ["2026-03-04", "2026-03-04"] }, "dates"],
      [{ action: "pause" }, "from_date"],
      [{ action: "pause", from_date: "2026-03-08", to_date: "2026-03-05" }, "to_date"],
      [{ action: "skip" }, "action"],
    ] as const) {
      const res = await act(s.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await problem(res)).errors, JSON.stringify(body)).toHaveProperty([field]);
    }
  });
});

describe("Pause and resume", () => {
  it("an open pause freezes the deliveries from its first day, uses an attempt, and sets the resume bounds", async () => {
    const s = await fresh();
    const body = await ok(await act(s.id, { action: "pause", from_date: "2026-03-05" }));
    expect(body).toMatchObject({
      status: "paused",
      paused_from: "2026-03-05",
      pause_attempts_credits: 1,
      pause_credits: 10,
      // 03-05 + 3 days at least; 03-05 + 10 days of credit at most.
      min_resume_date: "2026-03-08",
      max_resume_date: "2026-03-15",
      can_resume: true,
      can_pause: false,
      min_cancel_date: "2026-03-04",
      max_cancel_date: "2026-03-04",
      suborders_summary: { frozen: 4, remaining: 6 },
    });
    expect(await datesOf(s.id)).toEqual([
      ["2026-03-03", "new", 0, 0],
      ["2026-03-04", "new", 0, 0],
      ["2026-03-05", "new", 1, 0],
      ["2026-03-07", "new", 1, 0],
      ["2026-03-08", "new", 1, 0],
      ["2026-03-09", "new", 1, 0],
    ]);
    const events = await since(["meal_subscription.paused", "suborder.updated"], [s.id]);
    expect(events[0]).toEqual({
      type: "meal_subscription.paused",
      data: {
        id: s.id,
        status: "paused",
        channel_app_id: null,
        from_date: "2026-03-05",
        to_date: null,
        frozen_count: 4,
      },
    });
    expect(events.slice(1).map((e) => [e.data.id, e.data.fields])).toEqual(
      s.suborders.slice(2).map((d) => [d.id, ["is_frozen"]]),
    );
    const frozen = await ok(await c.as(`/api/v1/suborders/?subscription_id=${s.id}&state=frozen`));
    expect(frozen.count).toBe(4);

    // Paused again: not a move a paused subscription has.
    const again = await conflict(
      await act(s.id, { action: "pause", from_date: "2026-03-08" }),
      "invalid_state_transition",
    );
    expect(again).toMatchObject({ current_status: "paused", allowed_actions: ["resume", "cancel"] });
    await conflict(await act(s.id, { action: "postpone", dates: ["2026-03-04"] }), "invalid_state_transition");
  });

  it("resume within min..max: the frozen deliveries take the free delivery dates from the resume date", async () => {
    const s = await fresh();
    await ok(await act(s.id, { action: "pause", from_date: "2026-03-05" }));
    const early = await conflict(
      await act(s.id, { action: "resume", resume_date: "2026-03-07" }),
      "resume_date_out_of_range",
    );
    expect(early).toMatchObject({ first_valid_date: "2026-03-08", last_valid_date: "2026-03-15" });
    const late = await conflict(
      await act(s.id, { action: "resume", resume_date: "2026-03-16" }),
      "resume_date_out_of_range",
    );
    expect(late.last_valid_date).toBe("2026-03-15");

    const body = await ok(await act(s.id, { action: "resume", resume_date: "2026-03-08" }));
    expect(body).toMatchObject({
      status: "active",
      resume_date: "2026-03-08",
      paused_days: 3,
      pause_credits: 7,
      pause_attempts_credits: 1,
      end_date: "2026-03-12",
      min_resume_date: null,
      can_pause: true,
    });
    expect(await datesOf(s.id)).toEqual([
      ["2026-03-03", "new", 0, 0],
      ["2026-03-04", "new", 0, 0],
      ["2026-03-08", "new", 0, 0],
      ["2026-03-09", "new", 0, 0],
      ["2026-03-11", "new", 0, 0],
      ["2026-03-12", "new", 0, 0],
    ]);
    const [resumed] = await since(["meal_subscription.resumed"], [s.id]);
    expect(resumed!.data).toEqual({
      id: s.id,
      status: "active",
      channel_app_id: null,
      resume_date: "2026-03-08",
      paused_days: 3,
      end_date: "2026-03-12",
    });
    await conflict(await act(s.id, { action: "resume", resume_date: "2026-03-20" }), "invalid_state_transition");
  });

  it("attempts run out; a pause within the cutoff names the first date; a pause with nothing after it is refused", async () => {
    const s = await fresh();
    const past = await conflict(await act(s.id, { action: "pause", from_date: "2026-03-03" }), "suborder_past_cutoff");
    expect(past.first_valid_date).toBe("2026-03-04");
    const none = await conflict(await act(s.id, { action: "pause", from_date: "2026-03-20" }), "no_open_deliveries");
    expect(none.first_valid_date).toBe("2026-03-04");
    for (const resume of ["2026-03-08", "2026-03-15"]) {
      await ok(await act(s.id, { action: "pause", from_date: resume === "2026-03-08" ? "2026-03-05" : "2026-03-09" }));
      await ok(await act(s.id, { action: "resume", resume_date: resume }));
    }
    const row = await subRow(s.id);
    expect([row.pause_attempts_credits, row.paused_days]).toEqual([0, 9]);
    const out = await conflict(
      await act(s.id, { action: "pause", from_date: "2026-03-16" }),
      "pause_attempts_exhausted",
    );
    expect(out.pause_attempts_credits).toBe(0);
  });

  it("days of pausing fewer than a pause's minimum are refused", async () => {
    const s = await subscriptionOf(m, c, { start: "2026-03-03", count: 4, subscription: { pauseCredits: 2 } });
    const p = await conflict(await act(s.id, { action: "pause", from_date: "2026-03-05" }), "pause_credits_exhausted");
    expect(p).toMatchObject({ pause_credits: 2, min_of_pause_days: 3 });
    expect((await ok(await c.as(`${SUBS}${s.id}/`))).can_pause).toBe(false);
  });

  it("a bounded pause: at least min_of_pause_days, at most the credits; its deliveries move after it at once", async () => {
    const s = await fresh();
    const short = await conflict(
      await act(s.id, { action: "pause", from_date: "2026-03-05", to_date: "2026-03-06" }),
      "pause_too_short",
    );
    expect(short.first_valid_date).toBe("2026-03-07");
    const long = await conflict(
      await act(s.id, { action: "pause", from_date: "2026-03-05", to_date: "2026-03-15" }),
      "pause_too_long",
    );
    expect(long.last_valid_date).toBe("2026-03-14");
    const body = await ok(await act(s.id, { action: "pause", from_date: "2026-03-05", to_date: "2026-03-08" }));
    expect(body).toMatchObject({
      status: "active",
      paused_from: "2026-03-05",
      resume_date: "2026-03-09",
      paused_days: 4,
      pause_credits: 6,
      pause_attempts_credits: 1,
      end_date: "2026-03-14",
    });
    expect(await datesOf(s.id)).toEqual([
      ["2026-03-03", "new", 0, 0],
      ["2026-03-04", "new", 0, 0],
      ["2026-03-11", "new", 0, 0],
      ["2026-03-12", "new", 0, 0],
      ["2026-03-14", "new", 0, 0],
      ["2026-03-09", "new", 0, 0],
    ]);
    const events = await since(["meal_subscription.paused", "meal_subscription.resumed"], [s.id]);
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ["meal_subscription.paused", "paused"],
      ["meal_subscription.resumed", "active"],
    ]);
    expect(events[0]!.data).toMatchObject({ to_date: "2026-03-08", frozen_count: 3 });
  });
});
