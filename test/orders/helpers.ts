import { expect } from "vitest";
import { customerLocations } from "../../src/modules/customers/tables";
import {
  APP_1,
  createCustomerFor,
  createPlainItem,
  customerTokenFor,
  db,
  ensureTenant,
  shardFor,
  tokenFor,
} from "../helpers/factories";
import { call, callWaits, json } from "../helpers/request";

/** The paths of the commerce routes (customer ones have no `/merchant/`). */
export const CARTS = "/order/v1/carts/";
export const M_CARTS = "/order/v1/merchant/carts/";
export const M_ORDERS = "/order/v1/merchant/orders/";
export const MY_ORDERS = "/order/v1/orders/";
export const M_CONFIG = "/order/v1/merchant/checkout/config/";
export const VOUCHERS = "/order/v1/merchant/vouchers/";

/** A store of the test's own (its config, counters and events are the test file's alone) and a merchant token. */
export async function storeFor(appId: number) {
  await ensureTenant(appId);
  const token = await tokenFor(appId);
  const as = (path: string, opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    call(path, { ...opts, token, appId });
  return { appId, token, as };
}

export type Store = Awaited<ReturnType<typeof storeFor>>;

let names = 0;
/** A customer of the store with an access token, and a caller acting as them. */
export async function shopperOf(appId: number, overrides: Parameters<typeof createCustomerFor>[1] = {}) {
  names += 1;
  const row = await createCustomerFor(appId, { name: `Shopper ${names}`, ...overrides });
  const token = await customerTokenFor(appId, row.id);
  const as = (path: string, opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    call(path, { ...opts, token, appId });
  return { id: row.id, row, token, as };
}

export type Shopper = Awaited<ReturnType<typeof shopperOf>>;

/** A plain product at `priceMinor` (VAT included) with `stockQty` units on hand. */
export const stocked = (appId: number, priceMinor: number, stockQty: number, overrides = {}) =>
  createPlainItem(appId, { priceMinor, stockQty, ...overrides });

export async function locationOf(appId: number, customerId: number) {
  const [row] = await db(appId)
    .insert(customerLocations)
    .values({ appId, customerId, latitude: 24.7, longitude: 46.7, address1: "King Fahd Rd", nameEn: "Home" })
    .returning();
  return row!;
}

/** Creates a cart (201 expected) and returns its body. */
export async function cartOf(s: Shopper, body: Record<string, unknown>) {
  const res = await s.as(CARTS, { method: "POST", body });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out;
}

export const checkout = (s: Shopper, cartId: number, body: Record<string, unknown>, headers = {}) =>
  s.as(`${CARTS}${cartId}/checkout/`, { method: "POST", body, headers });

/** A cash-on-delivery Checkout under an Idempotency-Key, and the D1 round trips it waited for. */
export const keyedCheckoutWaits = (appId: number, s: Shopper, cartId: number, key: string) =>
  callWaits(`${CARTS}${cartId}/checkout/`, {
    method: "POST",
    body: { payment_provider: "cash_on_delivery" },
    token: s.token,
    appId,
    headers: { "Idempotency-Key": key },
  });

/** Checks a cart out (201 expected) and returns the checkout result. */
export async function checkedOut(s: Shopper, cartId: number, body: Record<string, unknown>) {
  const res = await checkout(s, cartId, body);
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out;
}

/** A cart of `lines` checked out with `provider`: the checkout result. */
export async function orderOf(s: Shopper, lines: { item_id: number; qty: number }[], provider = "card", extra = {}) {
  const cart = await cartOf(s, { items: lines, ...extra });
  return checkedOut(s, cart.id, { payment_provider: provider });
}

export async function setConfig(store: Store, body: Record<string, unknown>) {
  const res = await store.as(M_CONFIG, { method: "POST", body });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
}

export async function depositCashback(store: Store, customerId: number, amount: number) {
  const res = await store.as(`/order/v1/merchant/customers/${customerId}/wallet/deposit-cashback/`, {
    method: "POST",
    body: { amount, reason: "Test cashback" },
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

let codes = 0;
export async function voucherOf(store: Store, body: Record<string, unknown> = {}) {
  codes += 1;
  const code = `ORD${Date.now().toString(36).toUpperCase()}${codes}`;
  const res = await store.as(VOUCHERS, {
    method: "POST",
    body: { code, title_en: "Off", title_ar: "خصم", kind: "percentage", value: 10, ...body },
  });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out as { id: number; code: string; usage_count: number };
}

export type OutboxEvent = { id: string; type: string; app_id: number; data: Record<string, any> };

/** The store's outbox events of `types` whose `data.<key>` is `value`, oldest first. */
export async function eventsWhere(appId: number, types: string[], key: string, value: number | string) {
  const rows = await shardFor(appId)
    .prepare(
      `SELECT payload FROM outbox_events WHERE app_id = ? AND type IN (SELECT value FROM json_each(?))
       AND json_extract(payload, '$.data.${key}') = ? ORDER BY rowid`,
    )
    .bind(appId, JSON.stringify(types), value)
    .all<{ payload: string }>();
  return rows.results.map((r) => JSON.parse(r.payload) as OutboxEvent);
}

/** The types of an order's events (order.*), oldest first. */
export const orderEventTypes = async (appId: number, orderId: number) =>
  (
    await eventsWhere(
      appId,
      [
        "order.created",
        "order.updated",
        "order.paid",
        "order.completed",
        "order.cancelled",
        "order.expired",
        "order.refunded",
      ],
      "id",
      orderId,
    )
  ).map((e) => e.type);

/** A row of the store's shard, by raw SQL (ids are unique per shard only: the store picks it). */
export async function storeRow<T = Record<string, any>>(appId: number, sql: string, ...binds: unknown[]) {
  return (await shardFor(appId)
    .prepare(sql)
    .bind(...binds)
    .first<T>())!;
}

/** The rows of the store's shard, by raw SQL. */
export async function storeRows<T = Record<string, any>>(appId: number, sql: string, ...binds: unknown[]) {
  return (
    await shardFor(appId)
      .prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

/** `storeRow` of APP_1, the store most of the orders tests use. */
export const rowOf = <T = Record<string, any>>(sql: string, ...binds: unknown[]) => storeRow<T>(APP_1, sql, ...binds);

export const rowsOf = <T = Record<string, any>>(sql: string, ...binds: unknown[]) => storeRows<T>(APP_1, sql, ...binds);

/** The order row as stored. */
export const orderRow = (id: number) => rowOf("SELECT * FROM orders WHERE id = ?", id);

export const stockOf = async (itemId: number) =>
  (await rowOf<{ stock_qty: number }>("SELECT stock_qty FROM items WHERE id = ?", itemId)).stock_qty;

export const cashbackOf = async (appId: number, customerId: number) =>
  (
    await rowOf<{ b: number }>(
      `SELECT coalesce((SELECT balance_after FROM wallet_entries WHERE app_id = ? AND customer_id = ?
         AND kind = 'cashback' ORDER BY id DESC LIMIT 1), 0) AS b`,
      appId,
      customerId,
    )
  ).b;

/** A row count that a write must not change: the order tables of the store. */
export async function writtenCounts(appId: number) {
  return rowOf<Record<string, number>>(
    `SELECT (SELECT count(*) FROM orders WHERE app_id = ?1) AS orders,
       (SELECT count(*) FROM order_items WHERE app_id = ?1) AS order_items,
       (SELECT count(*) FROM invoices WHERE app_id = ?1) AS invoices,
       (SELECT count(*) FROM transactions WHERE app_id = ?1) AS transactions,
       (SELECT count(*) FROM wallet_entries WHERE app_id = ?1) AS wallet_entries,
       (SELECT count(*) FROM voucher_usages WHERE app_id = ?1) AS voucher_usages,
       (SELECT count(*) FROM outbox_events WHERE app_id = ?1 AND type NOT IN ('cart.created', 'cart.updated'))
         AS events`,
    appId,
  );
}
