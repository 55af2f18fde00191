import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expireUnpaidOrders } from "../../src/modules/orders/orders/service";
import { applyGatewayOutcome } from "../../src/modules/orders/payments/settle";
import { db, serviceCtx } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, problem, json as read } from "../helpers/request";
import {
  cartOf,
  cashbackOf,
  checkedOut,
  depositCashback,
  eventsWhere,
  M_ORDERS,
  orderEventTypes,
  orderOf,
  orderRow,
  rowOf,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
  voucherOf,
} from "./helpers";

// A store of this file's own.
const A = 8321;
let store: Store;
const uniq = Date.now().toString(36);

beforeAll(async () => {
  store = await storeFor(A);
});

const cancel = (id: number, as = store) =>
  as.as(`${M_ORDERS}${id}/`, { method: "PATCH", body: { status: "cancelled" } });

/** Opens a card order's pay link as a browser would: the transaction and the gateway's reference. */
async function openPayLink(paymentUrl: string) {
  const url = new URL(paymentUrl);
  const res = await call(url.pathname + url.search, { appId: null });
  expect(res.status, await res.clone().text()).toBe(303);
  const reference = /\/payments\/fake\/([^/]+)\//.exec(res.headers.get("location") ?? "")?.[1];
  expect(reference).toBeTruthy();
  return reference!;
}

function settleDeps() {
  const pending: Promise<unknown>[] = [];
  return {
    deps: { db: db(), appId: A, env, waitUntil: (p: Promise<unknown>) => void pending.push(p) },
    done: () => Promise.all(pending),
  };
}

