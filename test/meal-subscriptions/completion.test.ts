import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { completeFinishedSubscriptions } from "../../src/modules/meal-orders/subscriptions/completion";
import { APP_1, serviceCtx, shardFor } from "../helpers/factories";
import {
  clockAt,
  customerOf,
  eventsOf,
  type MealCustomer,
  type MealStore,
  mealStoreOf,
  subRow,
  subscriptionOf,
} from "./seed";

// Completion is evaluated where suborders reach a final status (logistics' bulk update calls it).
const A = 6261;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
  clockAt("2026-03-02T09:00:00Z");
});
afterAll(() => setClock(null));

const setStatuses = (ids: number[], status: string) =>
  shardFor(APP_1)
    .prepare("UPDATE suborders SET status = ? WHERE id IN (SELECT value FROM json_each(?))")
    .bind(status, JSON.stringify(ids))
    .run();

async function complete(ids: number[], appId = A) {
  const ctx = serviceCtx(appId);
  await completeFinishedSubscriptions(ctx, ids);
  await ctx.settle();
}

describe("Completion", () => {
  it("an active subscription completes once every suborder is final, with its event; not before", async () => {
    const s = await subscriptionOf(m, c, { start: "2026-03-03", count: 3 });
    await setStatuses([s.suborders[0]!.id], "delivered");
    await setStatuses([s.suborders[1]!.id], "cancelled_by_customer");
    await setStatuses([s.suborders[2]!.id], "on_delivery");
    await complete([s.id]);
    expect((await subRow(s.id)).status).toBe("active");
    await setStatuses([s.suborders[2]!.id], "not_received_by_customer");
    await complete([s.id]);
    expect((await subRow(s.id)).status).toBe("completed");
    const events = (await eventsOf(A, ["meal_subscription.completed"])).filter((e) => e.data.id === s.id);
    expect(events.map((e) => e.data)).toEqual([{ id: s.id, status: "completed", channel_app_id: null }]);
    await complete([s.id]);
    expect((await eventsOf(A, ["meal_subscription.completed"])).filter((e) => e.data.id === s.id)).toHaveLength(1);
  });

  it("paused, cancelled and another store's subscriptions are left alone", async () => {
    const paused = await subscriptionOf(m, c, { start: "2026-03-03", count: 1, subscription: { status: "paused" } });
    const cancelled = await subscriptionOf(m, c, {
      start: "2026-03-03",
      count: 1,
      subscription: { status: "cancelled" },
    });
    const done = await subscriptionOf(m, c, { start: "2026-03-03", count: 1 });
    await setStatuses([paused.suborders[0]!.id, cancelled.suborders[0]!.id, done.suborders[0]!.id], "delivered");
    await complete([paused.id, cancelled.id, done.id], 6262);
    expect((await subRow(done.id)).status).toBe("active");
    await complete([paused.id, cancelled.id, done.id]);
    expect([
      (await subRow(paused.id)).status,
      (await subRow(cancelled.id)).status,
      (await subRow(done.id)).status,
    ]).toEqual(["paused", "cancelled", "completed"]);
  });
});
