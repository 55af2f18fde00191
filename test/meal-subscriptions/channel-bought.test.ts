import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { createCustomerFor, customerTokenFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { call, json, problem } from "../helpers/request";
import { type MealShop, mealShopFor, ORDERS, orderBody } from "../meal-checkout/helpers";
import { depositCashback, locationOf, rowOf, rowsOf } from "../orders/helpers";
import { acted, connect, type Shop, storeOf } from "../sales-channels/helpers";
import { eventsOf, ok, rowsOfSub, subRow } from "./seed";

/**
 * A channel subscription from end to end, through the API only: a marketplace store C asks the
 * provider store P for a connection and P accepts it; C's customer buys P's Keto week through C
 * (Place Order with P's `app-id`, `channel_app_id` C and a `city-id`), paid by P's wallet of the
 * provider-side customer; the customer lists the subscription with C's `app-id` (CA15) and cancels
 * it there; once the connection is deactivated, C's side sees nothing of it.
 *
 * The clock: Monday 2026-03-02, noon in Riyadh. Keto week starts the next day (both start_after
 * are 1) and delivers on 7 days skipping Fridays: 03-03 to 03-10. The cutoff (24 h) makes 03-04 the
 * first date that can still be cancelled.
 */

const P = 6281;
const C = 6282;
const MX4 = "/api/v1/sales-channels/meals/subscriptions/";
const CA15 = "/api/v1/sales-channels/subscriptions/";
const DATES = ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"];

const SUBSCRIPTION_EVENTS = [
  "created",
  "activated",
  "renewed",
  "paused",
  "resumed",
  "cancelled",
  "completed",
  "updated",
].map((e) => `meal_subscription.${e}`);

let shop: MealShop;
let provider: Shop;
let channel: Shop;
let connectionId: number;
let buyer: Awaited<ReturnType<typeof createCustomerFor>>;
let token: string;
let locationId: number;
let subscriptionId: number;
let orderId: number;

beforeAll(async () => {
  setClock("2026-03-02T09:00:00.000Z");
  shop = await mealShopFor(P, 9_190_000);
  provider = await storeOf(P);
  channel = await storeOf(C);
  connectionId = await connect(channel, provider);
  buyer = await createCustomerFor(C, { name: "Marketplace buyer" });
  token = await customerTokenFor(C, buyer.id);
  locationId = (await locationOf(C, buyer.id)).id;
});
afterAll(() => setClock(null));

type Opts = { method?: string; body?: unknown; headers?: Record<string, string> };
/** The channel's customer at the provider's checkout (P's app-id, C's token). */
const atProvider = (path: string, opts: Opts = {}) => call(path, { ...opts, token, appId: P });
/** The channel's customer in the channel's own app (C's app-id). */
const atChannel = (path: string, opts: Opts = {}) => call(path, { ...opts, token, appId: C });

const providerCustomer = () =>
  rowOf<{ id: number }>("SELECT id FROM customers WHERE app_id = ? AND mobile_number = ?", P, buyer.mobileNumber);
const walletOf = (customerId: number) =>
  rowsOf<{ type: string; amount: number; balance_after: number; order_id: number | null }>(
    "SELECT type, amount, balance_after, order_id FROM wallet_entries WHERE app_id = ? AND customer_id = ? ORDER BY id",
    P,
    customerId,
  );

describe("a channel subscription bought through Place Order and cancelled through CA15", () => {
  it("placed with the provider's app-id and channel_app_id, paid by the wallet: an active subscription of P sold by C", async () => {
    const { term, body } = await orderBody(shop, locationId, { provider: "wallet" });
    expect(term.dates).toEqual(DATES);
    const order = { ...body, channel_app_id: C };
    const headers = { "city-id": "1" };
    // The calculator admits the channel customer: P's customer for them is made (by mobile number).
    const quote = await atProvider(`${ORDERS}discounted-cart/`, { method: "POST", body: order, headers });
    expect(quote.status, await quote.clone().text()).toBe(200);
    const customer = await providerCustomer();
    await depositCashback(shop.store, customer.id, (term.priceMinor + term.deliveryMinor) / 100);

    const res = await atProvider(ORDERS, { method: "POST", body: order, headers });
    const placed = await json(res);
    expect(res.status, JSON.stringify(placed)).toBe(201);
    expect(placed.order).toMatchObject({ app_id: P, customer_id: customer.id, cart_provider: "other" });
    orderId = placed.order.id;
    expect(
      await rowOf("SELECT status, payment_provider FROM orders WHERE id = ?", orderId),
      "paid by the wallet at once (nothing to ship: completed)",
    ).toMatchObject({ status: "completed", payment_provider: "wallet" });

    const sub = await rowOf("SELECT * FROM meal_subscriptions WHERE order_id = ?", orderId);
    expect(sub).toMatchObject({
      app_id: P,
      customer_id: customer.id,
      status: "active",
      channel_app_id: C,
      channel_customer_id: buyer.id,
      cancel_credits: 0,
    });
    subscriptionId = sub.id;
    expect((await rowsOfSub(subscriptionId)).map((s) => s.date).sort()).toEqual(DATES);
    expect(await rowOf("SELECT channel_app_id, city_id FROM meal_orders WHERE order_id = ?", orderId)).toEqual({
      channel_app_id: C,
      city_id: 1,
    });
  });

  it("the customer lists it in the channel's app (CA15), with its cancel bounds; C and P see it (MX4)", async () => {
    const page = await ok(await atChannel(CA15));
    expect(schemaErrors("listMyChannelSubscriptions", page)).toEqual([]);
    expect(page.results.map((r: any) => r.id)).toEqual([subscriptionId]);
    expect(page.results[0]).toMatchObject({
      app_id: P,
      channel_app_id: C,
      status: "active",
      min_cancel_date: "2026-03-04",
      max_cancel_date: "2026-03-10",
      can_cancel: true,
      cancel_credits: 0,
    });
    const details = await ok(await atChannel(`${CA15}${subscriptionId}/`));
    expect(schemaErrors("getMyChannelSubscription", details)).toEqual([]);
    expect(details.id).toBe(subscriptionId);
    for (const store of [channel, provider])
      expect((await ok(await store.as(`${MX4}?page_size=100`))).results.map((r: any) => r.id)).toEqual([
        subscriptionId,
      ]);
    // The token is the channel's: the provider's own customer routes do not take it.
    expect(await problem(await atProvider("/api/v1/subscriptions/"))).toMatchObject({
      status: 403,
      code: "wrong_tenant",
    });
  });

  it("cancelled through CA15: 409 before the first cancellable date; then the later deliveries cancelled, owed as credits, no refund", async () => {
    const customer = await providerCustomer();
    const walletBefore = await walletOf(customer.id);
    const before = await rowsOfSub(subscriptionId);
    const firstStatus = before.find((s) => s.date === "2026-03-03")!.status;

    const early = await atChannel(`${CA15}${subscriptionId}/cancel/`, {
      method: "POST",
      body: { from_date: "2026-03-03" },
    });
    expect(await problem(early)).toMatchObject({
      status: 409,
      code: "cancel_date_out_of_range",
      first_valid_date: "2026-03-04",
      last_valid_date: "2026-03-10",
    });
    expect((await subRow(subscriptionId)).status).toBe("active");

    const body = await ok(await atChannel(`${CA15}${subscriptionId}/cancel/`, { method: "POST", body: {} }));
    expect(schemaErrors("cancelMyChannelSubscription", body)).toEqual([]);
    expect(body).toMatchObject({
      id: subscriptionId,
      app_id: P,
      channel_app_id: C,
      status: "cancelled",
      cancel_credits: 6,
      can_cancel: false,
      min_cancel_date: null,
    });

    // Stored: the subscription cancelled with its credits; the delivery within the cutoff kept.
    expect(await subRow(subscriptionId)).toMatchObject({ status: "cancelled", cancel_credits: 6 });
    expect((await subRow(subscriptionId)).cancelled_at).toBe("2026-03-02T09:00:00.000Z");
    const after = await rowsOfSub(subscriptionId);
    expect(after.map((s) => [s.date, s.status, s.is_frozen])).toEqual(
      before.map((s) => [s.date, s.date === "2026-03-03" ? firstStatus : "cancelled_by_customer", 0]),
    );
    // The rules owe the dropped deliveries as `cancel_credits`: no refund, no wallet entry, the order as it was.
    expect(await walletOf(customer.id)).toEqual(walletBefore);
    expect((await rowOf("SELECT status FROM orders WHERE id = ?", orderId)).status).toBe("completed");
    expect(
      await rowOf("SELECT count(*) AS n FROM transactions WHERE order_id = ? AND type = 'refund'", orderId),
    ).toEqual({ n: 0 });

    // Events: the provider's, each with the channel; the channel store gets none.
    const mine = (await eventsOf(P, SUBSCRIPTION_EVENTS)).filter((e) => e.data.id === subscriptionId);
    expect(mine.map((e) => e.type)).toEqual([
      "meal_subscription.created",
      "meal_subscription.activated",
      "meal_subscription.cancelled",
    ]);
    for (const e of mine) expect(e.data.channel_app_id, e.type).toBe(C);
    expect(mine.at(-1)!.data).toEqual({
      id: subscriptionId,
      status: "cancelled",
      channel_app_id: C,
      from_date: "2026-03-04",
      cancelled_count: 6,
      cancel_credits: 6,
    });
    const suborders = (await eventsOf(P, ["suborder.status_changed"])).filter(
      (e) => e.data.subscription_id === subscriptionId,
    );
    expect(suborders.map((e) => [e.data.date, e.data.to])).toEqual(
      DATES.slice(1).map((d) => [d, "cancelled_by_customer"]),
    );
    expect(await eventsOf(C, SUBSCRIPTION_EVENTS)).toEqual([]);

    // Cancelled is final: a second cancel is a 409.
    const again = await atChannel(`${CA15}${subscriptionId}/cancel/`, { method: "POST", body: {} });
    expect(await problem(again)).toMatchObject({ status: 409, code: "invalid_state_transition" });
  });

  it("deactivated by either side, the connection hides it from C and its customer; P keeps it; activated, it is back", async () => {
    await acted(provider, connectionId, "deactivate");
    expect((await ok(await channel.as(MX4))).count).toBe(0);
    expect(await problem(await channel.as(`${MX4}${subscriptionId}/`))).toMatchObject({
      status: 404,
      code: "meal_subscription_not_found",
    });
    expect((await ok(await atChannel(CA15))).count).toBe(0);
    expect((await atChannel(`${CA15}${subscriptionId}/`)).status).toBe(404);
    expect((await atChannel(`${CA15}${subscriptionId}/cancel/`, { method: "POST", body: {} })).status).toBe(404);
    expect((await ok(await provider.as(`${MX4}${subscriptionId}/`))).status).toBe("cancelled");
    // Nor can the customer buy through it.
    const { body } = await orderBody(shop, locationId, { provider: "wallet" });
    expect(
      await problem(await atProvider(ORDERS, { method: "POST", body: { ...body, channel_app_id: C } })),
    ).toMatchObject({ status: 403, code: "channel_connection_inactive" });

    await acted(provider, connectionId, "activate");
    expect((await ok(await atChannel(CA15))).results.map((r: any) => r.id)).toEqual([subscriptionId]);
    expect((await ok(await channel.as(`${MX4}${subscriptionId}/`))).status).toBe("cancelled");
  });
});