describe("Update Order (MO4)", () => {
  it("changes notes, reference and custom fields, with order.updated; a taken reference is a 409", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const { order } = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    const res = await store.as(`${M_ORDERS}${order.id}/`, {
      method: "PATCH",
      body: { notes: "Leave at the door", reference: `UPD-${uniq}`, custom_fields: { erp: 42 } },
    });
    const got = await read(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("updateOrder", got)).toEqual([]);
    expect(got).toMatchObject({ notes: "Leave at the door", reference: `UPD-${uniq}`, custom_fields: { erp: 42 } });
    expect(await orderRow(order.id)).toMatchObject({ notes: "Leave at the door", reference: `UPD-${uniq}` });
    const updated = await eventsWhere(A, ["order.updated"], "id", order.id);
    expect(updated.map((e) => e.data)).toEqual([
      {
        id: order.id,
        customer_id: s.id,
        status: "pending",
        payment_status: "unpaid",
        total_amount: 10,
        currency: "SAR",
      },
    ]);

    const { order: second } = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    const taken = await store.as(`${M_ORDERS}${second.id}/`, { method: "PATCH", body: { reference: `UPD-${uniq}` } });
    expect(taken.status).toBe(409);
    expect((await problem(taken)).code).toBe("conflict");
    expect((await orderRow(second.id)).reference).toBeNull();
    expect(await eventsWhere(A, ["order.updated"], "id", second.id)).toEqual([]);

    for (const body of [{}, { status: "completed" }, { status: "pending" }, { total_amount: 1 }]) {
      expect((await store.as(`${M_ORDERS}${order.id}/`, { method: "PATCH", body })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });

  it("cancels a pending order: stock, voucher use and cashback back, invoice void, events", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 3000, 5);
    const voucher = await voucherOf(store, { kind: "fixed", value: 5, usage_limit: 1 });
    await depositCashback(store, s.id, 10);
    const cart = await cartOf(s, {
      items: [{ item_id: item.id, qty: 2 }],
      voucher_code: voucher.code,
      wallet_redeem_amount: 10,
    });
    const r = await checkedOut(s, cart.id, { payment_provider: "card" });
    expect(r).toMatchObject({ total_amount: 55, wallet_redeem_amount: 10, total_amount_with_redeem: 45 });
    const id = r.order.id;
    expect(await stockOf(item.id)).toBe(3);
    expect(await cashbackOf(A, s.id)).toBe(0);
    expect(await rowOf("SELECT usage_count FROM vouchers WHERE id = ?", voucher.id)).toEqual({ usage_count: 1 });

    const res = await cancel(id);
    const got = await read(res);
    expect(res.status, JSON.stringify(got)).toBe(200);
    expect(got).toMatchObject({
      status: "cancelled",
      payment_status: "refunded",
      allowed_actions: [],
      payment_url: null,
      expires_at: null,
      invoices: [{ status: "void", serial: "-" }],
    });
    expect(got.cancelled_at).toBeTruthy();
    expect(await stockOf(item.id)).toBe(5);
    expect(await cashbackOf(A, s.id)).toBe(1000);
    expect(
      await rowsOf("SELECT type, amount, order_id FROM wallet_entries WHERE customer_id = ? ORDER BY id", s.id),
    ).toEqual([
      { type: "deposit", amount: 1000, order_id: null },
      { type: "redeem", amount: -1000, order_id: id },
      { type: "refund", amount: 1000, order_id: id },
    ]);
    expect(await rowOf("SELECT usage_count FROM vouchers WHERE id = ?", voucher.id)).toEqual({ usage_count: 0 });
    const [use] = await rowsOf<{ released_at: string | null }>(
      "SELECT released_at FROM voucher_usages WHERE voucher_id = ?",
      voucher.id,
    );
    expect(use!.released_at).toBeTruthy();
    expect(await orderEventTypes(A, id)).toEqual(["order.created", "order.cancelled"]);
    expect((await eventsWhere(A, ["order.cancelled"], "id", id))[0]!.data).toMatchObject({
      status: "cancelled",
      payment_status: "refunded",
    });
    expect((await eventsWhere(A, ["invoice.voided"], "order_id", id)).length).toBe(1);
    const used = await eventsWhere(A, ["voucher.used"], "id", voucher.id);
    expect(used.map((e) => [e.data.action, e.data.order_id, e.data.usage_count])).toEqual([
      ["use", id, 1],
      ["release", id, 0],
    ]);
    // The voucher's single use is free again: another customer can use it.
    const next = await shopperOf(A);
    const again = await orderOf(next, [{ item_id: item.id, qty: 1 }], "cash_on_delivery", {
      voucher_code: voucher.code,
    });
    expect(again.total_amount).toBe(25);
  });

  it("the cashback given back on cancel is announced (customer.wallet.updated)", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 3000, 5);
    await depositCashback(store, s.id, 10);
    const cart = await cartOf(s, { items: [{ item_id: item.id, qty: 1 }], wallet_redeem_amount: 10 });
    const r = await checkedOut(s, cart.id, { payment_provider: "card" });
    expect((await cancel(r.order.id)).status).toBe(200);
    const events = await eventsWhere(A, ["customer.wallet.updated"], "customer_id", s.id);
    expect(events.map((e) => [e.data.type, e.data.amount])).toEqual([
      ["deposit", 10],
      ["redeem", -10],
      ["refund", 10],
    ]);
  });

  it("cancelling a cash-on-delivery order fails its pending transaction", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const { order } = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    expect((await cancel(order.id)).status).toBe(200);
    expect(await rowsOf("SELECT status FROM transactions WHERE order_id = ?", order.id)).toEqual([
      { status: "failed" },
    ]);
    expect(await stockOf(item.id)).toBe(5);
  });

  it("a completed or cancelled order cannot be cancelled: 409 invalid_state_transition with allowed_actions", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    await depositCashback(store, s.id, 10);
    const { order } = await orderOf(s, [{ item_id: item.id, qty: 1 }], "wallet");
    const before = await orderRow(order.id);
    const res = await cancel(order.id);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({
      code: "invalid_state_transition",
      current_status: "completed",
      allowed_actions: ["refund"],
    });
    expect(await orderRow(order.id)).toEqual(before);
    expect(await stockOf(item.id)).toBe(4);

    const { order: pending } = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    expect((await cancel(pending.id)).status).toBe(200);
    const twice = await cancel(pending.id);
    expect(twice.status).toBe(409);
    expect(await problem(twice)).toMatchObject({ current_status: "cancelled", allowed_actions: [] });
    expect(await stockOf(item.id)).toBe(4);
    expect(await orderEventTypes(A, pending.id)).toEqual(["order.created", "order.cancelled"]);
  });
});

