import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { APP_1, shardFor } from "../helpers/factories";
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
  subscriptionOf,
} from "./seed";

// Riyadh (UTC+3). Complaints are taken until 3 days after the delivery date there.
const A = 6231;
const B = 6232;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-06T09:00:00Z"));
afterAll(() => setClock(null));

const M_COMPLAINTS = "/api/v1/meals/complaints/";
const setStatus = (id: number, status: string) =>
  shardFor(APP_1).prepare("UPDATE suborders SET status = ? WHERE id = ?").bind(status, id).run();
/** A subscription of `who` delivered on 03-03 and 03-04 (the first delivered, the second not received). */
async function delivered(who: MealCustomer = c) {
  const s = await subscriptionOf(m, who, { start: "2026-03-03", count: 3 });
  await setStatus(s.suborders[0]!.id, "delivered");
  await setStatus(s.suborders[1]!.id, "not_received_by_customer");
  return s;
}
const complain = (suborderId: number, body: unknown, who: MealCustomer = c) =>
  who.as(`/api/v1/suborders/${suborderId}/complaints/`, { method: "POST", body });
const move = (id: number, body: unknown, as = m) => as.as(`${M_COMPLAINTS}${id}/`, { method: "PATCH", body });

sharedCustomerAuthCases({ method: "GET", path: "/api/v1/complaints/reasons/" });
sharedCustomerAuthCases({ method: "POST", path: "/api/v1/suborders/1/complaints/", body: { reason: "late_delivery" } });
sharedAuthCases({ method: "GET", path: M_COMPLAINTS, permission: "can_read_order" });
sharedAuthCases({
  method: "PATCH",
  path: `${M_COMPLAINTS}1/`,
  permission: "can_write_order",
  body: { status: "in_review" },
});

describe("List Complaint Reasons", () => {
  it("a fixed list of codes with their names, paged", async () => {
    const page = await ok(await c.as("/api/v1/complaints/reasons/"));
    expect(schemaErrors("listComplaintReasons", page)).toEqual([]);
    expect(page.count).toBe(10);
    expect(page.results[0]).toEqual({
      code: "not_delivered",
      name_en: "The meal was not delivered",
      name_ar: "لم تصل الوجبة",
    });
    const second = await ok(await c.as("/api/v1/complaints/reasons/?page=2&page_size=4"));
    expect(second.results.map((r: any) => r.code)).toEqual([
      "food_quality",
      "temperature",
      "damaged_packaging",
      "allergen",
    ]);
    expect(second.previous).toContain("page=1");
    for (const q of ["page=4&page_size=4", "page_size=101", "page=0"]) {
      const res = await c.as(`/api/v1/complaints/reasons/?${q}`);
      expect(res.status, q).toBe(400);
    }
    // As every list: an unknown parameter is refused, naming the allowed ones (it was ignored).
    const unknown = await problem(await c.as("/api/v1/complaints/reasons/?colour=red&page=1"));
    expect(unknown.status).toBe(400);
    expect(unknown.errors).toEqual({ colour: ["Unknown query parameter. Allowed: page, page_size."] });
  });
});

describe("Complain SubOrder and Complaint Details", () => {
  it("a delivered suborder: open, with the reason's names; details; complaint.created", async () => {
    const s = await delivered();
    const d = s.suborders[0]!;
    const res = await complain(d.id, {
      reason: "wrong_meal",
      description: "Got chicken instead of fish",
      images: ["https://cdn.example.com/1.jpg"],
    });
    const body = await ok(res, 201);
    expect(schemaErrors("complainSuborder", body, "201")).toEqual([]);
    expect(body).toMatchObject({
      app_id: A,
      suborder_id: d.id,
      subscription_id: s.id,
      customer_id: c.id,
      reason: { code: "wrong_meal", name_en: "Wrong meal" },
      status: "open",
      allowed_actions: ["in_review"],
      wallet_credit: null,
      suborder: { id: d.id, date: "2026-03-03", status: "delivered" },
    });
    // The details, and the merchant's list, read the complaint and its suborder in one round trip.
    const one = await callWaits(`/api/v1/complaints/${body.id}/`, { token: c.token, appId: A });
    expect(await ok(one.res)).toEqual(body);
    const list = await callWaits(`${M_COMPLAINTS}?suborder_id=${d.id}`, { token: m.token, appId: A });
    expect((await ok(list.res)).results).toEqual([body]);
    expect([one.waits.beyondAuth, list.waits.beyondAuth]).toEqual([1, 1]);
    const [created] = (await eventsOf(A, ["complaint.created"])).filter((e) => e.data.id === body.id);
    expect(created!.data).toEqual({ id: body.id, suborder_id: d.id, status: "open", reason: "wrong_meal" });
    // One complaint a suborder.
    const again = await complain(d.id, { reason: "late_delivery" });
    expect(again.status).toBe(409);
    expect(await problem(again)).toMatchObject({ code: "complaint_exists", complaint_id: body.id });
    // Another customer's complaint, and another store's, are 404s.
    const stranger = await customerOf(m);
    const hidden = await stranger.as(`/api/v1/complaints/${body.id}/`);
    expect(hidden.status).toBe(404);
    expect((await problem(hidden)).code).toBe("complaint_not_found");
    const m2 = await mealStoreOf(B);
    expect((await m2.as(`${M_COMPLAINTS}${body.id}/`)).status).toBe(404);
  });

  it("only delivered or not received suborders, until 3 days after their date in the restaurant's calendar", async () => {
    const s = await delivered();
    const open = await complain(s.suborders[2]!.id, { reason: "late_delivery" });
    expect(open.status).toBe(409);
    expect(await problem(open)).toMatchObject({ code: "complaint_not_allowed", current_status: "new" });
    // 03-04 + 3 days: 03-07 is the last. 2026-03-07T20:59:59Z is 23:59:59 on 03-07 in Riyadh.
    clockAt("2026-03-07T21:00:00Z");
    const late = await complain(s.suborders[1]!.id, { reason: "not_delivered" });
    expect(late.status).toBe(409);
    expect(await problem(late)).toMatchObject({ code: "complaint_window_closed", last_valid_date: "2026-03-07" });
    clockAt("2026-03-07T20:59:59Z");
    await ok(await complain(s.suborders[1]!.id, { reason: "not_delivered" }), 201);
    const stranger = await customerOf(m);
    const theirs = await complain(s.suborders[0]!.id, { reason: "late_delivery" }, stranger);
    expect(theirs.status).toBe(404);
    expect((await problem(theirs)).code).toBe("suborder_not_found");
  });

  it("bad bodies are 400s naming the field", async () => {
    const s = await delivered();
    for (const [body, field] of [
      [{ reason: "bad_mood" }, "reason"],
      [{ reason: "other" }, "description"],
      [{ reason: "late_delivery", images: ["http://cdn.example.com/1.jpg"] }, "images.0"],
      [{ reason: "late_delivery", colour: "red" }, "colour"],
    ] as const) {
      const res = await complain(s.suborders[0]!.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await problem(res)).errors).toHaveProperty([field]);
    }
  });
});

