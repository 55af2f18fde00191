import { expect } from "vitest";
import type { GatewayOutcome } from "../../src/modules/orders/payments/provider";
import { call, json as read } from "../helpers/request";
import { rowsOf, shopperOf, stocked } from "./helpers";

/** What the card payment tests (payments*.test.ts) share: pending card orders, the pay link, the gateway's outcome. */

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** A browser following a link: no token, no app-id. */
export const browse = (url: string, method = "GET") => call(pathOf(url), { appId: null, method });

export const cardTransactions = (orderId: number) =>
  rowsOf("SELECT * FROM transactions WHERE order_id = ? AND payment_provider = 'card' ORDER BY id", orderId);

/** A pending card order of a new customer of store `appId`: the checkout result. */
export async function cardOrder(
  appId: number,
  qty = 1,
  priceMinor = 1500,
  checkoutExtra: Record<string, unknown> = {},
) {
  const s = await shopperOf(appId);
  const item = await stocked(appId, priceMinor, 10);
  const cart = await s.as("/order/v1/carts/", { method: "POST", body: { items: [{ item_id: item.id, qty }] } });
  const cartId = (await read(cart)).id;
  const res = await s.as(`/order/v1/carts/${cartId}/checkout/`, {
    method: "POST",
    body: { payment_provider: "card", lang: "en", ...checkoutExtra },
  });
  const r = await read(res);
  expect(res.status, JSON.stringify(r)).toBe(201);
  return { ...r, shopper: s, item };
}

/** Opens the pay link: 303 to the fake gateway's page; the page URL and the payment's reference. */
export async function startPayment(paymentUrl: string) {
  const res = await browse(paymentUrl);
  expect(res.status, await res.clone().text()).toBe(303);
  const page = res.headers.get("location")!;
  const reference = /\/order\/v1\/payments\/fake\/([^/]+)\/\?/.exec(page)?.[1];
  expect(reference).toMatch(/^fake_[A-Za-z0-9_-]{16}$/);
  return { page, reference: reference! };
}

/** The fake gateway page's Pay or Fail button: the URL its form posts to. */
export const formAction = (html: string, cls: "pay" | "fail") => {
  const m = new RegExp(`<form method="post" action="([^"]+)"><button class="${cls}"`).exec(html);
  expect(m, html).toBeTruthy();
  return `https://api.test${m![1]!.replaceAll("&amp;", "&")}`;
};

export const outcome = (reference: string, over: Partial<GatewayOutcome> = {}): GatewayOutcome => ({
  gateway: "fake",
  reference,
  status: "captured",
  paymentMethod: "mada",
  message: null,
  details: { outcome: "paid" },
  ...over,
});