describe("expireUnpaidOrders (the scheduled sweep)", () => {
  it("expires pending orders past their deadline: stock back, invoice void, order.expired", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const card = (await orderOf(s, [{ item_id: item.id, qty: 2 }], "card")).order;
    const cod = (await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery")).order;
    expect(await stockOf(item.id)).toBe(2);
    const now = new Date(Date.parse(card.expires_at) + 1000).toISOString();
    const contexts: ReturnType<typeof serviceCtx>[] = [];
    const contextOf = (appId: number) => {
      const ctx = serviceCtx(appId);
      contexts.push(ctx);
      return ctx;
    };
    // Before its deadline nothing happens to it.
    await expireUnpaidOrders(contextOf, db(), new Date(Date.parse(card.expires_at) - 60_000).toISOString());
    expect((await orderRow(card.id)).status).toBe("pending");

    // Counted after the early sweep: other files' orders share the database, some already past due.
    const due = await rowOf<{ n: number }>(
      "SELECT count(*) AS n FROM orders WHERE status = 'pending' AND expires_at <= ?",
      now,
    );
    expect(await expireUnpaidOrders(contextOf, db(), now)).toBe(Math.min(due.n, 100));
    await Promise.all(contexts.map((c) => c.settle()));
    expect(await orderRow(card.id)).toMatchObject({ status: "expired", expires_at: null, cancelled_at: null });
    expect((await orderRow(cod.id)).status).toBe("pending");
    expect(await stockOf(item.id)).toBe(4);
    expect(await rowsOf("SELECT status FROM invoices WHERE order_id = ?", card.id)).toEqual([{ status: "void" }]);
    expect(await orderEventTypes(A, card.id)).toEqual(["order.created", "order.expired"]);
    expect((await eventsWhere(A, ["invoice.voided"], "order_id", card.id)).length).toBe(1);
    // Again: nothing more to do for it.
    await expireUnpaidOrders(contextOf, db(), now);
    expect(await orderEventTypes(A, card.id)).toEqual(["order.created", "order.expired"]);
    expect(await stockOf(item.id)).toBe(4);
    // An expired order's pay link is refused.
    const url = new URL(card.payment_url);
    const res = await call(url.pathname + url.search, { appId: null });
    expect(res.status).toBe(409);
    expect((await problem(res)).code).toBe("invalid_state_transition");
  });
});

describe("A payment racing a cancel", () => {
  it("one wins, the other is refused, and the stock agrees with the winner", async () => {
    for (let round = 0; round < 3; round++) {
      const s = await shopperOf(A);
      const item = await stocked(A, 1000, 5);
      const r = await orderOf(s, [{ item_id: item.id, qty: 2 }], "card");
      const reference = await openPayLink(r.payment_url);
      const { deps, done } = settleDeps();
      const [cancelled, settled] = await Promise.all([
        cancel(r.order.id),
        applyGatewayOutcome(deps, {
          gateway: "fake",
          reference,
          status: "captured",
          paymentMethod: null,
          message: null,
          details: {},
        }),
      ]);
      await done();
      const row = await orderRow(r.order.id);
      if (cancelled.status === 200) {
        expect(row.status).toBe("cancelled");
        expect(await stockOf(item.id)).toBe(5);
        expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.cancelled"]);
        // The capture landed on a cancelled order (either it read the order cancelled, or its
        // "paid" batch lost to the cancellation's): recorded as a second capture and given back
        // whole, never kept.
        expect(settled!.status).toBe("captured");
        const refunds = await rowsOf(
          "SELECT status, amount_minor FROM transactions WHERE order_id = ? AND type = 'refund'",
          r.order.id,
        );
        const [payment] = await rowsOf(
          "SELECT amount_minor FROM transactions WHERE order_id = ? AND type = 'payment' AND status = 'captured'",
          r.order.id,
        );
        expect(refunds).toEqual([{ status: "refunded", amount_minor: payment!.amount_minor }]);
      } else {
        expect(cancelled.status).toBe(409);
        expect((await problem(cancelled)).code).toBe("invalid_state_transition");
        expect(settled!.status).toBe("captured");
        expect(row).toMatchObject({ status: "completed", payment_status: "paid" });
        expect(await stockOf(item.id)).toBe(3);
        expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
      }
    }
  });
});
