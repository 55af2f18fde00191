import { beforeAll, describe, expect, it } from "vitest";
import { chargeDueRecurringPurchases } from "../../src/modules/orders";
import { APP_1, db, shardFor } from "../helpers/factories";
import { json } from "../helpers/request";
import {
  cashbackOf,
  depositCashback,
  eventsWhere,
  rowsOf,
  type Store,
  setConfig,
  shopperOf,
  storeFor,
} from "../orders/helpers";
import { contexts, daysFrom, M_RECURRING, MY_RECURRING, purchaseRow, recurringOf, storeToday } from "./helpers";

// Stores of this file's own.
const A = 8703;
const W = 8704;
let store: Store;
let walletless: Store;

beforeAll(async () => {
  store = await storeFor(A);
  walletless = await storeFor(W);
});

/** Makes a purchase's next cycle due (yesterday on the store's calendar). */
const makeDue = (id: number, date = daysFrom(storeToday(), -1)) =>
  shardFor(APP_1).prepare("UPDATE recurring_purchases SET next_order_date = ? WHERE id = ?").bind(date, id).run();

async function runCharge() {
  const c = contexts();
  const run = await chargeDueRecurringPurchases(c.contextOf, db());
  await c.settle();
  return run;
}

const chargesOf = (id: number) =>
  rowsOf("SELECT * FROM recurring_charges WHERE recurring_purchase_id = ? ORDER BY id", id);
const ordersOf = (id: number) => rowsOf("SELECT * FROM orders WHERE recurring_purchase_id = ? ORDER BY id", id);
const chargeEvents = (id: number) =>
  eventsWhere(
    A,
    ["recurring_purchase.charged", "recurring_purchase.charge_failed", "recurring_purchase.updated"],
    "id",
    id,
  );

