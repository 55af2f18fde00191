import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { connectedProviderAppIds, isConnectionActive } from "../../src/modules/sales-channels";
import { sharedAuthCases } from "../helpers/auth-cases";
import { callWaits, json, problem } from "../helpers/request";
import {
  ACTIONS,
  act,
  acted,
  CONNECTIONS,
  channelsFrom,
  connectionEvents,
  connectionRow,
  type Shop,
  sent,
  storeOf,
} from "./helpers";

// Stores of this file's own: a provider, a third store, and a fresh channel from 17,510 on for each
// pair a test needs (one live connection per channel and provider).
const PROVIDER = 17_501;
const THIRD = 17_502;
let provider: Shop;
let third: Shop;

beforeAll(async () => {
  provider = await storeOf(PROVIDER);
  third = await storeOf(THIRD);
});

const { newChannel, inState } = channelsFrom(17_510, () => provider);

describe("Send Connection Request", () => {
  it("as a channel: 201 pending, the stores' faces, outgoing for the sender and incoming for the receiver", async () => {
    const channel = await newChannel();
    const req = await sent(channel, {
      provider_app_id: PROVIDER,
      message: "  Let us sell your plans.  ",
      commission_percentage: 12.5,
    });
    expect(req).toMatchObject({
      channel: {
        app_id: channel.appId,
        name_en: `Store ${channel.appId}`,
        name_ar: `متجر ${channel.appId}`,
        logo: null,
      },
      provider: { app_id: PROVIDER, name_en: `Store ${PROVIDER}` },
      direction: "outgoing",
      role: "channel",
      status: "pending",
      commission_percentage: 12.5,
      message: "Let us sell your plans.",
      decided_at: null,
      decided_by: null,
      deactivated_by_app_id: null,
      app_id: channel.appId,
      is_deleted: false,
      deleted_at: null,
    });
    expect(req.requested_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const seen = await json(await provider.as(`${CONNECTIONS}${req.id}/`));
    expect(seen).toMatchObject({ id: req.id, direction: "incoming", role: "provider", status: "pending" });
    expect(await connectionRow(req.id)).toMatchObject({
      app_id: channel.appId,
      channel_app_id: channel.appId,
      provider_app_id: PROVIDER,
      commission_bp: 1250,
      status: "pending",
    });
  });

  it("as a provider (channel_app_id): the roles are the other way round", async () => {
    const channel = await newChannel();
    const req = await sent(provider, { channel_app_id: channel.appId });
    expect(req).toMatchObject({
      channel: { app_id: channel.appId },
      provider: { app_id: PROVIDER },
      direction: "outgoing",
      role: "provider",
      commission_percentage: null,
      message: null,
    });
    expect(await json(await channel.as(`${CONNECTIONS}${req.id}/`))).toMatchObject({
      direction: "incoming",
      role: "channel",
    });
  });

  it("emits connection_requested to both stores, in the batch of the insert", async () => {
    const channel = await newChannel();
    const req = await sent(channel, { provider_app_id: PROVIDER });
    for (const appId of [channel.appId, PROVIDER]) {
      const events = await connectionEvents(appId, req.id);
      expect(events.map((e) => [e.type, e.app_id])).toEqual([["sales_channel.connection_requested", appId]]);
      expect(events[0]!.data).toEqual({
        id: req.id,
        status: "pending",
        channel_app_id: channel.appId,
        provider_app_id: PROVIDER,
        by_app_id: channel.appId,
      });
    }
  });

  it("400 for a body that names both stores, neither, or bad values; nothing stored", async () => {
    const channel = await newChannel();
    for (const [body, field] of [
      [{ provider_app_id: PROVIDER, channel_app_id: THIRD }, "channel_app_id"],
      [{ message: "hi" }, "provider_app_id"],
      [{ provider_app_id: PROVIDER, commission_percentage: 10.123 }, "commission_percentage"],
      [{ provider_app_id: PROVIDER, commission_percentage: 101 }, "commission_percentage"],
      [{ provider_app_id: 0 }, "provider_app_id"],
      [{ provider_app_id: PROVIDER, direction: "outgoing" }, "direction"],
      [{ provider_app_id: PROVIDER, message: "x".repeat(1001) }, "message"],
    ] as const) {
      const res = await channel.as(CONNECTIONS, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await problem(res)).errors, JSON.stringify(body)).toHaveProperty([field]);
    }
    const list = await json(await channel.as(CONNECTIONS));
    expect(list.count).toBe(0);
  });

  it("400 on the field when the other store does not exist", async () => {
    const channel = await newChannel();
    const res = await channel.as(CONNECTIONS, { method: "POST", body: { provider_app_id: 17_999_999 } });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toEqual({ provider_app_id: ["No store has this id."] });
  });

  it("409 connection_to_self", async () => {
    const channel = await newChannel();
    for (const body of [{ provider_app_id: channel.appId }, { channel_app_id: channel.appId }]) {
      const res = await channel.as(CONNECTIONS, { method: "POST", body });
      expect(res.status).toBe(409);
      expect((await problem(res)).code).toBe("connection_to_self");
    }
  });

  it("one live connection per channel and provider: 409 naming it, from either side, while pending, active or inactive", async () => {
    const channel = await newChannel();
    const req = await sent(channel, { provider_app_id: PROVIDER });
    const again = async (status: string) => {
      for (const [from, body] of [
        [channel, { provider_app_id: PROVIDER }],
        [provider, { channel_app_id: channel.appId }],
      ] as const) {
        const res = await from.as(CONNECTIONS, { method: "POST", body });
        expect(res.status).toBe(409);
        expect(await problem(res)).toMatchObject({
          code: "connection_already_exists",
          connection_request_id: req.id,
          current_status: status,
        });
      }
    };
    await again("pending");
    await acted(provider, req.id, "accept");
    await again("active");
    await acted(channel, req.id, "deactivate");
    await again("inactive");
    // The other roles are another connection: the channel's plans sold by the provider store.
    const reverse = await sent(provider, { provider_app_id: channel.appId });
    expect(reverse).toMatchObject({ channel: { app_id: PROVIDER }, provider: { app_id: channel.appId } });
  });

  it("a rejected or deleted connection leaves room for a new request", async () => {
    const channel = await newChannel();
    const first = await sent(channel, { provider_app_id: PROVIDER });
    await acted(provider, first.id, "reject");
    const second = await sent(channel, { provider_app_id: PROVIDER });
    await acted(provider, second.id, "accept");
    await acted(provider, second.id, "delete");
    const third_ = await sent(provider, { channel_app_id: channel.appId });
    expect(third_.status).toBe("pending");
  });
});

