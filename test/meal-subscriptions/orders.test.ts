import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { mealOrders } from "../../src/modules/meal-orders/tables";
import { deliveryItem, paidOrderOf } from "../fulfillments/helpers";
import { sharedCustomerAuthCases } from "../helpers/auth-cases";
import { db } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { callWaits, problem } from "../helpers/request";
import { rowsOf } from "../orders/helpers";
import { clockAt, customerOf, type MealCustomer, type MealStore, mealStoreOf, ok, SUBS, subscriptionOf } from "./seed";

// The orders that bought a subscription are orders of the orders module (paid here through the commerce
// checkout, as Place Order will); `meal_orders` names them and their type.
const A = 6251;
let m: MealStore;
let c: MealCustomer;

beforeAll(async () => {
  m = await mealStoreOf(A);
  c = await customerOf(m);
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

sharedCustomerAuthCases({ method: "GET", path: `${SUBS}1/orders/` });
sharedCustomerAuthCases({ method: "GET", path: `${SUBS}1/invoices/` });

async function bought() {
  const item = await deliveryItem(A);
  setClock(null); // the commerce checkout's own clock-dependent steps run in real time
  const first = await paidOrderOf(m, c, [{ item_id: item.id, qty: 1 }]);
  const addOn = await paidOrderOf(m, c, [{ item_id: item.id, qty: 2 }]);
  clockAt("2026-03-02T09:00:00Z");
  const s = await subscriptionOf(m, c, { start: "2026-03-03", count: 3, orderId: first.id });
  await db(A).insert(mealOrders).values({
    appId: A,
    orderId: addOn.id,
    type: "add_on",
    customerId: c.id,
    restaurantId: m.restaurant.id,
    subscriptionId: s.id,
  });
  return { s, first, addOn };
}

describe("List Subscription Orders", () => {
  it("the order that bought it and its add-on orders, each with the order itself", async () => {
    const { s, first, addOn } = await bought();
    // The subscription and the page in one round trip, then the orders themselves (the orders module's read).
    const { res: read, waits } = await callWaits(`${SUBS}${s.id}/orders/`, { token: c.token, appId: A });
    expect(waits.beyondAuth).toBe(2);
    const page = await ok(read);
    expect(schemaErrors("listMealSubscriptionOrders", page)).toEqual([]);
    expect(page.count).toBe(2);
    expect(page.results.map((o: any) => [o.order_id, o.type]).sort()).toEqual(
      [
        [first.id, "subscription"],
        [addOn.id, "add_on"],
      ].sort(),
    );
    const o = page.results.find((r: any) => r.order_id === first.id);
    expect(o).toMatchObject({
      subscription_id: s.id,
      plan_id: m.plan.id,
      order: { id: first.id, payment_status: "paid" },
    });
    const typed = await ok(await c.as(`${SUBS}${s.id}/orders/?type=add_on`));
    expect(typed.results.map((r: any) => r.order_id)).toEqual([addOn.id]);
    const stranger = await customerOf(m);
    const res = await stranger.as(`${SUBS}${s.id}/orders/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("meal_subscription_not_found");
  });
});

describe("List SubOrder Invoices (MM3)", () => {
  it("the invoices of the subscription's orders, paged; another customer's subscription is a 404", async () => {
    const { s, first, addOn } = await bought();
    const expected = await rowsOf<{ id: number }>(
      "SELECT id FROM invoices WHERE order_id IN (?, ?) ORDER BY id",
      first.id,
      addOn.id,
    );
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const page = await ok(await c.as(`${SUBS}${s.id}/invoices/`));
    expect(schemaErrors("listMealSubscriptionInvoices", page)).toEqual([]);
    expect(page.count).toBe(expected.length);
    expect(page.results.map((i: any) => i.id).sort((a: number, b: number) => a - b)).toEqual(expected.map((e) => e.id));
    expect(new Set(page.results.map((i: any) => i.order_id))).toEqual(new Set([first.id, addOn.id]));
    const one = await ok(await c.as(`${SUBS}${s.id}/invoices/?page_size=1`));
    expect(one.results).toHaveLength(1);
    expect(one.next).toContain("page=2");
    // Another subscription of the same customer has its own (none here).
    const other = await subscriptionOf(m, c, { start: "2026-03-04", count: 1 });
    expect((await ok(await c.as(`${SUBS}${other.id}/invoices/`))).count).toBe(0);
    const stranger = await customerOf(m);
    const res = await stranger.as(`${SUBS}${s.id}/invoices/`);
    expect(res.status).toBe(404);
    const bad = await c.as(`${SUBS}${s.id}/invoices/?colour=red`);
    expect(bad.status).toBe(400);
  });
});
