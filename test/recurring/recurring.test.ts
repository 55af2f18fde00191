import { beforeAll, describe, expect, it } from "vitest";
import { sharedAuthCases } from "../helpers/auth-cases";
import { tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, json, problem } from "../helpers/request";
import { cartOf, checkedOut, eventsWhere, rowsOf, type Store, shopperOf, stocked, storeFor } from "../orders/helpers";
import { daysFrom, M_RECURRING, MY_RECURRING, purchaseRow, recurringOf, storeToday } from "./helpers";

// Stores of this file's own.
const A = 8701;
const B = 8702;
let store: Store;
let other: Store;

beforeAll(async () => {
  store = await storeFor(A);
  other = await storeFor(B);
});

const recurringEvents = (appId: number, id: number) =>
  eventsWhere(
    appId,
    ["recurring_purchase.created", "recurring_purchase.updated", "recurring_purchase.charged"],
    "id",
    id,
  );

describe("Creation at checkout", () => {
  it("a recurring cart paid with the wallet: the purchase is created with the order, and activated by its payment", async () => {
    const s = await shopperOf(A);
    const { order, cart, purchaseId, result } = await recurringOf(store, s, { duration: 2, unit: "week" });
    expect(result.order).toMatchObject({ status: "completed", payment_provider: "wallet", cart_id: cart.id });
    const row = await purchaseRow(purchaseId);
    expect(row).toMatchObject({
      app_id: A,
      customer_id: s.id,
      cart_id: cart.id,
      status: "active",
      cart_provider: "app",
      duration: 2,
      duration_unit: "week",
      payment_provider: "wallet",
      next_order_date: daysFrom(storeToday(), 14),
      last_order_date: storeToday(),
      charge_attempts: 0,
      inactive_reason: null,
    });
    // Payment (payments/paid.ts) stamps the day it was paid.
    expect(row.last_charge_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const stored = await rowsOf("SELECT id, recurring_purchase_id FROM orders WHERE cart_id = ?", cart.id);
    expect(stored).toEqual([{ id: order.id, recurring_purchase_id: purchaseId }]);
    const events = await recurringEvents(A, purchaseId);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["recurring_purchase.created", { id: purchaseId, customer_id: s.id }],
    ]);
  });

  it("a card checkout leaves it pending with its pending order; a plain cart creates none", async () => {
    const s = await shopperOf(A);
    const { purchaseId, order } = await recurringOf(store, s, { provider: "card", duration: 10, unit: "day" });
    expect(order.status).toBe("pending");
    expect(await purchaseRow(purchaseId)).toMatchObject({
      status: "pending",
      payment_provider: "card",
      next_order_date: daysFrom(storeToday(), 10),
      last_charge_date: null,
    });

    const item = await stocked(A, 500, 5);
    const plain = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }] });
    const r = await checkedOut(s, plain.id, { payment_provider: "card" });
    expect(r.order.recurring_purchase_id).toBeNull();
    expect(await rowsOf("SELECT id FROM recurring_purchases WHERE cart_id = ?", plain.id)).toEqual([]);
  });

  it("a month keeps its day, or the month's last day", async () => {
    const { addDuration, nextCycleAfter } = await import("../../src/modules/orders/recurring/dates");
    expect(addDuration("2026-01-31", 1, "month")).toBe("2026-02-28");
    expect(addDuration("2028-01-31", 1, "month")).toBe("2028-02-29");
    expect(addDuration("2026-11-15", 3, "month")).toBe("2027-02-15");
    expect(addDuration("2026-12-29", 1, "week")).toBe("2027-01-05");
    // A run days late orders one cycle and sets the next after today, not one per missed cycle.
    expect(nextCycleAfter("2026-03-01", "2026-03-10", 2, "day")).toBe("2026-03-11");
    expect(nextCycleAfter("2026-03-01", "2026-03-01", 1, "week")).toBe("2026-03-08");
  });
});

