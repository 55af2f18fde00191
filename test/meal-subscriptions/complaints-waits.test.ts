import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { shardFor } from "../helpers/factories";
import { callWaits, json } from "../helpers/request";
import {
  clockAt,
  customerOf,
  eventsOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  ok,
  subscriptionOf,
} from "./seed";

/**
 * How long a complaint's writes keep the customer and the merchant waiting on D1, counted in round
 * trips one after another beyond the token check (test/helpers/d1-waits.ts), never timed: the
 * suborder (with its restaurant's time zone) or the complaint read at once, then one batch that
 * writes and reads the complaint back; the answer is the complaint as a later read shows it.
 */

const A = 6237;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
});
afterAll(() => setClock(null));

const delivered = (id: number) =>
  shardFor(A).prepare("UPDATE suborders SET status = 'delivered' WHERE id = ?").bind(id).run();

describe("D1 round trips of the complaints' writes", () => {
  it("Complain SubOrder and Update Complaint each wait at most twice and answer the complaint as it is stored", async () => {
    clockAt("2026-03-06T09:00:00Z");
    const s = await subscriptionOf(m, c, { start: "2026-03-03", count: 2 });
    const sub = s.suborders[0]!;
    await delivered(sub.id);

    const made = await callWaits(`/api/v1/suborders/${sub.id}/complaints/`, {
      method: "POST",
      body: { reason: "wrong_meal", description: "Not what I chose" },
      token: c.token,
      appId: A,
    });
    const complaint = await ok(made.res, 201);
    expect(complaint).toMatchObject({
      suborder_id: sub.id,
      status: "open",
      reason: { code: "wrong_meal" },
      description: "Not what I chose",
      suborder: { id: sub.id, date: "2026-03-03", status: "delivered" },
    });
    expect(made.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await ok(await c.as(`/api/v1/complaints/${complaint.id}/`))).toEqual(complaint);

    const member = `/api/v1/meals/complaints/${complaint.id}/`;
    const patch = (body: Record<string, unknown>) =>
      callWaits(member, { method: "PATCH", body, token: m.token, appId: A });
    const reviewed = await patch({ status: "in_review", resolution_note: "Looking into it" });
    const inReview = await ok(reviewed.res);
    expect(inReview).toMatchObject({ id: complaint.id, status: "in_review", resolution_note: "Looking into it" });
    expect(reviewed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await ok(await m.as(member))).toEqual(inReview);

    // A resolution with a credit: the wallet's entry goes in the same batch.
    const resolved = await patch({ status: "resolved", wallet_credit: 15 });
    const done = await ok(resolved.res);
    expect(done).toMatchObject({ id: complaint.id, status: "resolved", wallet_credit: 15, allowed_actions: [] });
    expect(done.resolved_at).not.toBeNull();
    expect(resolved.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(await ok(await m.as(member))).toEqual(done);
    const events = (await eventsOf(A, ["complaint.created", "complaint.updated", "complaint.resolved"])).filter(
      (e) => e.data.id === complaint.id,
    );
    expect(events.map((e) => e.type)).toEqual(["complaint.created", "complaint.updated", "complaint.resolved"]);
  });

  it("a closed window is refused from the first read, before any write", async () => {
    clockAt("2026-03-06T09:00:00Z");
    const s = await subscriptionOf(m, c, { start: "2026-02-20", count: 1 });
    await delivered(s.suborders[0]!.id);
    const late = await callWaits(`/api/v1/suborders/${s.suborders[0]!.id}/complaints/`, {
      method: "POST",
      body: { reason: "late_delivery" },
      token: c.token,
      appId: A,
    });
    expect(late.res.status).toBe(409);
    const sub = s.suborders[0]!;
    const closed = await json(late.res);
    expect(closed).toMatchObject({ code: "complaint_window_closed" });
    expect(closed.last_valid_date > sub.date).toBe(true);
    expect(late.waits.beyondAuth).toBe(1);
  });
});
