import { env } from "cloudflare:workers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/core/clock";
import { directoryOf } from "../../src/db/shards";
import { redeliverConnectionEvents } from "../../src/modules/sales-channels";
import { ensureTenant, shardFor, shardNameFor } from "../helpers/factories";
import { json } from "../helpers/request";
import { customerOf, type MealStore, mealStoreOf, ok, subscriptionOf } from "../meal-subscriptions/seed";
import { type Store, shopperOf, storeFor } from "../orders/helpers";
import {
  acted,
  CONNECTIONS,
  connectionEvents,
  connectionRow,
  insertConnection,
  PROFILE,
  sent,
  storeOf,
} from "./helpers";

/**
 * Sales channels between stores on different shards (docs/shards.md, "Sales channels across shards"):
 * the connection in the directory, its events in both stores' shard outboxes, the faces read on each
 * store's shard, and a channel's views of what it sold read on its providers' shards and merged.
 */

// Connections: a channel on the second shard, a provider on the first.
const CHANNEL = 17_901;
const PROVIDER = 17_902;
// Views: a channel on the first shard selling for P1 (first shard) and P2 (second shard); X sells nothing.
const CH = 17_911;
const P1 = 17_912;
const P2 = 17_913;
const X = 17_914;

const deliveries = (connectionId: number) =>
  directoryOf(env)
    .prepare(
      "SELECT app_id, type, delivered_at FROM sales_channel_event_deliveries WHERE connection_id = ? ORDER BY created_at",
    )
    .bind(connectionId)
    .all<{ app_id: number; type: string; delivered_at: string | null }>();

describe("a connection between stores on two shards", () => {
  beforeAll(async () => {
    await Promise.all([ensureTenant(CHANNEL, "SHARD_2"), ensureTenant(PROVIDER, "SHARD_1")]);
  });

  it("lives in the directory; each change's event reaches both stores' shard outboxes once", async () => {
    expect([shardNameFor(CHANNEL), shardNameFor(PROVIDER)]).toEqual(["SHARD_2", "SHARD_1"]);
    const [channel, provider] = await Promise.all([storeOf(CHANNEL), storeOf(PROVIDER)]);
    // Each face comes from its own store's shard.
    await channel.as(PROFILE, { method: "PATCH", body: { name_en: "Far Market" } });
    const req = await sent(channel, { provider_app_id: PROVIDER });
    expect(req).toMatchObject({ channel: { app_id: CHANNEL, name_en: "Far Market" }, provider: { app_id: PROVIDER } });
    await acted(provider, req.id, "accept");
    await acted(channel, req.id, "deactivate");
    await acted(channel, req.id, "delete");
    expect(await connectionRow(req.id)).toMatchObject({ channel_app_id: CHANNEL, provider_app_id: PROVIDER });
    // No shard holds the connection.
    for (const appId of [CHANNEL, PROVIDER])
      expect(
        await shardFor(appId)
          .prepare("SELECT count(*) AS n FROM channel_connections WHERE id = ?")
          .bind(req.id)
          .first("n"),
      ).toBe(0);
    const types = [
      "sales_channel.connection_requested",
      "sales_channel.connection_accepted",
      "sales_channel.connection_deactivated",
      "sales_channel.connection_deleted",
    ];
    for (const appId of [CHANNEL, PROVIDER]) {
      const events = await connectionEvents(appId, req.id);
      expect(events.map((e) => e.type)).toEqual(types);
      expect(events.every((e) => e.app_id === appId)).toBe(true);
    }
    // Every delivery is marked: the scheduled run has nothing to copy.
    const rows = (await deliveries(req.id)).results;
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.delivered_at !== null)).toBe(true);
    // Deleted: gone from the provider's list too.
    const seen = await json(await provider.as(`${CONNECTIONS}?id=${req.id}`));
    expect(seen.count).toBe(0);
  });

  it("the scheduled run copies an event the directory holds undelivered, once, to its store's shard", async () => {
    const [channel, provider] = await Promise.all([storeOf(CHANNEL), storeOf(PROVIDER)]);
    const req = await sent(channel, { provider_app_id: PROVIDER });
    // As if the isolate died after the directory's batch: the channel's copy and its mark are lost.
    const [lost] = await connectionEvents(CHANNEL, req.id);
    await shardFor(CHANNEL).prepare("DELETE FROM outbox_events WHERE id = ?").bind(lost!.id).run();
    await directoryOf(env)
      .prepare("UPDATE sales_channel_event_deliveries SET delivered_at = NULL, created_at = ? WHERE id = ?")
      .bind("2026-01-01T00:00:00.000Z", lost!.id)
      .run();
    // The first shard's run leaves the second shard's store alone.
    expect(await redeliverConnectionEvents(env, env.EVENTS, "SHARD_1")).toBe(0);
    expect(await connectionEvents(CHANNEL, req.id)).toEqual([]);
    expect(await redeliverConnectionEvents(env, env.EVENTS, "SHARD_2")).toBe(1);
    expect((await connectionEvents(CHANNEL, req.id)).map((e) => e.id)).toEqual([lost!.id]);
    // Marked: a second run copies nothing; a repeat of the copy would insert nothing either.
    expect(await redeliverConnectionEvents(env, env.EVENTS, "SHARD_2")).toBe(0);
    expect((await connectionEvents(CHANNEL, req.id)).map((e) => e.id)).toEqual([lost!.id]);
    expect((await connectionEvents(PROVIDER, req.id)).map((e) => e.type)).toEqual([
      "sales_channel.connection_requested",
    ]);
    await acted(provider, req.id, "reject");
  });
});

