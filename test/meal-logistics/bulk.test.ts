import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { problem } from "../helpers/request";
import {
  eventsOf,
  L,
  type LStore,
  logisticsStore,
  ok,
  seedCaptain,
  seedSuborder,
  seedSubscription,
  suborderRow,
} from "./seed";

const A = 4321;
const B = 4322;
let s: LStore;
let other: LStore;
beforeAll(async () => {
  s = await logisticsStore(A, 4_510_500);
  other = await logisticsStore(B, 4_520_500);
});

const BULK = `${L}suborders/bulk-update/`;
type SuborderRow = Awaited<ReturnType<typeof seedSuborder>>;
const bulk = (body: Record<string, unknown>, store = s) => store.as(BULK, { method: "POST", body });

sharedAuthCases({ method: "POST", path: BULK, permission: "can_write_order", body: { suborder_ids: [1], note: "x" } });

const STATUSES = [
  "new",
  "confirmed",
  "on_delivery",
  "delivered",
  "cancelled_by_customer",
  "cancelled_by_operation",
  "not_received_by_customer",
] as const;
type Status = (typeof STATUSES)[number];

/** Design-reference 12: the only moves there are. */
const LEGAL: Record<Status, Status[]> = {
  new: ["confirmed", "cancelled_by_customer", "cancelled_by_operation"],
  confirmed: ["on_delivery", "cancelled_by_customer", "cancelled_by_operation"],
  on_delivery: ["delivered", "not_received_by_customer", "cancelled_by_operation"],
  delivered: [],
  cancelled_by_customer: [],
  cancelled_by_operation: [],
  not_received_by_customer: [],
};

