import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedAuthCases } from "../helpers/auth-cases";
import { countRows, createCustomerFor, customerTokenFor, ensureTenant, tokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, callWaits, json, problem } from "../helpers/request";
import { eventsWhere, locationOf, rowOf, rowsOf, storeFor } from "../orders/helpers";
import { insertConnection, setConnectionState } from "../sales-channels/helpers";
import { type MealShop, mealCustomerOf, mealShopFor, ORDERS, orderBody, payByCard } from "./helpers";

/**
 * Sales channel orders: a marketplace (channel store C) sells the meal plans of a provider store P
 * once their connection is active. The channel's customer places the order with P's `app-id` and
 * C's own access token; P's customer for them is found or created by mobile number. Both stores
 * read the orders (MX3), the customer theirs (CA15); a deactivated or deleted connection shows the
 * channel nothing and takes no order. Connections are inserted directly here (in the directory), and
 * C lives on another shard than P.
 */

const P = 9961;
const C = 9962;
const X = 9963;
let shop: MealShop;
let connectionId: number;
let channelCustomer: Awaited<ReturnType<typeof createCustomerFor>>;
let channelToken: string;
let channelLocationId: number;

const setConnection = (status: string, deleted = 0) => setConnectionState(connectionId, status, deleted);

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(P, 9_180_000);
  // The channel on another shard than the provider's: its customer and locations are read there.
  await ensureTenant(C, "SHARD_2");
  await storeFor(C);
  await storeFor(X);
  connectionId = await insertConnection(C, P);
  channelCustomer = await createCustomerFor(C, { name: "Marketplace buyer" });
  channelToken = await customerTokenFor(C, channelCustomer.id);
  channelLocationId = (await locationOf(C, channelCustomer.id)).id;
});
afterAll(() => setClock(null));

/** The channel's customer calling the provider (P's app-id, C's token). */
const asChannelCustomer = (
  path: string,
  opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) => call(path, { ...opts, token: channelToken, appId: P });

async function channelBody(extra: Record<string, unknown> = {}) {
  const { body } = await orderBody(shop, channelLocationId, { provider: "card" });
  return { ...body, channel_app_id: C, ...extra };
}

const MX3 = "/api/v1/sales-channels/meals/orders/";
const CA15 = "/api/v1/sales-channels/orders/";

describe("placing through a channel", () => {
  it("without an active connection: 403 channel_connection_inactive, nothing written, no customer made", async () => {
    const res = await asChannelCustomer(ORDERS, { method: "POST", body: await channelBody() });
    expect(await problem(res)).toMatchObject({ status: 403, code: "channel_connection_inactive", channel_app_id: C });
    expect(await countRows("customers", `app_id = ${P} AND mobile_number = '${channelCustomer.mobileNumber}'`)).toBe(0);
    expect(await countRows("meal_orders", `app_id = ${P}`)).toBe(0);
  });

  it("with an active connection: the provider's customer by mobile number, the channel on the order and the subscription", async () => {
    await setConnection("active");
    const quote = await asChannelCustomer(`${ORDERS}discounted-cart/`, { method: "POST", body: await channelBody() });
    expect(quote.status).toBe(200);
    const res = await asChannelCustomer(ORDERS, {
      method: "POST",
      body: await channelBody(),
      headers: { "city-id": "1" },
    });
    const placed = await json(res);
    expect(res.status, JSON.stringify(placed)).toBe(201);
    const provider = await rowOf(
      "SELECT * FROM customers WHERE app_id = ? AND mobile_number = ?",
      P,
      channelCustomer.mobileNumber,
    );
    expect(provider).toMatchObject({ name: "Marketplace buyer", country_code: channelCustomer.countryCode });
    expect((await eventsWhere(P, ["customer.created"], "id", provider.id)).length).toBe(1);
    expect(placed.order).toMatchObject({ app_id: P, customer_id: provider.id, cart_provider: "other" });
    expect(
      await rowOf(
        "SELECT channel_app_id, channel_customer_id, city_id, customer_id FROM meal_orders WHERE order_id = ?",
        placed.order.id,
      ),
    ).toEqual({
      channel_app_id: C,
      channel_customer_id: channelCustomer.id,
      city_id: 1,
      customer_id: provider.id,
    });
    await payByCard(placed.payment_url);
    const sub = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", placed.order.id);
    expect(sub).toMatchObject({
      app_id: P,
      customer_id: provider.id,
      channel_app_id: C,
      channel_customer_id: channelCustomer.id,
    });
    expect(JSON.parse(sub.location)).toMatchObject({ id: channelLocationId });
    expect((await eventsWhere(P, ["meal_subscription.created"], "id", sub.id)).map((e) => e.data)).toEqual([
      { id: sub.id, status: "active", channel_app_id: C },
    ]);
    // A second order finds the same customer. The channel's customer, standing and location are read
    // on C's shard, the order written on P's, in the rounds a channel order had on one database: the
    // connection beside the channel's customer, the provider's customer by mobile, the checkout's
    // reads, its one batch (two more than a store's own customer: test/meal-checkout/place-waits).
    const { res: secondRes, waits } = await callWaits(ORDERS, {
      method: "POST",
      body: await channelBody(),
      token: channelToken,
      appId: P,
    });
    const again = await json(secondRes);
    expect(secondRes.status, JSON.stringify(again)).toBe(201);
    expect(waits.beyondAuth).toBeLessThanOrEqual(4);
    expect(again.order.customer_id).toBe(provider.id);
    expect(await countRows("customers", `app_id = ${P} AND mobile_number = '${channelCustomer.mobileNumber}'`)).toBe(1);
  });

  it("channel_app_id must name the token's store; the provider's own customers send none (400)", async () => {
    for (const channel of [undefined, X]) {
      const res = await asChannelCustomer(ORDERS, {
        method: "POST",
        body: await channelBody({ channel_app_id: channel }),
      });
      expect((await problem(res)).errors).toEqual({
        channel_app_id: [`Must be ${C}: the store of the customer's access token.`],
      });
    }
    const own = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, own.locationId, { provider: "card" });
    const res = await own.shopper.as(ORDERS, { method: "POST", body: { ...body, channel_app_id: C } });
    expect((await problem(res)).errors).toEqual({
      channel_app_id: ["Send the access token of a customer of that channel store with it."],
    });
  });

  it("the channel's token is accepted on the meals checkout only: elsewhere at the provider it is 403 wrong_tenant", async () => {
    for (const path of [ORDERS, "/api/v1/subscriptions/"])
      expect(await problem(await asChannelCustomer(path))).toMatchObject({ status: 403, code: "wrong_tenant" });
    const addOn = await asChannelCustomer(`${ORDERS}add-on/`, { method: "POST", body: {} });
    expect(await problem(addOn)).toMatchObject({ status: 403, code: "wrong_tenant" });
  });
});