describe("a channel's views of what it sold at providers on two shards (MX4, CA15)", () => {
  const M_SUBS = "/api/v1/sales-channels/meals/subscriptions/";
  const MY = "/api/v1/sales-channels/subscriptions/";
  let p1: MealStore;
  let p2: MealStore;
  let ch: Store;
  let x: Store;
  let p2Connection: number;

  beforeAll(async () => {
    await ensureTenant(P2, "SHARD_2");
    [p1, p2] = await Promise.all([mealStoreOf(P1), mealStoreOf(P2)]);
    [ch, x] = await Promise.all([storeFor(CH), storeFor(X)]);
    await insertConnection(CH, P1, "active");
    p2Connection = await insertConnection(CH, P2, "active");
  });
  beforeEach(() => setClock("2026-03-02T09:00:00Z"));
  afterAll(() => setClock(null));

  it("pages across both providers' shards, newest first, with the exact count; isolation holds", async () => {
    const buyer = await shopperOf(CH);
    const sold: { id: number; appId: number }[] = [];
    // Alternating providers, one clock tick apart, so that the order crosses shards on every page.
    for (const [i, m] of [p1, p2, p1, p2, p1].entries()) {
      setClock(`2026-03-02T09:00:0${i}Z`);
      const at = await customerOf(m);
      const sub = await subscriptionOf(m, at, {
        start: "2026-03-03",
        count: 2,
        subscription: { channelAppId: CH, channelCustomerId: buyer.id },
      });
      sold.push({ id: sub.id, appId: m.appId });
    }
    const newestFirst = [...sold].reverse().map((s) => [s.appId, s.id]);
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = await ok(await ch.as(`${M_SUBS}?page_size=2&page=${page}`));
      expect(body.count).toBe(5);
      pages.push(...body.results.map((r: { app_id: number; id: number }) => [r.app_id, r.id]));
    }
    expect(pages).toEqual(newestFirst);
    expect((await ch.as(`${M_SUBS}?page_size=2&page=4`)).status).toBe(400);
    // The customer's view, across both shards too.
    const mine = await ok(await buyer.as(`${MY}?page_size=100`));
    expect(mine.results.map((r: { app_id: number; id: number }) => [r.app_id, r.id])).toEqual(newestFirst);
    // By id: ids are unique per shard only, so where P1's shard (the channel's own) has a sold id
    // too, it answers; else the provider's shard that has it.
    for (const one of sold) {
      const onOwnShard = sold.find((s) => s.appId === P1 && s.id === one.id);
      const expected = onOwnShard ? P1 : one.appId;
      expect(await ok(await ch.as(`${M_SUBS}${one.id}/`))).toMatchObject({ id: one.id, app_id: expected });
    }
    const last = sold[3]!;
    // A store connected to nothing sees none of them.
    expect((await ok(await x.as(M_SUBS))).count).toBe(0);
    expect((await x.as(`${M_SUBS}${last.id}/`)).status).toBe(404);
    // P2's connection inactive: its shard is no longer read.
    await directoryOf(env)
      .prepare("UPDATE sales_channel_connections SET status = 'inactive' WHERE id = ?")
      .bind(p2Connection)
      .run();
    const left = await ok(await ch.as(`${M_SUBS}?page_size=100`));
    expect(left.results.map((r: { app_id: number }) => r.app_id)).toEqual([P1, P1, P1]);
    expect((await ok(await buyer.as(MY))).count).toBe(3);
    await directoryOf(env)
      .prepare("UPDATE sales_channel_connections SET status = 'active' WHERE id = ?")
      .bind(p2Connection)
      .run();
  });
});
