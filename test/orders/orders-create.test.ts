import { beforeAll, describe, expect, it } from "vitest";
import { ensureTenant } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { problem, json as read } from "../helpers/request";
import {
  M_ORDERS,
  orderEventTypes,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  stockOf,
  storeFor,
  writtenCounts,
} from "./helpers";

// Stores of this file's own: 8311 (the store), 8312 (another tenant).
const A = 8311;
const B = 8312;
let store: Store;
const uniq = Date.now().toString(36);

beforeAll(async () => {
  store = await storeFor(A);
  await ensureTenant(B);
});

describe("Create Order (MO4): a phone order", () => {
  it("201 pending with a pay link, stock taken; a duplicate reference is a 409 that writes nothing", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1200, 5);
    const body = {
      customer_id: s.id,
      items: [{ item_id: item.id, qty: 2 }],
      reference: `PHONE-${uniq}`,
      notes: "Call before",
      custom_fields: { channel: "phone" },
    };
    const res = await store.as(M_ORDERS, { method: "POST", body });
    const order = await read(res);
    expect(res.status, JSON.stringify(order)).toBe(201);
    expect(schemaErrors("createOrder", order, "201")).toEqual([]);
    expect(order).toMatchObject({
      status: "pending",
      payment_status: "unpaid",
      payment_provider: "card",
      cart_provider: "other",
      cart_id: null,
      customer_id: s.id,
      reference: `PHONE-${uniq}`,
      notes: "Call before",
      custom_fields: { channel: "phone" },
      total_amount: 24,
      invoices: [{ serial: "-", status: "unpaid", type: "invoice", total_amount: 24 }],
    });
    expect(order.payment_url).toMatch(new RegExp(`/order/v1/checkout/${order.id}/\\?entity=order&app_id=${A}&`));
    expect(order.expires_at).toBeTruthy();
    expect(await stockOf(item.id)).toBe(3);
    expect(await orderEventTypes(A, order.id)).toEqual(["order.created"]);

    const before = await writtenCounts(A);
    const dup = await store.as(M_ORDERS, { method: "POST", body: { ...body, items: [{ item_id: item.id, qty: 1 }] } });
    expect(dup.status).toBe(409);
    expect((await problem(dup)).code).toBe("conflict");
    expect(await writtenCounts(A)).toEqual(before);
    expect(await stockOf(item.id)).toBe(3);
  });

  it("cash on delivery and bank transfer are placed like a checkout", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const res = await store.as(M_ORDERS, {
      method: "POST",
      body: { customer_id: s.id, items: [{ item_id: item.id, qty: 1 }], payment_provider: "bank_transfer" },
    });
    const order = await read(res);
    expect(res.status).toBe(201);
    expect(order).toMatchObject({ payment_status: "pending_review", payment_url: null, reference: null });
    expect(await rowsOf("SELECT status FROM transactions WHERE order_id = ?", order.id)).toEqual([
      { status: "pending_review" },
    ]);
  });

  it("refuses a voucher that does not apply (400) and lines that cannot be ordered (400 items.N)", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 5);
    const before = await writtenCounts(A);
    const v = await store.as(M_ORDERS, {
      method: "POST",
      body: { customer_id: s.id, items: [{ item_id: item.id, qty: 1 }], voucher_code: "NOPE-404" },
    });
    expect(v.status).toBe(400);
    expect((await problem(v)).errors).toEqual({ voucher_code: ["No voucher with this code."] });
    const bad = await store.as(M_ORDERS, {
      method: "POST",
      body: {
        customer_id: s.id,
        items: [
          { item_id: item.id, qty: 1 },
          { item_id: 999_999_999, qty: 1 },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((await problem(bad)).errors!)).toEqual(["items.1"]);
    expect(await writtenCounts(A)).toEqual(before);
  });

  it("a customer that is not the store's is a 404 customer_not_found, and no order is placed", async () => {
    const item = await stocked(A, 1000, 5);
    const foreign = await shopperOf(B);
    for (const customerId of [999_999_999, foreign.id]) {
      const res = await store.as(M_ORDERS, {
        method: "POST",
        body: { customer_id: customerId, items: [{ item_id: item.id, qty: 1 }] },
      });
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("customer_not_found");
    }
    expect(await stockOf(item.id)).toBe(5);
  });
});