describe("chargeDueRecurringPurchases", () => {
  it("charges a due wallet cycle once, even when two runs overlap", async () => {
    const s = await shopperOf(A);
    // 2 × 12.50 = 25 a cycle; 60 deposited: the first order and one cycle, with 10 left.
    const { purchaseId, order: first } = await recurringOf(store, s, {
      priceMinor: 1_250,
      qty: 2,
      cashback: 60,
      duration: 1,
      unit: "week",
    });
    const cycle = daysFrom(storeToday(), -1);
    await makeDue(purchaseId, cycle);
    const runs = await Promise.all([runCharge(), runCharge()]);
    expect(runs.reduce((n, r) => n + r.charged, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);

    const placed = await ordersOf(purchaseId);
    expect(placed.map((o) => o.id)[0]).toBe(first.id);
    expect(placed).toHaveLength(2);
    const cycleOrder = placed[1]!;
    expect(cycleOrder).toMatchObject({
      customer_id: s.id,
      cart_id: null,
      status: "completed",
      payment_status: "paid",
      payment_provider: "wallet",
      total_minor: 2_500,
      wallet_redeem_minor: 2_500,
    });
    expect(await cashbackOf(A, s.id)).toBe(1_000);
    expect(await chargesOf(purchaseId)).toEqual([
      expect.objectContaining({
        cycle_date: cycle,
        status: "success",
        order_id: cycleOrder.id,
        amount_minor: 2_500,
        error_message: null,
      }),
    ]);
    expect(await purchaseRow(purchaseId)).toMatchObject({
      status: "active",
      last_order_date: storeToday(),
      last_charge_date: storeToday(),
      next_order_date: daysFrom(cycle, 7),
      charge_attempts: 0,
    });
    expect((await chargeEvents(purchaseId)).map((e) => [e.type, e.data])).toEqual([
      ["recurring_purchase.charged", { id: purchaseId, customer_id: s.id, order_id: cycleOrder.id }],
    ]);
    // The order's own events, like any order paid at once.
    const orderEvents = await eventsWhere(A, ["order.created", "order.paid", "order.completed"], "id", cycleOrder.id);
    expect(orderEvents.map((e) => e.type)).toEqual(["order.created", "order.paid", "order.completed"]);

    // The customer sees the cycle in the charge history and the orders.
    const d = await json(await s.as(`${MY_RECURRING}${purchaseId}/`));
    expect(d.charge_history).toEqual([
      {
        id: expect.any(Number),
        cycle_date: cycle,
        created_at: expect.any(String),
        status: "success",
        order_id: cycleOrder.id,
        amount: 25,
        error_message: null,
      },
    ]);
    expect(d.orders.map((o: { id: number }) => o.id)).toEqual([cycleOrder.id, first.id]);

    // Nothing is due any more: a third run orders nothing.
    expect((await runCharge()).charged).toBe(0);
    expect(await ordersOf(purchaseId)).toHaveLength(2);
  });

  it("a cycle days overdue orders once and moves to the first cycle after today", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s, {
      priceMinor: 500,
      qty: 1,
      cashback: 50,
      duration: 2,
      unit: "day",
    });
    const cycle = daysFrom(storeToday(), -5);
    await makeDue(purchaseId, cycle);
    expect((await runCharge()).charged).toBe(1);
    expect(await ordersOf(purchaseId)).toHaveLength(2);
    expect((await purchaseRow(purchaseId)).next_order_date).toBe(daysFrom(cycle, 6));
  });

  it("a cycle the cashback cannot pay fails, is counted, and the third in a row stops the purchase", async () => {
    const s = await shopperOf(A);
    // Exactly the first order: nothing left for the cycles.
    const { purchaseId } = await recurringOf(store, s, { priceMinor: 1_000, qty: 1, cashback: 10, duration: 1 });
    expect(await cashbackOf(A, s.id)).toBe(0);
    const cycles: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const cycle = daysFrom(storeToday(), -attempt);
      cycles.push(cycle);
      await makeDue(purchaseId, cycle);
      const run = await runCharge();
      expect(run.failed).toBe(1);
      const row = await purchaseRow(purchaseId);
      expect(row.charge_attempts).toBe(attempt);
      expect(row.last_charge_date).toBe(storeToday());
      expect(row.status).toBe(attempt < 3 ? "active" : "inactive");
    }
    const row = await purchaseRow(purchaseId);
    expect(row.inactive_reason).toMatch(/^3 cycles in a row failed to charge; the last: .*cashback balance is 0/);
    expect(await ordersOf(purchaseId)).toHaveLength(1);
    const charges = await chargesOf(purchaseId);
    expect(charges.map((c) => [c.cycle_date, c.status, c.order_id, c.amount_minor])).toEqual(
      cycles.map((c) => [c, "failed", null, 1_000]),
    );
    for (const c of charges) expect(c.error_message).toMatch(/cashback balance is 0/);
    const events = await chargeEvents(purchaseId);
    expect(events.map((e) => e.type)).toEqual([
      "recurring_purchase.charge_failed",
      "recurring_purchase.charge_failed",
      "recurring_purchase.charge_failed",
      "recurring_purchase.updated",
    ]);
    expect(events[0]!.data).toEqual({ id: purchaseId, customer_id: s.id, error_message: charges[0]!.error_message });
    expect(events[3]!.data).toEqual({ id: purchaseId, customer_id: s.id, status: "inactive" });

    // Inactive: never charged again, even when its date comes.
    await makeDue(purchaseId);
    await runCharge();
    expect(await chargesOf(purchaseId)).toHaveLength(3);
    // The merchant sees the failures.
    const d = await json(await store.as(`${M_RECURRING}${purchaseId}/`));
    expect(d).toMatchObject({ status: "inactive", charge_attempts: 3 });
    expect(d.charge_history.map((c: { status: string }) => c.status)).toEqual(["failed", "failed", "failed"]);
  });

  it("a paid cycle after failures resets the count", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s, { priceMinor: 1_000, qty: 1, cashback: 10 });
    await makeDue(purchaseId, daysFrom(storeToday(), -2));
    expect((await runCharge()).failed).toBe(1);
    expect((await purchaseRow(purchaseId)).charge_attempts).toBe(1);
    await depositCashback(store, s.id, 10);
    await makeDue(purchaseId, daysFrom(storeToday(), -1));
    expect((await runCharge()).charged).toBe(1);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: "active", charge_attempts: 0 });
  });

  it("a card purchase is not charged without the customer: a failed cycle saying why, no order", async () => {
    const s = await shopperOf(A);
    const { purchaseId, order } = await recurringOf(store, s, { provider: "card" });
    // Paid by card at checkout (what the gateway's callback does): the purchase becomes active.
    await shardFor(APP_1)
      .prepare("UPDATE recurring_purchases SET status = 'active' WHERE id = ?")
      .bind(purchaseId)
      .run();
    await makeDue(purchaseId);
    expect((await runCharge()).failed).toBe(1);
    const [charge] = await chargesOf(purchaseId);
    expect(charge).toMatchObject({ status: "failed", order_id: null });
    expect(charge!.error_message).toMatch(/^Card payments need the customer/);
    expect((await ordersOf(purchaseId)).map((o) => o.id)).toEqual([order.id]);
  });

  it("a store that stopped taking wallet payments: the cycle fails with the reason", async () => {
    const s = await shopperOf(W);
    const { purchaseId } = await recurringOf(walletless, s, { cashback: 100 });
    await setConfig(walletless, { enabled_providers: ["card"] });
    await makeDue(purchaseId);
    expect((await runCharge()).failed).toBe(1);
    const [charge] = await chargesOf(purchaseId);
    expect(charge!.error_message).toMatch(/does not take wallet payments/);
  });

  it("a claim left by a run that died is taken over once it is stale, not before", async () => {
    const s = await shopperOf(A);
    const { purchaseId } = await recurringOf(store, s, { priceMinor: 1_000, qty: 1, cashback: 50 });
    const cycle = daysFrom(storeToday(), -1);
    await makeDue(purchaseId, cycle);
    const fresh = new Date().toISOString();
    await shardFor(A)
      .prepare(
        "INSERT INTO recurring_charges (app_id, recurring_purchase_id, cycle_date, status, amount_minor, created_at) " +
          "VALUES (?, ?, ?, 'pending', 0, ?)",
      )
      .bind(A, purchaseId, cycle, fresh)
      .run();
    expect(await runCharge()).toMatchObject({ charged: 0, failed: 0 });
    expect(await ordersOf(purchaseId)).toHaveLength(1);
    const stale = new Date(Date.now() - 20 * 60_000).toISOString();
    await shardFor(APP_1)
      .prepare("UPDATE recurring_charges SET created_at = ? WHERE recurring_purchase_id = ?")
      .bind(stale, purchaseId)
      .run();
    expect((await runCharge()).charged).toBe(1);
    const charges = await chargesOf(purchaseId);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ status: "success", cycle_date: cycle });
    expect(await ordersOf(purchaseId)).toHaveLength(2);
  });
});
