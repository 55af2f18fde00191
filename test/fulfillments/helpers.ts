import { expect } from "vitest";
import { cartOf, checkedOut, depositCashback, type Shopper, type Store, stocked } from "../orders/helpers";

export const M_FULFILLMENTS = "/order/v1/merchant/fulfillments/";
export const MY_FULFILLMENTS = "/order/v1/fulfillments/";

/** An order paid at once from cashback, of one line per item given: the checkout's order. */
export async function paidOrderOf(store: Store, s: Shopper, lines: { item_id: number; qty: number }[], extra = {}) {
  await depositCashback(store, s.id, 1000);
  const cart = await cartOf(s, { items: lines, ...extra });
  const r = await checkedOut(s, cart.id, { payment_provider: "wallet" });
  expect(r.order.payment_status).toBe("paid");
  return r.order as { id: number; items: { id: number }[]; fulfillment_status: string };
}

/** A delivery product (10.00, 50 in stock). */
export const deliveryItem = (appId: number, overrides = {}) =>
  stocked(appId, 1000, 50, { serviceType: "delivery", nameEn: "Box", nameAr: "صندوق", ...overrides });
