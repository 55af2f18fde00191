import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { connectedProviderAppIds, isConnectionActive } from "../../src/modules/sales-channels";
import { sharedAuthCases } from "../helpers/auth-cases";
import { APP_1, shardFor } from "../helpers/factories";
import { schemaErrors, seedMealsFor } from "../helpers/meals";
import { callWaits, pageIds as ids, json, problem } from "../helpers/request";
import { eventsWhere, rowOf } from "../orders/helpers";
import { acted, connect, LISTINGS, PROVIDER_PLANS, type Shop, sent, storeOf } from "./helpers";

// Two providers with the demo meals (plans Balanced 30 and Keto week), a channel connected to the
// first, and a third store.
const P = 17_601;
const Q = 17_602;
const CHANNEL = 17_603;
const THIRD = 17_604;
let provider: Shop;
let channel: Shop;
let third: Shop;
let p: Awaited<ReturnType<typeof seedMealsFor>>;
let q: Awaited<ReturnType<typeof seedMealsFor>>;
let connectionId: number;

beforeAll(async () => {
  p = await seedMealsFor(P, 1_760_000);
  q = await seedMealsFor(Q, 1_770_000);
  provider = await storeOf(P);
  channel = await storeOf(CHANNEL);
  third = await storeOf(THIRD);
  connectionId = await connect(channel, provider);
});

const providerPlans = (as: Shop, query: string) => as.as(`${PROVIDER_PLANS}${query}`);
const setPlan = (id: number, column: string, value: number) =>
  shardFor(APP_1).prepare(`UPDATE plans SET ${column} = ? WHERE id = ?`).bind(value, id).run();

async function listed(body: Record<string, unknown>, as = channel) {
  const res = await as.as(LISTINGS, { method: "POST", body });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out;
}

describe("Meals Provider Plans (MX1)", () => {
  it("the provider's marketplace plans with their versions, for an actively connected channel", async () => {
    const res = await providerPlans(channel, `?provider_app_id=${P}`);
    const page = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors("listProviderPlans", page)).toEqual([]);
    expect(page.count).toBe(2);
    expect(ids(page).sort()).toEqual([p.balanced, p.keto].sort());
    const balanced = page.results.find((r: { id: number }) => r.id === p.balanced);
    expect(balanced).toMatchObject({
      name_en: "Balanced 30",
      provider_app_id: P,
      listing_id: null,
      is_marketplace_active: true,
      restaurant: { id: p.green },
    });
    expect(balanced.versions.map((v: { id: number }) => v.id)).toEqual([p.balancedMonth, p.balanced20]);
    expect(balanced.versions[0]).toMatchObject({ original_price: 2499, num_of_days: 30 });
  });

  it("leaves out plans not marketplace-active, inactive or deleted; filters and pages", async () => {
    await setPlan(p.keto, "is_marketplace_active", 0);
    try {
      expect(ids(await json(await providerPlans(channel, `?provider_app_id=${P}`)))).toEqual([p.balanced]);
    } finally {
      await setPlan(p.keto, "is_marketplace_active", 1);
    }
    await setPlan(p.keto, "is_active", 0);
    try {
      expect(ids(await json(await providerPlans(channel, `?provider_app_id=${P}`)))).toEqual([p.balanced]);
    } finally {
      await setPlan(p.keto, "is_active", 1);
    }
    const weekly = await json(await providerPlans(channel, `?provider_app_id=${P}&subscription_type=weekly`));
    expect(ids(weekly)).toEqual([p.keto]);
    const found = await json(await providerPlans(channel, `?provider_app_id=${P}&search=Balanced`));
    expect(ids(found)).toEqual([p.balanced]);
    const first = await json(await providerPlans(channel, `?provider_app_id=${P}&page_size=1`));
    expect(first).toMatchObject({ count: 2, previous: null });
    expect(first.next).toContain(`provider_app_id=${P}`);
  });

  it("400 without provider_app_id, with a bad one, or with an unknown parameter", async () => {
    for (const [query, field] of [
      ["", "provider_app_id"],
      ["?provider_app_id=abc", "provider_app_id"],
      ["?provider_app_id=0", "provider_app_id"],
      [`?provider_app_id=${P}&provider_app_id=${Q}`, "provider_app_id"],
      [`?provider_app_id=${P}&colour=red`, "colour"],
      [`?provider_app_id=${P}&subscription_type=yearly`, "subscription_type"],
    ] as const) {
      const res = await providerPlans(channel, query);
      expect(res.status, query).toBe(400);
      const errors = (await problem(res)).errors;
      expect(errors, query).toHaveProperty([field]);
      // Plain words, never the validator's own.
      expect(JSON.stringify(errors)).not.toMatch(/expected|received|Invalid input/i);
    }
  });

  it("403 provider_not_connected without an active connection as the channel: none, pending, reversed roles", async () => {
    const check = async (as: Shop, providerAppId: number) => {
      const res = await providerPlans(as, `?provider_app_id=${providerAppId}`);
      expect(res.status).toBe(403);
      const body = await problem(res);
      expect(body.code).toBe("provider_not_connected");
      expect(JSON.stringify(body)).not.toContain("Balanced");
    };
    await check(channel, Q);
    await check(third, P);
    await check(provider, CHANNEL);
    const pending = await sent(third, { provider_app_id: P });
    await check(third, P);
    await acted(provider, pending.id, "reject");
    await check(third, P);
    // The provider reading its own plans through this operation is not a connection either.
    await check(provider, P);
  });
});

