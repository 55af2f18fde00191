import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { mintMerchantToken, PERMISSIONS, type Permission } from "../../src/core/auth";
import { tokenDirectory } from "../../src/db/directory";
import { directoryOf } from "../../src/db/shards";
import { db, ensureTenant } from "../helpers/factories";
import { call, json } from "../helpers/request";
import { eventsWhere } from "../orders/helpers";

export const CONNECTIONS = "/api/v1/sales-channels/connection-requests/";
export const PROFILE = "/api/v1/sales-channels/profile/";
export const PROVIDER_PLANS = "/api/v1/sales-channels/meals/provider-plans/";
export const LISTINGS = "/api/v1/sales-channels/meals/plan-listings/";

export const ACTIONS = ["accept", "reject", "activate", "deactivate", "delete"] as const;
export type Action = (typeof ACTIONS)[number];

type Opts = { method?: string; body?: unknown };

/** A store of the test's own, with a merchant token (its id too: `decided_by` names it). */
export async function storeOf(appId: number, permissions: Permission[] = [...PERMISSIONS]) {
  await ensureTenant(appId);
  const { id: tokenId, token } = await mintMerchantToken(
    db(appId),
    { appId, name: "sales channels", permissions },
    tokenDirectory(env),
  );
  const as = (path: string, opts: Opts = {}) => call(path, { ...opts, token, appId });
  return { appId, token, tokenId, as };
}
export type Shop = Awaited<ReturnType<typeof storeOf>>;

/** Sends a connection request (201 expected) and returns it. */
export async function sent(from: Shop, body: Record<string, unknown>) {
  const res = await from.as(CONNECTIONS, { method: "POST", body });
  const out = await json(res);
  expect(res.status, JSON.stringify(out)).toBe(201);
  return out;
}

/** Takes an action on a connection request: DELETE for `delete`, a POST sub-resource otherwise. */
export const act = (as: Shop, id: number, action: Action) =>
  action === "delete"
    ? as.as(`${CONNECTIONS}${id}/`, { method: "DELETE" })
    : as.as(`${CONNECTIONS}${id}/${action}/`, { method: "POST" });

/** Takes an action that must succeed. */
export async function acted(as: Shop, id: number, action: Action) {
  const res = await act(as, id, action);
  expect(res.status, await res.clone().text()).toBe(action === "delete" ? 204 : 200);
}

/** An active connection: `channel` asks `provider`, which accepts. Returns its id. */
export async function connect(channel: Shop, provider: Shop): Promise<number> {
  const req = await sent(channel, { provider_app_id: provider.appId });
  await acted(provider, req.id, "accept");
  return req.id;
}

/** The stored row of a connection (deleted ones too): the directory's. */
export const connectionRow = async (id: number) =>
  (await directoryOf(env).prepare("SELECT * FROM sales_channel_connections WHERE id = ?").bind(id).first())!;

/** A connection written directly in the directory (for tests of what it grants, not of its API); its id. */
export async function insertConnection(channelAppId: number, providerAppId: number, status = "pending") {
  const at = "2026-01-01T00:00:00.000Z";
  const row = await directoryOf(env)
    .prepare(
      `INSERT INTO sales_channel_connections (app_id, channel_app_id, provider_app_id, status, requested_at, created_at, modified_at)
       VALUES (?1, ?1, ?2, ?3, ?4, ?4, ?4) RETURNING id`,
    )
    .bind(channelAppId, providerAppId, status, at)
    .first<{ id: number }>();
  return row!.id;
}

/** Puts a connection in a status (and deleted or not) directly in the directory. */
export const setConnectionState = (id: number, status: string, deleted = 0) =>
  directoryOf(env)
    .prepare("UPDATE sales_channel_connections SET status = ?, is_deleted = ? WHERE id = ?")
    .bind(status, deleted, id)
    .run();

/** The event each action emits. */
export const EVENT_OF: Record<Action, string> = {
  accept: "sales_channel.connection_accepted",
  reject: "sales_channel.connection_rejected",
  activate: "sales_channel.connection_activated",
  deactivate: "sales_channel.connection_deactivated",
  delete: "sales_channel.connection_deleted",
};

export const CONNECTION_EVENTS = ["sales_channel.connection_requested", ...Object.values(EVENT_OF)];

/** The store's `sales_channel.connection_*` events of connection `id`, oldest first. */
export const connectionEvents = (appId: number, id: number) => eventsWhere(appId, CONNECTION_EVENTS, "id", id);

/**
 * Channel stores of the test file's own, from store `first` on (a fresh one for each pair a test needs:
 * one live connection per channel and provider), and connections to `provider()` put in a state.
 */
export function channelsFrom(first: number, provider: () => Shop) {
  let nextChannel = first;
  const newChannel = () => storeOf(nextChannel++);

  /** Puts a fresh connection in `state` and returns it with the stores on each side. */
  async function inState(state: "pending" | "active" | "inactive" | "rejected") {
    const channel = await newChannel();
    const req = await sent(channel, { provider_app_id: provider().appId });
    if (state === "active" || state === "inactive") await acted(provider(), req.id, "accept");
    if (state === "rejected") await acted(provider(), req.id, "reject");
    if (state === "inactive") await acted(channel, req.id, "deactivate");
    return { id: req.id as number, channel };
  }

  return { newChannel, inState };
}