describe("Tenancy", () => {
  it("a third store sees nothing: 404 on read and on every action, absent from its list", async () => {
    const { id } = await inState("pending");
    const res = await third.as(`${CONNECTIONS}${id}/`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("connection_request_not_found");
    for (const action of ACTIONS) {
      const r = await act(third, id, action);
      expect(r.status, action).toBe(404);
      expect((await problem(r)).code).toBe("connection_request_not_found");
    }
    expect((await json(await third.as(CONNECTIONS))).count).toBe(0);
    expect((await connectionRow(id)).status).toBe("pending");
  });

  it("a deleted connection is gone from both stores' lists", async () => {
    const { id, channel } = await inState("active");
    await acted(channel, id, "delete");
    for (const side of [channel, provider]) {
      const list = await json(await side.as(CONNECTIONS));
      expect(list.results.map((r: { id: number }) => r.id)).not.toContain(id);
    }
  });
});

describe("List Connection Requests", () => {
  it("filters on direction and status, and pages", async () => {
    const channel = await newChannel();
    const out = await sent(channel, { provider_app_id: PROVIDER });
    const other = await newChannel();
    const incoming = await sent(other, { channel_app_id: channel.appId });
    await acted(channel, incoming.id, "accept");
    const ids = async (query: string) =>
      (await json(await channel.as(`${CONNECTIONS}${query}`))).results.map((r: { id: number }) => r.id);
    expect(await ids("")).toEqual([incoming.id, out.id]);
    expect(await ids("?direction=outgoing")).toEqual([out.id]);
    expect(await ids("?direction=incoming")).toEqual([incoming.id]);
    expect(await ids("?status=active")).toEqual([incoming.id]);
    expect(await ids("?direction=incoming&status=pending")).toEqual([]);
    expect(await ids(`?provider_app_id=${PROVIDER}`)).toEqual([out.id]);
    const page = await json(await channel.as(`${CONNECTIONS}?page_size=1`));
    expect(page).toMatchObject({ count: 2, previous: null });
    expect(page.next).toContain("page=2");
  });

  // The connection is the directory's, each store's face its own shard's (docs/shards.md): the faces
  // wait for the page that names their stores.
  it("reads the page or the request with both stores' faces in two round trips beyond the token check", async () => {
    const channel = await newChannel();
    await channel.as("/api/v1/sales-channels/profile/", { method: "PATCH", body: { name_en: "Faces Market" } });
    const out = await sent(channel, { provider_app_id: PROVIDER });
    expect(out.channel.name_en).toBe("Faces Market");
    for (const [path, view] of [
      [CONNECTIONS, (body: { results: unknown[] }) => body.results[0]],
      [`${CONNECTIONS}${out.id}/`, (body: unknown) => body],
    ] as const) {
      const { res, waits } = await callWaits(path, { token: channel.token, appId: channel.appId });
      expect(res.status, path).toBe(200);
      expect(view(await json(res)), path).toEqual(out);
      expect(waits.beyondAuth, path).toBe(2);
    }
  });

  it("400 for a bad direction, a repeated one, or an unknown parameter, naming the allowed ones", async () => {
    const channel = await newChannel();
    for (const query of [
      "?direction=sideways",
      "?direction=incoming&direction=outgoing",
      "?status=open",
      "?colour=1",
    ]) {
      const res = await channel.as(`${CONNECTIONS}${query}`);
      expect(res.status, query).toBe(400);
      const errors = (await problem(res)).errors!;
      expect(Object.keys(errors).length, query).toBe(1);
    }
    const res = await channel.as(`${CONNECTIONS}?colour=1`);
    expect((await problem(res)).errors!.colour![0]).toContain("direction");
  });
});

describe("isConnectionActive and connectedProviderAppIds", () => {
  it("say yes only while the connection is active and not deleted", async () => {
    const channel = await newChannel();
    const check = async (expected: boolean) => {
      expect(await isConnectionActive(env, channel.appId, PROVIDER)).toBe(expected);
      expect(await connectedProviderAppIds(env, channel.appId)).toEqual(expected ? [PROVIDER] : []);
      // Roles matter: the provider is not the channel's channel.
      expect(await isConnectionActive(env, PROVIDER, channel.appId)).toBe(false);
    };
    const req = await sent(channel, { provider_app_id: PROVIDER });
    await check(false);
    await acted(provider, req.id, "accept");
    await check(true);
    await acted(provider, req.id, "deactivate");
    await check(false);
    await acted(provider, req.id, "activate");
    await check(true);
    await acted(channel, req.id, "delete");
    await check(false);
  });

  it("a rejected request grants nothing", async () => {
    const { channel } = await inState("rejected");
    expect(await isConnectionActive(env, channel.appId, PROVIDER)).toBe(false);
    expect(await connectedProviderAppIds(env, channel.appId)).toEqual([]);
  });
});

sharedAuthCases({ method: "GET", path: CONNECTIONS, permission: "can_read_sales_channels" });
sharedAuthCases({
  method: "POST",
  path: CONNECTIONS,
  permission: "can_write_sales_channels",
  body: { provider_app_id: 2 },
});
sharedAuthCases({ method: "POST", path: `${CONNECTIONS}1/accept/`, permission: "can_write_sales_channels" });
sharedAuthCases({ method: "DELETE", path: `${CONNECTIONS}1/`, permission: "can_write_sales_channels" });
