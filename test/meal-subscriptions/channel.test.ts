import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { sharedAuthCases, sharedCustomerAuthCases } from "../helpers/auth-cases";
import { ensureTenant, shardFor } from "../helpers/factories";
import { schemaErrors } from "../helpers/meals";
import { problem } from "../helpers/request";
import { type Store, shopperOf, storeFor } from "../orders/helpers";
import { insertConnection, setConnectionState } from "../sales-channels/helpers";
import { clockAt, customerOf, eventsOf, type MealStore, mealStoreOf, ok, subscriptionOf } from "./seed";

// A provider store P (its restaurant, plan and subscriptions), a channel store CH connected to it,
// and a store X connected to nothing. Connections are inserted directly in the directory (their API
// is tested apart); CH lives on another shard than P.
const P = 6241;
const CH = 6242;
const X = 6243;
const M_SUBS = "/api/v1/sales-channels/meals/subscriptions/";
const MY = "/api/v1/sales-channels/subscriptions/";

let p: MealStore;
let ch: Store;
let x: Store;
let connectionId: number;

beforeAll(async () => {
  p = await mealStoreOf(P);
  // The channel on another shard than the provider's.
  await ensureTenant(CH, "SHARD_2");
  ch = await storeFor(CH);
  x = await storeFor(X);
  connectionId = await insertConnection(CH, P, "active");
});
beforeEach(() => clockAt("2026-03-02T09:00:00Z"));
afterAll(() => setClock(null));

const setConnection = (status: string, deleted = 0) => setConnectionState(connectionId, status, deleted);

/** A subscription at P bought through CH by `buyer` (a customer of CH), and one bought at P directly. */
async function sold() {
  const buyer = await shopperOf(CH);
  const atP = await customerOf(p);
  const viaChannel = await subscriptionOf(p, atP, {
    start: "2026-03-03",
    count: 4,
    subscription: { channelAppId: CH, channelCustomerId: buyer.id },
  });
  const direct = await subscriptionOf(p, atP, { start: "2026-03-03", count: 2 });
  return { buyer, atP, viaChannel, direct };
}

sharedAuthCases({ method: "GET", path: M_SUBS, permission: "can_read_sales_channels" });
sharedAuthCases({ method: "GET", path: `${M_SUBS}1/`, permission: "can_read_sales_channels" });
sharedCustomerAuthCases({ method: "GET", path: MY });
sharedCustomerAuthCases({ method: "POST", path: `${MY}1/cancel/`, body: {} });

describe("Sales Channel Subscriptions (MX4)", () => {
  it("the channel sees what it sold at its active providers; the provider what it received; others nothing", async () => {
    await setConnection("active");
    const { viaChannel, direct } = await sold();
    const seen = await ok(await ch.as(`${M_SUBS}?page_size=100`));
    expect(schemaErrors("listSalesChannelMealSubscriptions", seen)).toEqual([]);
    const ids = seen.results.map((r: any) => r.id);
    expect(ids).toContain(viaChannel.id);
    expect(ids).not.toContain(direct.id);
    const mine = seen.results.find((r: any) => r.id === viaChannel.id);
    expect(mine).toMatchObject({ app_id: P, channel_app_id: CH, min_cancel_date: "2026-03-04" });
    const provider = await ok(await p.as(`${M_SUBS}?page_size=100`));
    expect(provider.results.map((r: any) => r.id)).toContain(viaChannel.id);
    expect(provider.results.map((r: any) => r.id)).not.toContain(direct.id);
    expect((await ok(await ch.as(`${M_SUBS}?app_id=${P}&page_size=100`))).results.map((r: any) => r.id)).toContain(
      viaChannel.id,
    );
    const details = await ok(await ch.as(`${M_SUBS}${viaChannel.id}/`));
    expect(schemaErrors("getSalesChannelMealSubscription", details)).toEqual([]);
    expect(details.upcoming_suborders).toHaveLength(4);
    expect((await ok(await x.as(M_SUBS))).count).toBe(0);
    const hidden = await x.as(`${M_SUBS}${viaChannel.id}/`);
    expect(hidden.status).toBe(404);
    expect((await problem(hidden)).code).toBe("meal_subscription_not_found");
    expect((await ch.as(`${M_SUBS}${direct.id}/`)).status).toBe(404);
  });

  it("a deactivated or deleted connection shows the channel nothing; the provider keeps its own", async () => {
    await setConnection("active");
    const { viaChannel, buyer } = await sold();
    for (const [status, deleted] of [
      ["inactive", 0],
      ["pending", 0],
      ["active", 1],
    ] as const) {
      await setConnection(status, deleted);
      const page = await ok(await ch.as(`${M_SUBS}?page_size=100`));
      expect(
        page.results.map((r: any) => r.id),
        `${status} ${deleted}`,
      ).not.toContain(viaChannel.id);
      expect((await ch.as(`${M_SUBS}${viaChannel.id}/`)).status).toBe(404);
      expect((await ok(await buyer.as(MY))).count).toBe(0);
      expect((await buyer.as(`${MY}${viaChannel.id}/`)).status).toBe(404);
      expect((await buyer.as(`${MY}${viaChannel.id}/cancel/`, { method: "POST", body: {} })).status).toBe(404);
      expect((await ok(await p.as(`${M_SUBS}${viaChannel.id}/`))).id).toBe(viaChannel.id);
    }
    await setConnection("active");
    expect((await ok(await ch.as(`${M_SUBS}${viaChannel.id}/`))).id).toBe(viaChannel.id);
    expect(
      (await shardFor(P).prepare("SELECT status FROM meal_subscriptions WHERE id = ?").bind(viaChannel.id).first())!
        .status,
    ).toBe("active");
  });
});

describe("Channel Subscriptions (CA15)", () => {
  it("the channel customer's own, read and cancelled under the provider's rules", async () => {
    await setConnection("active");
    const { buyer, viaChannel, atP } = await sold();
    const page = await ok(await buyer.as(MY));
    expect(schemaErrors("listMyChannelSubscriptions", page)).toEqual([]);
    expect(page.results.map((r: any) => r.id)).toEqual([viaChannel.id]);
    const other = await shopperOf(CH);
    expect((await ok(await other.as(MY))).count).toBe(0);
    expect((await other.as(`${MY}${viaChannel.id}/`)).status).toBe(404);
    // The provider's own customer does not see it here: it was not bought through a channel of theirs.
    expect((await ok(await atP.as(MY))).count).toBe(0);
    const early = await buyer.as(`${MY}${viaChannel.id}/cancel/`, {
      method: "POST",
      body: { from_date: "2026-03-03" },
    });
    expect(early.status).toBe(409);
    expect(await problem(early)).toMatchObject({ code: "cancel_date_out_of_range", first_valid_date: "2026-03-04" });
    const body = await ok(await buyer.as(`${MY}${viaChannel.id}/cancel/`, { method: "POST", body: {} }));
    expect(schemaErrors("cancelMyChannelSubscription", body)).toEqual([]);
    expect(body).toMatchObject({ status: "cancelled", cancel_credits: 3, channel_app_id: CH });
    const events = (await eventsOf(P, ["meal_subscription.cancelled"])).filter((e) => e.data.id === viaChannel.id);
    expect(events.map((e) => e.data)).toEqual([
      {
        id: viaChannel.id,
        status: "cancelled",
        channel_app_id: CH,
        from_date: "2026-03-04",
        cancelled_count: 3,
        cancel_credits: 3,
      },
    ]);
    expect(await eventsOf(CH, ["meal_subscription.cancelled"])).toEqual([]);
  });
});