describe("Meals Plan Listings (MX2)", () => {
  it("lists a provider's plan: 201 with the plan, the provider and the event; MX1 then names the listing", async () => {
    const out = await listed({ provider_app_id: P, plan_id: p.balanced, is_featured: true, ordering: 2 });
    expect(schemaErrors("createPlanListing", out, "201")).toEqual([]);
    expect(out).toMatchObject({
      provider_app_id: P,
      provider: { app_id: P, name_en: `Store ${P}` },
      plan_id: p.balanced,
      plan: { id: p.balanced, name_en: "Balanced 30" },
      is_available: true,
      is_active: true,
      is_featured: true,
      ordering: 2,
      app_id: CHANNEL,
      is_deleted: false,
    });
    expect(out.plan.versions).toHaveLength(2);
    const events = await eventsWhere(CHANNEL, ["sales_channel.plan_listing_created"], "id", out.id);
    expect(events.map((e) => e.app_id)).toEqual([CHANNEL]);
    // The connection, the page and the channel's listings: one round trip beyond the token check.
    const { res, waits } = await callWaits(`${PROVIDER_PLANS}?provider_app_id=${P}`, {
      token: channel.token,
      appId: CHANNEL,
    });
    const plans = await json(res);
    expect(plans.results.find((r: { id: number }) => r.id === p.balanced).listing_id).toBe(out.id);
    expect(plans.results.find((r: { id: number }) => r.id === p.keto).listing_id).toBeNull();
    expect(waits.beyondAuth).toBe(1);

    const dup = await channel.as(LISTINGS, { method: "POST", body: { provider_app_id: P, plan_id: p.balanced } });
    expect(dup.status).toBe(409);
    expect(await problem(dup)).toMatchObject({ code: "plan_already_listed", plan_listing_id: out.id });
  });

  it("refuses a plan the provider does not offer (400), another store's plan (400), an unconnected provider (403)", async () => {
    await setPlan(p.keto, "is_marketplace_active", 0);
    try {
      const res = await channel.as(LISTINGS, { method: "POST", body: { provider_app_id: P, plan_id: p.keto } });
      expect(res.status).toBe(400);
      expect((await problem(res)).errors).toHaveProperty(["plan_id"]);
    } finally {
      await setPlan(p.keto, "is_marketplace_active", 1);
    }
    // Q's plan, named as P's.
    const wrong = await channel.as(LISTINGS, { method: "POST", body: { provider_app_id: P, plan_id: q.balanced } });
    expect(wrong.status).toBe(400);
    const unconnected = await channel.as(LISTINGS, {
      method: "POST",
      body: { provider_app_id: Q, plan_id: q.balanced },
    });
    expect(unconnected.status).toBe(403);
    expect((await problem(unconnected)).code).toBe("provider_not_connected");
    const bad = await channel.as(LISTINGS, { method: "POST", body: { provider_app_id: P } });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).errors).toHaveProperty(["plan_id"]);
    const count = await rowOf<{ n: number }>(
      "SELECT count(*) AS n FROM channel_plan_listings WHERE app_id = ? AND plan_id IN (?, ?)",
      CHANNEL,
      p.keto,
      q.balanced,
    );
    expect(count.n).toBe(0);
  });

  it("updates and deletes a listing; a deleted one is a 404 and leaves room to list the plan again", async () => {
    const out = await listed({ provider_app_id: P, plan_id: p.keto });
    const res = await channel.as(`${LISTINGS}${out.id}/`, { method: "PATCH", body: { is_active: false, ordering: 7 } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: out.id, is_active: false, ordering: 7, is_featured: false });
    const updated = await eventsWhere(CHANNEL, ["sales_channel.plan_listing_updated"], "id", out.id);
    expect(updated.map((e) => e.data.changes)).toEqual([["is_active", "ordering"]]);
    const empty = await channel.as(`${LISTINGS}${out.id}/`, { method: "PATCH", body: {} });
    expect(empty.status).toBe(400);
    expect((await channel.as(`${LISTINGS}${out.id}/`, { method: "DELETE" })).status).toBe(204);
    for (const method of ["PATCH", "DELETE"]) {
      const gone = await channel.as(`${LISTINGS}${out.id}/`, {
        method,
        body: method === "PATCH" ? { ordering: 1 } : undefined,
      });
      expect(gone.status).toBe(404);
      expect((await problem(gone)).code).toBe("plan_listing_not_found");
    }
    expect(await eventsWhere(CHANNEL, ["sales_channel.plan_listing_deleted"], "id", out.id)).toHaveLength(1);
    const again = await listed({ provider_app_id: P, plan_id: p.keto });
    expect(again.id).not.toBe(out.id);
    await channel.as(`${LISTINGS}${again.id}/`, { method: "DELETE" });
  });

  it("the list: the channel's own, in ordering, filtered; a third store sees none of them", async () => {
    // The connections (the directory's), the page (the channel's shard), its providers' faces and plans
    // (their shards, at once): three round trips beyond the token check (docs/shards.md).
    const { res: read, waits } = await callWaits(LISTINGS, { token: channel.token, appId: CHANNEL });
    const page = await json(read);
    expect(schemaErrors("listPlanListings", page)).toEqual([]);
    expect(page.results.map((r: { plan_id: number }) => r.plan_id)).toEqual([p.balanced]);
    expect(page.results[0]).toMatchObject({
      provider: { app_id: P },
      plan: { id: p.balanced, name_en: "Balanced 30" },
    });
    expect(page.results[0].plan.versions).toHaveLength(2);
    expect(waits.beyondAuth).toBe(3);
    expect((await json(await channel.as(`${LISTINGS}?is_featured=false`))).count).toBe(0);
    expect((await json(await channel.as(`${LISTINGS}?provider_app_id=${P}`))).count).toBe(1);
    expect((await channel.as(`${LISTINGS}?colour=red`)).status).toBe(400);
    const theirs = await json(await third.as(LISTINGS));
    expect(theirs.count).toBe(0);
    const id = page.results[0].id;
    for (const as of [third, provider]) {
      const res = await as.as(`${LISTINGS}${id}/`, { method: "PATCH", body: { ordering: 1 } });
      expect(res.status).toBe(404);
      expect((await as.as(`${LISTINGS}${id}/`, { method: "DELETE" })).status).toBe(404);
    }
    expect((await rowOf("SELECT * FROM channel_plan_listings WHERE id = ?", id)).is_deleted).toBe(0);
  });

  it("a plan the provider stops offering stays listed, with `plan` null and `is_available` false", async () => {
    await setPlan(p.balanced, "is_marketplace_active", 0);
    try {
      const page = await json(await channel.as(LISTINGS));
      expect(page.results[0]).toMatchObject({ plan_id: p.balanced, plan: null, is_available: false });
    } finally {
      await setPlan(p.balanced, "is_marketplace_active", 1);
    }
  });
});