describe("Merchant: List, Details, Update (MO5)", () => {
  it("lists with the FOUND fields and filters on status, customer and next order date", async () => {
    const s = await shopperOf(A);
    const active = await recurringOf(store, s, { duration: 3, unit: "day", priceMinor: 1_250 });
    const pending = await recurringOf(store, s, { provider: "card", duration: 1, unit: "month" });
    // The page with its customers and carts' totals: one D1 round trip beyond the token check.
    const {
      res,
      waits: { beyondAuth },
    } = await callWaits(`${M_RECURRING}?customer_id=${s.id}`, { token: store.token, appId: A });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(beyondAuth).toBe(1);
    expect(schemaErrors("listRecurringPurchases", body)).toEqual([]);
    expect(body.count).toBe(2);
    expect(body.results.map((r: { id: number }) => r.id)).toEqual([pending.purchaseId, active.purchaseId]);
    const first = body.results[1];
    for (const key of [
      "id",
      "custom_fields",
      "customer",
      "total_cart_price",
      "app_id",
      "created_at",
      "cart_provider",
      "customer_id",
      "customer_details",
      "duration",
      "duration_unit",
      "status",
      "next_order_date",
      "last_order_date",
      "last_charge_date",
      "charge_attempts",
    ])
      expect(first).toHaveProperty(key);
    expect(first).toMatchObject({
      app_id: A,
      customer_id: s.id,
      customer: { id: s.id, name: s.row.name },
      customer_details: { name: s.row.name, mobile_number: s.row.mobileNumber },
      total_cart_price: 25,
      duration: 3,
      duration_unit: "day",
      status: "active",
      payment_provider: "wallet",
      charge_attempts: 0,
    });

    const statusOnly = await json(await store.as(`${M_RECURRING}?customer_id=${s.id}&status=pending`));
    expect(statusOnly.results.map((r: { id: number }) => r.id)).toEqual([pending.purchaseId]);
    const soon = daysFrom(storeToday(), 5);
    const dueSoon = await json(await store.as(`${M_RECURRING}?customer_id=${s.id}&next_order_date__lte=${soon}`));
    expect(dueSoon.results.map((r: { id: number }) => r.id)).toEqual([active.purchaseId]);
    const bad = await store.as(`${M_RECURRING}?next_order_date__lte=tomorrow`);
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty("next_order_date__lte");
  });

  it("details add the cart's lines priced now, the charges and the orders; another store's is a 404", async () => {
    const s = await shopperOf(A);
    const { purchaseId, item, order } = await recurringOf(store, s, { priceMinor: 1_000, qty: 3 });
    const res = await store.as(`${M_RECURRING}${purchaseId}/`);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("getRecurringPurchase", body)).toEqual([]);
    expect(body).toMatchObject({
      id: purchaseId,
      total_cart_price: 30,
      cart_items: [{ item_id: item.id, qty: 3, price: 10, total: 30, is_available: true, item: { id: item.id } }],
      charge_history: [],
      orders: [
        {
          id: order.id,
          total_amount: 30,
          status: "completed",
          payment_status: "paid",
          payment_provider: "wallet",
          payment_method: "wallet",
        },
      ],
    });

    const elsewhere = await other.as(`${M_RECURRING}${purchaseId}/`);
    expect(elsewhere.status).toBe(404);
    expect((await problem(elsewhere)).code).toBe("recurring_purchase_not_found");
  });

  it("PATCH status inactive stops an active one, with its event; again is a 409 naming no allowed action", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s);
    const res = await store.as(`${M_RECURRING}${purchaseId}/`, { method: "PATCH", body: { status: "inactive" } });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("updateRecurringPurchase", body)).toEqual([]);
    expect(body).toMatchObject({ id: purchaseId, status: "inactive", inactive_reason: "Stopped by the merchant." });
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "inactive" });
    const events = await recurringEvents(A, purchaseId);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["recurring_purchase.created", { id: purchaseId, customer_id: s.id }],
      ["recurring_purchase.updated", { id: purchaseId, customer_id: s.id, status: "inactive" }],
    ]);

    const again = await store.as(`${M_RECURRING}${purchaseId}/`, { method: "PATCH", body: { status: "inactive" } });
    expect(again.status).toBe(409);
    const refused = await problem(again);
    expect(refused).toMatchObject({ code: "invalid_state_transition", allowed_actions: [] });
    expect(refused.detail).toBe(
      `Recurring purchase ${purchaseId} is inactive: it cannot be deactivate (it allows no action).`,
    );
    expect(await recurringEvents(A, purchaseId)).toHaveLength(2);
  });

  it("a pending one can be stopped too; any other body is a 400 and changes nothing", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s, { provider: "card" });
    for (const body of [{ status: "active" }, {}, { status: "inactive", duration: 3 }]) {
      const res = await store.as(`${M_RECURRING}${purchaseId}/`, { method: "PATCH", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "pending" });
    const res = await store.as(`${M_RECURRING}${purchaseId}/`, { method: "PATCH", body: { status: "inactive" } });
    expect(res.status).toBe(200);
    expect((await json(res)).status).toBe("inactive");
  });

  it("reads need can_read_order; the update needs can_write_order", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s, { provider: "card" });
    const reader = await tokenFor(A, ["can_read_order"]);
    expect((await call(M_RECURRING, { token: reader, appId: A })).status).toBe(200);
    const refused = await call(`${M_RECURRING}${purchaseId}/`, {
      method: "PATCH",
      token: reader,
      appId: A,
      body: { status: "inactive" },
    });
    expect(refused.status).toBe(403);
    expect((await problem(refused)).code).toBe("missing_permission");
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "pending" });
  });

  sharedAuthCases({ method: "GET", path: M_RECURRING, permission: "can_read_order" });
});