describe("The store's side: review, resolve (with wallet credit) or reject", () => {
  it("open → in_review → resolved with wallet credit: the ledger entry and the events in the same write", async () => {
    const s = await delivered();
    const complaint = await ok(await complain(s.suborders[0]!.id, { reason: "food_quality" }), 201);
    const list = await ok(await m.as(`${M_COMPLAINTS}?status=open`));
    expect(schemaErrors("listMealComplaints", list)).toEqual([]);
    expect(list.results.map((r: any) => r.id)).toContain(complaint.id);
    // open cannot be resolved at once.
    const skip = await move(complaint.id, { status: "resolved", wallet_credit: 15.5 });
    expect(skip.status).toBe(409);
    expect(await problem(skip)).toMatchObject({
      code: "invalid_state_transition",
      current_status: "open",
      allowed_actions: ["in_review"],
    });
    const review = await ok(
      await move(complaint.id, { status: "in_review", resolution_note: "Checking with the kitchen" }),
    );
    expect(review).toMatchObject({ status: "in_review", allowed_actions: ["resolved", "rejected"], resolved_at: null });
    const bad = await move(complaint.id, { status: "rejected", wallet_credit: 5 });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("wallet_credit");
    const done = await ok(
      await move(complaint.id, { status: "resolved", wallet_credit: 15.5, resolution_note: "Sorry!" }),
    );
    expect(schemaErrors("updateMealComplaint", done)).toEqual([]);
    expect(done).toMatchObject({
      status: "resolved",
      wallet_credit: 15.5,
      resolution_note: "Sorry!",
      allowed_actions: [],
    });
    expect(done.resolved_at).toBe("2026-03-06T09:00:00.000Z");
    const entry = await shardFor(A)
      .prepare("SELECT * FROM wallet_entries WHERE app_id = ? AND customer_id = ? AND reference = ?")
      .bind(A, c.id, `complaint:${complaint.id}`)
      .first<Record<string, any>>();
    expect(entry).toMatchObject({ kind: "cashback", type: "deposit", amount: 1550, order_id: 0 });
    const events = await eventsOf(A, ["complaint.updated", "complaint.resolved", "customer.wallet.updated"]);
    const mine = events.filter((e) => e.data.id === complaint.id || e.data.entry_id === entry!.id);
    expect(mine.map((e) => e.type)).toEqual(["complaint.updated", "complaint.resolved", "customer.wallet.updated"]);
    expect(mine[1]!.data).toEqual({
      id: complaint.id,
      suborder_id: s.suborders[0]!.id,
      status: "resolved",
      reason: "food_quality",
      wallet_credit: 15.5,
    });
    expect(mine[2]!.data).toMatchObject({ customer_id: c.id, kind: "cashback", type: "deposit", amount: 15.5 });
    // Final: no move, no second credit.
    const again = await move(complaint.id, { status: "rejected" });
    expect(again.status).toBe(409);
    expect((await problem(again)).current_status).toBe("resolved");
    const read = await ok(await c.as(`/api/v1/complaints/${complaint.id}/`));
    expect(read).toMatchObject({ status: "resolved", wallet_credit: 15.5, resolution_note: "Sorry!" });
  });

  it("rejected without credit; another store's complaint is a 404 to the merchant", async () => {
    const s = await delivered();
    const complaint = await ok(await complain(s.suborders[1]!.id, { reason: "not_delivered" }), 201);
    await ok(await move(complaint.id, { status: "in_review" }));
    const body = await ok(
      await move(complaint.id, { status: "rejected", resolution_note: "Delivered, photo attached" }),
    );
    expect(body).toMatchObject({ status: "rejected", wallet_credit: null });
    const m2 = await mealStoreOf(6233);
    const res = await move(complaint.id, { status: "in_review" }, m2);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("complaint_not_found");
    expect((await m2.as(M_COMPLAINTS).then(ok)).count).toBe(0);
  });
});