describe("A deactivated or deleted connection shows nothing", () => {
  const nothingShown = async () => {
    const plans = await providerPlans(channel, `?provider_app_id=${P}`);
    expect(plans.status).toBe(403);
    expect((await problem(plans)).code).toBe("provider_not_connected");
    const page = await json(await channel.as(LISTINGS));
    expect(page).toMatchObject({ count: 0, results: [] });
    const listing = await rowOf<{ id: number }>(
      "SELECT id FROM channel_plan_listings WHERE app_id = ? AND is_deleted = 0",
      CHANNEL,
    );
    const patch = await channel.as(`${LISTINGS}${listing.id}/`, { method: "PATCH", body: { ordering: 3 } });
    expect(patch.status).toBe(404);
    expect((await channel.as(`${LISTINGS}${listing.id}/`, { method: "DELETE" })).status).toBe(404);
    const create = await channel.as(LISTINGS, { method: "POST", body: { provider_app_id: P, plan_id: p.keto } });
    expect(create.status).toBe(403);
    expect(await isConnectionActive(env, CHANNEL, P)).toBe(false);
    expect(await connectedProviderAppIds(env, CHANNEL)).toEqual([]);
    // Hidden, not lost.
    expect((await rowOf("SELECT * FROM channel_plan_listings WHERE id = ?", listing.id)).is_deleted).toBe(0);
  };
  const shownAgain = async () => {
    expect((await providerPlans(channel, `?provider_app_id=${P}`)).status).toBe(200);
    const page = await json(await channel.as(LISTINGS));
    expect(page.results.map((r: { plan_id: number }) => r.plan_id)).toEqual([p.balanced]);
    expect(await connectedProviderAppIds(env, CHANNEL)).toEqual([P]);
  };

  it("deactivated by either side: nothing, until activated again", async () => {
    await shownAgain();
    await acted(provider, connectionId, "deactivate");
    await nothingShown();
    await acted(provider, connectionId, "activate");
    await shownAgain();
    await acted(channel, connectionId, "deactivate");
    await nothingShown();
    await acted(channel, connectionId, "activate");
    await shownAgain();
  });

  it("deleted: nothing; a new active connection shows the listings again", async () => {
    await acted(provider, connectionId, "delete");
    await nothingShown();
    connectionId = await connect(channel, provider);
    await shownAgain();
  });
});

sharedAuthCases({ method: "GET", path: `${PROVIDER_PLANS}?provider_app_id=2`, permission: "can_read_sales_channels" });
sharedAuthCases({ method: "GET", path: LISTINGS, permission: "can_read_sales_channels" });
sharedAuthCases({
  method: "POST",
  path: LISTINGS,
  permission: "can_write_sales_channels",
  body: { provider_app_id: 2, plan_id: 1 },
});
sharedAuthCases({
  method: "PATCH",
  path: `${LISTINGS}1/`,
  permission: "can_write_sales_channels",
  body: { ordering: 1 },
});