describe("Customer app: recurring purchases (CA11)", () => {
  it("lists and shows only the customer's own; another customer's is a 404", async () => {
    const s = await shopperOf(A);
    const someoneElse = await shopperOf(A);
    const mine = await recurringOf(store, s);
    const theirs = await recurringOf(store, someoneElse);
    const list = await s.as(MY_RECURRING);
    const body = await json(list);
    expect(list.status).toBe(200);
    expect(schemaErrors("listMyRecurringPurchases", body)).toEqual([]);
    expect(body.results.map((r: { id: number }) => r.id)).toEqual([mine.purchaseId]);

    const details = await s.as(`${MY_RECURRING}${mine.purchaseId}/`);
    const d = await json(details);
    expect(details.status).toBe(200);
    expect(schemaErrors("getMyRecurringPurchase", d)).toEqual([]);
    expect(d).toMatchObject({ id: mine.purchaseId, charge_history: [], orders: [{ id: mine.order.id }] });

    for (const path of [`${MY_RECURRING}${theirs.purchaseId}/`, `${MY_RECURRING}${theirs.purchaseId}/deactivate/`]) {
      const res = await s.as(path, path.endsWith("deactivate/") ? { method: "POST" } : {});
      expect(res.status, path).toBe(404);
      expect((await problem(res)).code).toBe("recurring_purchase_not_found");
    }
    expect(await purchaseRow(theirs.purchaseId)).toMatchObject({ status: "active" });
  });

  it("deactivate stops it once, with one event; again answers it as it is", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s);
    const res = await s.as(`${MY_RECURRING}${purchaseId}/deactivate/`, { method: "POST" });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("deactivateMyRecurringPurchase", body)).toEqual([]);
    expect(body).toMatchObject({ id: purchaseId, status: "inactive", inactive_reason: "Stopped by the customer." });
    const again = await s.as(`${MY_RECURRING}${purchaseId}/deactivate/`, { method: "POST" });
    expect(again.status).toBe(200);
    expect((await json(again)).status).toBe("inactive");
    const updates = (await recurringEvents(A, purchaseId)).filter((e) => e.type === "recurring_purchase.updated");
    expect(updates.map((e) => e.data)).toEqual([{ id: purchaseId, customer_id: s.id, status: "inactive" }]);
  });

  it("a merchant token is refused on the customer paths", async () => {
    const res = await store.as(MY_RECURRING);
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("wrong_principal");
  });
});
