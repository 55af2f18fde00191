import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { mealSubscriptions } from "../../src/modules/meal-orders/tables";
import { plans } from "../../src/modules/meals/tables";
import { countRows, createCustomerFor, customerTokenFor, db, tokenFor } from "../helpers/factories";
import { schemaErrors, seedMealsFor } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";

/** Has Purchased Plan (MM4): a customer's own paid subscriptions of a plan. */

const A = 4403;
const B = 4404;
type Fx = Awaited<ReturnType<typeof seedMealsFor>>;
let a: Fx;
let b: Fx;
let me: number;
let token: string;
let active: number;

const PATH = "/api/v3/plans/has-purchased/";
const ask = (body: unknown, opts: { token?: string | null; appId?: number } = {}) =>
  call(PATH, { method: "POST", appId: opts.appId ?? A, token: opts.token === undefined ? token : opts.token, body });

async function subscription(appId: number, customerId: number, fx: Fx, status: string, createdAt: string) {
  const [row] = await db(appId)
    .insert(mealSubscriptions)
    .values({
      appId,
      customerId,
      orderId: 1,
      restaurantId: fx.green,
      planId: fx.balanced,
      planVersionId: fx.balancedMonth,
      status: status as "active",
      startDate: "2026-03-04",
      endDate: "2026-04-08",
      numOfDays: 30,
      createdAt,
    })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  a = await seedMealsFor(A, 4_430_000);
  b = await seedMealsFor(B, 4_440_000);
  me = (await createCustomerFor(A)).id;
  token = await customerTokenFor(A, me);
  const other = (await createCustomerFor(A)).id;
  // Mine: a completed term, the current one, and an unpaid order's; another customer's; another store's.
  await subscription(A, me, a, "completed", "2026-01-01T08:00:00.000Z");
  active = await subscription(A, me, a, "active", "2026-02-01T08:00:00.000Z");
  await subscription(A, me, a, "pending", "2026-02-20T08:00:00.000Z");
  await subscription(A, other, { ...a, balanced: a.keto }, "active", "2026-02-01T08:00:00.000Z");
  await subscription(B, me, { ...b, balanced: b.keto }, "active", "2026-02-01T08:00:00.000Z");
});

describe("Has Purchased Plan", () => {
  it("counts the customer's paid subscriptions of the plan, and names the current one", async () => {
    const before = await countRows("outbox_events");
    const res = await ask({ plan_id: a.balanced });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(schemaErrors("hasPurchasedPlan", body)).toEqual([]);
    expect(body).toEqual({
      plan_id: a.balanced,
      has_purchased: true,
      purchases_count: 2,
      active_subscription_id: active,
      last_purchased_at: "2026-02-01T08:00:00.000Z",
    });
    // A read: nothing is written, nothing emitted.
    expect(await countRows("outbox_events")).toBe(before);
  });

  it("is false for a plan only another customer (or the customer in another store) bought", async () => {
    expect(await json(await ask({ plan_id: a.keto }))).toEqual({
      plan_id: a.keto,
      has_purchased: false,
      purchases_count: 0,
      active_subscription_id: null,
      last_purchased_at: null,
    });
  });

  it("still answers for a plan taken off sale, and names no current subscription once it ended", async () => {
    await db().update(mealSubscriptions).set({ status: "cancelled" }).where(eq(mealSubscriptions.id, active));
    await db().update(plans).set({ isActive: false }).where(eq(plans.id, a.balanced));
    const body = await json(await ask({ plan_id: a.balanced }));
    expect(body).toMatchObject({ has_purchased: true, purchases_count: 2, active_subscription_id: null });
  });

  it("is a 404 for another store's plan or one that does not exist", async () => {
    for (const id of [b.balanced, 999_999_999]) {
      const p = await problem(await ask({ plan_id: id }));
      expect(p).toMatchObject({ status: 404, code: "plan_not_found" });
    }
  });

  it("is a 400 naming the field for a bad body", async () => {
    for (const body of [{}, { plan_id: "1" }, { plan_id: 0 }, { plan_id: a.keto, extra: 1 }]) {
      const p = await problem(await ask(body));
      expect(p.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(p.errors!).length).toBeGreaterThan(0);
    }
    expect((await problem(await ask({}))).errors).toHaveProperty("plan_id");
    expect((await problem(await ask({ plan_id: a.keto, extra: 1 }))).errors).toHaveProperty("extra");
  });

  it("needs the customer's own token for the store", async () => {
    expect((await ask({ plan_id: a.keto }, { token: null })).status).toBe(401);
    const merchant = await problem(await ask({ plan_id: a.keto }, { token: await tokenFor(A) }));
    expect(merchant).toMatchObject({ status: 403, code: "wrong_principal" });
    const elsewhere = await problem(await ask({ plan_id: a.keto }, { token: await customerTokenFor(B, me) }));
    expect(elsewhere).toMatchObject({ status: 403, code: "wrong_tenant" });
    expect((await call(PATH, { appId: A, token })).status).toBe(405);
  });
});