describe("reading channel orders (MX3, CA15)", () => {
  const merchant = async (appId: number, permissions?: string[]) => {
    const token = await tokenFor(appId, permissions as never);
    return (path: string) => call(path, { token, appId });
  };

  it("the channel and the provider see the orders; a third store nothing; the customer theirs", async () => {
    const channel = await merchant(C);
    const provider = await merchant(P);
    const third = await merchant(X);
    const placed = await rowsOf<{ order_id: number }>(
      "SELECT order_id FROM meal_orders WHERE app_id = ? AND channel_app_id = ? ORDER BY order_id DESC",
      P,
      C,
    );
    expect(placed).toHaveLength(2);
    for (const as of [channel, provider]) {
      const res = await as(MX3);
      const page = await json(res);
      expect(res.status).toBe(200);
      expect(schemaErrors("listSalesChannelMealOrders", page)).toEqual([]);
      expect(page.results.map((o: { id: number }) => o.id)).toEqual(placed.map((r) => r.order_id));
      expect(page.results[0]).toMatchObject({ app_id: P, channel_app_id: C, type: "subscription" });
      const one = await as(`${MX3}${placed[0]!.order_id}/`);
      expect(one.status).toBe(200);
    }
    expect((await json(await third(MX3))).count).toBe(0);
    expect(await problem(await third(`${MX3}${placed[0]!.order_id}/`))).toMatchObject({
      status: 404,
      code: "meal_order_not_found",
    });
    // The provider's own orders (not from a channel) are not sales channel orders.
    const own = await mealCustomerOf(shop);
    const { body } = await orderBody(shop, own.locationId, { provider: "card" });
    const mine = await json(await own.shopper.as(ORDERS, { method: "POST", body }));
    expect((await provider(`${MX3}${mine.order.id}/`)).status).toBe(404);

    const customer = await call(CA15, { token: channelToken, appId: C });
    const orders = await json(customer);
    expect(customer.status).toBe(200);
    expect(schemaErrors("listMyChannelMealOrders", orders)).toEqual([]);
    expect(orders.results.map((o: { id: number }) => o.id)).toEqual(placed.map((r) => r.order_id));
    const someoneElse = await createCustomerFor(C);
    expect((await json(await call(CA15, { token: await customerTokenFor(C, someoneElse.id), appId: C }))).count).toBe(
      0,
    );
    const noPermission = await merchant(C, ["can_read_order"]);
    expect(await problem(await noPermission(MX3))).toMatchObject({ status: 403, code: "missing_permission" });
  });

  it("a deactivated or deleted connection shows the channel nothing and takes no order; the provider keeps its orders", async () => {
    const channel = await merchant(C);
    const provider = await merchant(P);
    const orderId = (
      await rowOf<{ order_id: number }>("SELECT max(order_id) AS order_id FROM meal_orders WHERE channel_app_id = ?", C)
    ).order_id;
    for (const [status, deleted] of [
      ["inactive", 0],
      ["active", 1],
    ] as const) {
      await setConnection(status, deleted);
      expect((await json(await channel(MX3))).count).toBe(0);
      expect((await channel(`${MX3}${orderId}/`)).status).toBe(404);
      expect((await json(await call(CA15, { token: channelToken, appId: C }))).count).toBe(0);
      expect(
        await problem(await asChannelCustomer(ORDERS, { method: "POST", body: await channelBody() })),
      ).toMatchObject({
        status: 403,
        code: "channel_connection_inactive",
      });
      expect((await json(await provider(MX3))).count).toBe(2);
    }
    await setConnection("active");
    expect((await json(await channel(MX3))).count).toBe(2);
  });
});

sharedAuthCases({ method: "GET", path: MX3, permission: "can_read_sales_channels" });