let day = 0;
/** A fresh date for each suborder of a subscription (one live delivery a day). */
const nextDate = () => {
  day += 1;
  return new Date(Date.UTC(2027, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
};

describe("ML6 Bulk Update Suborders: statuses", () => {
  it("moves each suborder through the machine: every legal move applies, every other is 409 with its status and actions", async () => {
    const sub = await seedSubscription(s);
    for (const to of STATUSES) {
      const rows: SuborderRow[] = [];
      for (const from of STATUSES) rows.push(await seedSuborder(s, sub, { status: from, date: nextDate() }));
      const out = await ok(await bulk({ suborder_ids: rows.map((r) => r.id), status: to }));
      expect(schemaErrors("bulkUpdateSuborders", out)).toEqual([]);
      const legal = STATUSES.filter((from) => LEGAL[from].includes(to));
      expect(out.succeeded_count, to).toBe(legal.length);
      expect(out.failed_count, to).toBe(STATUSES.length - legal.length);
      for (const [i, from] of STATUSES.entries()) {
        const r = out.results[i];
        expect(r.id).toBe(rows[i]!.id);
        const stored = await suborderRow(rows[i]!.id);
        if (legal.includes(from)) {
          expect(r, `${from} → ${to}`).toEqual({ id: rows[i]!.id, success: true, error: null });
          expect(stored!.status).toBe(to);
          const events = (await eventsOf(A, "suborder.status_changed")).filter((e) => e.id === rows[i]!.id);
          expect(events).toEqual([{ id: rows[i]!.id, subscription_id: sub.id, from, to, date: rows[i]!.date }]);
        } else {
          expect(r.success, `${from} → ${to}`).toBe(false);
          expect(r.error).toEqual({
            code: "invalid_state_transition",
            detail: expect.stringContaining(`is ${from}`),
            current_status: from,
            allowed_actions: LEGAL[from],
          });
          expect(stored!.status).toBe(from);
        }
      }
    }
  });

  it("marks delivery: delivered_at set, suborder.delivered beside the status change", async () => {
    const sub = await seedSubscription(s);
    const captain = await seedCaptain(s);
    const row = await seedSuborder(s, sub, { status: "on_delivery", captainId: captain.id, date: nextDate() });
    await ok(await bulk({ suborder_ids: [row.id], status: "delivered" }));
    expect((await suborderRow(row.id))!.delivered_at).toEqual(expect.any(String));
    expect((await eventsOf(A, "suborder.delivered")).filter((e) => e.id === row.id)).toEqual([
      { id: row.id, subscription_id: sub.id, date: row.date, captain_id: captain.id },
    ]);
  });

  it("completes an active subscription whose last suborder ends, in the same batch; not one with a suborder to go", async () => {
    const done = await seedSubscription(s);
    await seedSuborder(s, done, { status: "delivered", date: nextDate() });
    const last = await seedSuborder(s, done, { status: "on_delivery", date: nextDate() });
    const held = await seedSubscription(s);
    const heldLast = await seedSuborder(s, held, { status: "on_delivery", date: nextDate() });
    await seedSuborder(s, held, { isFrozen: true, date: nextDate() });
    const out = await ok(await bulk({ suborder_ids: [last.id, heldLast.id], status: "not_received_by_customer" }));
    expect(out.succeeded_count).toBe(2);
    const statusOf = async (id: number) =>
      (await shardFor(APP_1)
        .prepare("SELECT status FROM meal_subscriptions WHERE id = ?")
        .bind(id)
        .first<{ status: string }>())!.status;
    expect([await statusOf(done.id), await statusOf(held.id)]).toEqual(["completed", "active"]);
    const completed = (await eventsOf(A, "meal_subscription.completed")).filter((e) =>
      [done.id, held.id].includes(e.id),
    );
    expect(completed).toEqual([{ id: done.id, status: "completed", channel_app_id: null }]);
  });

  it("answers each id on its own: unknown and other stores' ids are not found, the rest apply (partial success)", async () => {
    const sub = await seedSubscription(s);
    const good = await seedSuborder(s, sub, { date: nextDate() });
    const done = await seedSuborder(s, sub, { status: "delivered", date: nextDate() });
    const theirs = await seedSuborder(other, await seedSubscription(other));
    const gone = await seedSuborder(s, sub, { date: nextDate(), isDeleted: true });
    const out = await ok(
      await bulk({ suborder_ids: [999_999_999, good.id, theirs.id, done.id, gone.id], status: "confirmed" }),
    );
    expect(out.succeeded_count).toBe(1);
    expect(out.failed_count).toBe(4);
    expect(
      out.results.map((r: { id: number; error: { code: string } | null }) => [r.id, r.error?.code ?? null]),
    ).toEqual([
      [999_999_999, "suborder_not_found"],
      [good.id, null],
      [theirs.id, "suborder_not_found"],
      [done.id, "invalid_state_transition"],
      [gone.id, "suborder_not_found"],
    ]);
    expect((await suborderRow(good.id))!.status).toBe("confirmed");
    expect((await suborderRow(theirs.id))!.status).toBe("new");
    expect(await eventsOf(B, "suborder.status_changed")).toEqual([]);
  });

  it("keeps suborders of pending, cancelled or expired subscriptions, and frozen ones, where they are", async () => {
    const pending = await seedSuborder(s, await seedSubscription(s, { status: "pending" }), { date: nextDate() });
    const cancelled = await seedSuborder(s, await seedSubscription(s, { status: "cancelled" }), { date: nextDate() });
    const expired = await seedSuborder(s, await seedSubscription(s, { status: "expired" }), { date: nextDate() });
    const paused = await seedSubscription(s, { status: "paused" });
    const frozen = await seedSuborder(s, paused, { isFrozen: true, date: nextDate() });
    const beforePause = await seedSuborder(s, paused, { date: nextDate() });
    const ids = [pending.id, cancelled.id, expired.id, frozen.id, beforePause.id];
    const out = await ok(await bulk({ suborder_ids: ids, status: "confirmed" }));
    expect(out.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).toEqual([
      "meal_subscription_not_active",
      "meal_subscription_not_active",
      "meal_subscription_not_active",
      "suborder_frozen",
      null,
    ]);
    // A note is not a move: it is taken on a frozen suborder too.
    const noted = await ok(await bulk({ suborder_ids: [frozen.id], note: "Call before the pause ends" }));
    expect(noted.succeeded_count).toBe(1);
    expect((await suborderRow(frozen.id))!.operation_note).toBe("Call before the pause ends");
    expect((await eventsOf(A, "suborder.updated")).filter((e) => e.id === frozen.id)).toEqual([
      { id: frozen.id, subscription_id: paused.id, date: frozen.date, fields: ["operation_note"] },
    ]);
  });
});

describe("ML6 Bulk Update Suborders: captains, windows, notes", () => {
  it("assigns an active captain of the store to deliveries still to end; not to pickups or ended ones", async () => {
    const captain = await seedCaptain(s);
    const sub = await seedSubscription(s);
    const pickupSub = await seedSubscription(s, { isPickup: true, pickupBranchId: s.olaya, deliveryWindowId: null });
    const a = await seedSuborder(s, sub, { date: nextDate() });
    const b = await seedSuborder(s, sub, { status: "on_delivery", date: nextDate() });
    const ended = await seedSuborder(s, sub, { status: "delivered", date: nextDate() });
    const pickup = await seedSuborder(s, pickupSub, { date: nextDate() });
    const out = await ok(await bulk({ suborder_ids: [a.id, b.id, ended.id, pickup.id], captain_id: captain.id }));
    expect(out.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).toEqual([
      null,
      null,
      "suborder_not_changeable",
      "suborder_is_pickup",
    ]);
    expect(out.results[2].error.current_status).toBe("delivered");
    expect((await suborderRow(a.id))!.captain_id).toBe(captain.id);
    expect((await suborderRow(ended.id))!.captain_id).toBeNull();
    expect((await eventsOf(A, "suborder.updated")).filter((e) => e.id === a.id)).toEqual([
      { id: a.id, subscription_id: sub.id, date: a.date, fields: ["captain_id"] },
    ]);
    // A status and a captain together; then the captain taken off.
    const both = await ok(await bulk({ suborder_ids: [a.id], status: "confirmed", captain_id: null }));
    expect(both.succeeded_count).toBe(1);
    expect(await suborderRow(a.id)).toMatchObject({ status: "confirmed", captain_id: null });
    // The same captain again changes nothing and announces nothing.
    const before = (await eventsOf(A, "suborder.updated")).length;
    expect((await ok(await bulk({ suborder_ids: [b.id], captain_id: captain.id }))).succeeded_count).toBe(1);
    expect((await eventsOf(A, "suborder.updated")).length).toBe(before);
  });

  it("refuses an inactive captain (409) and an unknown or other store's one (400) for the whole request", async () => {
    const sub = await seedSubscription(s);
    const row = await seedSuborder(s, sub, { date: nextDate() });
    const off = await seedCaptain(s, { isActive: false });
    const inactive = await problem(await bulk({ suborder_ids: [row.id], captain_id: off.id, status: "confirmed" }));
    expect(inactive).toMatchObject({ status: 409, code: "captain_inactive" });
    const deleted = await seedCaptain(s, { isDeleted: true });
    for (const id of [999_999_999, (await seedCaptain(other)).id, deleted.id]) {
      const p = await problem(await bulk({ suborder_ids: [row.id], captain_id: id }));
      expect(p.status).toBe(400);
      expect(p.errors).toHaveProperty("captain_id");
    }
    expect(await suborderRow(row.id)).toMatchObject({ status: "new", captain_id: null });
  });

  it("moves deliveries to a window of their own restaurant while they have not left", async () => {
    const sub = await seedSubscription(s);
    const kabsaSub = await seedSubscription(s, { restaurantId: s.kabsa, deliveryWindowId: s.windows.kabsaEvening });
    const a = await seedSuborder(s, sub, { date: nextDate() });
    const left = await seedSuborder(s, sub, { status: "on_delivery", date: nextDate() });
    const kabsa = await seedSuborder(s, kabsaSub, { date: nextDate() });
    const out = await ok(
      await bulk({ suborder_ids: [a.id, left.id, kabsa.id], delivery_window_id: s.windows.greenNoon, note: "Moved" }),
    );
    expect(out.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).toEqual([
      null,
      "suborder_not_changeable",
      "delivery_window_not_of_restaurant",
    ]);
    expect(await suborderRow(a.id)).toMatchObject({ delivery_window_id: s.windows.greenNoon, operation_note: "Moved" });
    expect(await suborderRow(kabsa.id)).toMatchObject({
      delivery_window_id: s.windows.kabsaEvening,
      operation_note: null,
    });
    expect((await eventsOf(A, "suborder.updated")).filter((e) => e.id === a.id)).toEqual([
      { id: a.id, subscription_id: sub.id, date: a.date, fields: ["delivery_window_id", "operation_note"] },
    ]);
    for (const id of [999_999_999, other.windows.greenNoon]) {
      const p = await problem(await bulk({ suborder_ids: [a.id], delivery_window_id: id }));
      expect(p.errors).toHaveProperty("delivery_window_id");
    }
  });

  it("validates the body: 1 to 100 distinct ids, at least one change, known statuses", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ suborder_ids: [], status: "confirmed" }, "suborder_ids"],
      [{ suborder_ids: Array.from({ length: 101 }, (_, i) => i + 1), status: "confirmed" }, "suborder_ids"],
      [{ suborder_ids: [1, 1], status: "confirmed" }, "suborder_ids"],
      [{ suborder_ids: [1] }, "suborder_ids"],
      [{ suborder_ids: [1], status: "lost" }, "status"],
      [{ suborder_ids: [1], captain_id: "one" }, "captain_id"],
      [{ suborder_ids: [1], note: "x".repeat(1001) }, "note"],
      [{ suborder_ids: [1], note: "x", colour: "red" }, "colour"],
    ];
    for (const [body, field] of cases) {
      const p = await problem(await bulk(body));
      expect(p.status, field).toBe(400);
      expect(p.errors, JSON.stringify(body).slice(0, 80)).toHaveProperty(field);
    }
  });

  it("takes 100 ids in one request, each moved and announced once", async () => {
    const rows: SuborderRow[] = [];
    for (let i = 0; i < 100; i++) rows.push(await seedSuborder(s, await seedSubscription(s), { date: "2027-06-01" }));
    const out = await ok(await bulk({ suborder_ids: rows.map((r) => r.id), status: "confirmed", note: "Batch" }));
    expect(out.succeeded_count).toBe(100);
    const ids = new Set(rows.map((r) => r.id));
    expect((await eventsOf(A, "suborder.status_changed")).filter((e) => ids.has(e.id))).toHaveLength(100);
    expect((await eventsOf(A, "suborder.updated")).filter((e) => ids.has(e.id))).toHaveLength(100);
  });
});
