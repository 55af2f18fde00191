import { beforeAll, describe, expect, it } from "vitest";
import { seedMealsFor } from "../helpers/meals";
import { callWaits, json } from "../helpers/request";
import { CONNECTIONS, connect, connectionEvents, LISTINGS, PROFILE, type Shop, storeOf } from "./helpers";

/**
 * How long the sales channels' writes (and the profile's read) keep a merchant waiting on D1,
 * counted in round trips one after another beyond the token check (test/helpers/d1-waits.ts), never
 * timed: a write reads what it checks and answers with at once, then runs one batch that writes and
 * reads its row back; the answer is the record as a later read shows it.
 */

// A provider with the demo meals (plans Balanced 30 and Keto week), and channels of the file's own.
const P = 17_791;
const CHANNEL = 17_792;
const OTHER = 17_793;
const LISTER = 17_794;
let provider: Shop;
let channel: Shop;
let other: Shop;
let plans: Awaited<ReturnType<typeof seedMealsFor>>;

beforeAll(async () => {
  plans = await seedMealsFor(P, 1_790_000);
  [provider, channel, other] = await Promise.all([storeOf(P), storeOf(CHANNEL), storeOf(OTHER)]);
});

const send = (as: Shop, path: string, method = "GET", body?: Record<string, unknown>) =>
  callWaits(path, { method, body, token: as.token, appId: as.appId });

/** A write's answer and its waits, with the status expected. */
async function answered(as: Shop, path: string, method: string, status: number, body?: Record<string, unknown>) {
  const { res, waits } = await send(as, path, method, body);
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(status);
  return { out, waits };
}

describe("D1 round trips of the connection requests' writes", () => {
  it("Send, Accept, Deactivate, Activate each wait at most twice and answer the request as it is stored", async () => {
    const sentReq = await answered(channel, CONNECTIONS, "POST", 201, { provider_app_id: P, message: "Hello" });
    expect(sentReq.out).toMatchObject({
      channel: { app_id: CHANNEL },
      provider: { app_id: P },
      direction: "outgoing",
      status: "pending",
      message: "Hello",
    });
    expect(sentReq.waits.beyondAuth).toBeLessThanOrEqual(2);
    const id = sentReq.out.id as number;
    const member = `${CONNECTIONS}${id}/`;

    const accepted = await answered(provider, `${member}accept/`, "POST", 200);
    expect(accepted.out).toMatchObject({ id, status: "active", direction: "incoming", decided_by: provider.tokenId });
    expect(accepted.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(accepted.out).toEqual(await json(await provider.as(member)));

    const paused = await answered(channel, `${member}deactivate/`, "POST", 200);
    expect(paused.out).toMatchObject({ id, status: "inactive", deactivated_by_app_id: CHANNEL });
    expect(paused.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(paused.out).toEqual(await json(await channel.as(member)));

    const resumed = await answered(channel, `${member}activate/`, "POST", 200);
    expect(resumed.out).toMatchObject({ id, status: "active", deactivated_by_app_id: null });
    expect(resumed.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(resumed.out).toEqual(await json(await channel.as(member)));

    // Each change told both stores, once.
    for (const appId of [CHANNEL, P])
      expect((await connectionEvents(appId, id)).map((e) => e.type)).toEqual([
        "sales_channel.connection_requested",
        "sales_channel.connection_accepted",
        "sales_channel.connection_deactivated",
        "sales_channel.connection_activated",
      ]);
  });

  it("Reject and Delete wait at most twice; a refusal still comes from the first read", async () => {
    const req = await answered(other, CONNECTIONS, "POST", 201, { provider_app_id: P });
    const member = `${CONNECTIONS}${req.out.id}/`;
    const bySender = await send(other, `${member}reject/`, "POST");
    expect(bySender.res.status).toBe(403);
    expect(await json(bySender.res)).toMatchObject({ code: "not_connection_receiver" });
    expect(bySender.waits.beyondAuth).toBe(1);
    const rejected = await answered(provider, `${member}reject/`, "POST", 200);
    expect(rejected.out).toMatchObject({ id: req.out.id, status: "rejected" });
    expect(rejected.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect(rejected.out).toEqual(await json(await provider.as(member)));
    const deleted = await send(other, member, "DELETE");
    expect(deleted.res.status).toBe(204);
    expect(deleted.waits.beyondAuth).toBeLessThanOrEqual(2);
    expect((await other.as(member)).status).toBe(404);
  });
});

describe("D1 round trips of the channel profile", () => {
  it("Get waits once; Update waits at most twice and answers the profile as Get shows it", async () => {
    const read = await answered(other, PROFILE, "GET", 200);
    expect(read.waits.beyondAuth).toBe(1);
    const changed = await answered(other, PROFILE, "PATCH", 200, {
      name_en: "Other shop",
      supported_city_ids: [2, 1],
      contact: { email: "ops@example.com" },
    });
    expect(changed.out).toMatchObject({
      app_id: OTHER,
      name_en: "Other shop",
      contact: { email: "ops@example.com" },
      supported_cities: [{ id: 2 }, { id: 1 }],
    });
    expect(changed.waits.beyondAuth).toBeLessThanOrEqual(2);
    const again = await answered(other, PROFILE, "GET", 200);
    expect(again.out).toEqual(changed.out);
    expect(again.waits.beyondAuth).toBe(1);
  });
});

describe("D1 round trips of the plan listings' writes", () => {
  it("Create and Update Listing wait at most twice and answer the listing with its provider and plan", async () => {
    const lister = await storeOf(LISTER);
    await connect(lister, provider);
    const made = await answered(lister, LISTINGS, "POST", 201, { provider_app_id: P, plan_id: plans.balanced });
    expect(made.out).toMatchObject({
      provider_app_id: P,
      provider: { app_id: P },
      plan_id: plans.balanced,
      plan: { id: plans.balanced, name_en: "Balanced 30" },
      is_available: true,
      is_active: true,
    });
    expect(made.waits.beyondAuth).toBeLessThanOrEqual(2);
    const changed = await answered(lister, `${LISTINGS}${made.out.id}/`, "PATCH", 200, {
      is_featured: true,
      ordering: 3,
    });
    expect(changed.out).toMatchObject({
      id: made.out.id,
      is_featured: true,
      ordering: 3,
      plan: { id: plans.balanced },
    });
    expect(changed.waits.beyondAuth).toBeLessThanOrEqual(2);
    const page = await json(await lister.as(LISTINGS));
    expect(page.results).toEqual([changed.out]);
  });
});
