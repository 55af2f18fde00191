import type { Context } from "hono";
import { type ChannelAdmission, customerOf } from "../../../core/auth";
import { makeServiceContext, serviceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { storeDb, storeEntry } from "../../../db/shards";
import type { AppEnv } from "../../../env";
import { customerForMobileOf, findCustomer } from "../../customers";
import { isConnectionActive } from "../../sales-channels";
import type { Buyer } from "../checkout/cart";

/**
 * Sales channel orders (design-reference 10): a marketplace (the channel store) sends a provider's
 * meals checkout with the provider's `app-id` and the access token of ITS customer. The one auth
 * path admits such a token on the meals checkout operations only (`customerRoute({ channel })`),
 * and only while the two stores' connection is active; the provider's customer for them is the
 * one with their mobile number, created on their first order. The two stores may live on different
 * shards (docs/shards.md): the connection is the directory's, the channel's customer is read on the
 * channel's shard, the provider's customer found or created on the request's (the provider's).
 */
export const admitChannelCustomer: ChannelAdmission = async (c, token) => {
  const providerAppId = c.get("appId");
  // The channel's shard (held by the isolate), then the connection and the channel's customer at
  // once; the connection's refusal comes first.
  const channel = await channelContext(c, token.channelAppId);
  const [active, source] = await Promise.all([
    isConnectionActive(c.env, token.channelAppId, providerAppId),
    findCustomer(channel, token.channelCustomerId).then(
      (row) => ({ row }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if (!active)
    throw ApiError.forbidden(
      `The access token is a customer's of store ${token.channelAppId}, which has no active sales channel connection with this store.`,
      "channel_connection_inactive",
      { channel_app_id: token.channelAppId },
    );
  if ("error" in source) {
    // A token of a customer the channel deleted identifies no one.
    if (source.error instanceof ApiError && source.error.status === 404)
      throw ApiError.unauthorized("The token is not valid.", "invalid_token");
    throw source.error;
  }
  return customerForMobileOf(serviceContext(c), source.row);
};

/**
 * A service context of the channel store, on the channel's shard: the request's own session when the
 * two stores share a shard (the checkout then reads the channel's rows in its own statements).
 */
async function channelContext(c: Context<AppEnv>, appId: number) {
  const [own, channel] = await Promise.all([storeEntry(c.env, c.get("appId")), storeEntry(c.env, appId)]);
  const db = own && channel && own.shard === channel.shard ? c.get("db") : await storeDb(c.env, appId);
  return makeServiceContext(db, appId, c.env, (p) => c.executionCtx.waitUntil(p));
}

/** The `city-id` header as a number (validated by the route's header schema), or null. */
export const cityIdOf = (c: Context<AppEnv>): number | null => {
  const raw = c.req.header("city-id");
  return raw ? Number(raw) : null;
};

/** Who buys, for a meals checkout route: the customer of the token, or the channel customer it admitted. */
export async function buyerOf(c: Context<AppEnv>): Promise<Buyer> {
  const p = customerOf(c);
  const cityId = cityIdOf(c);
  if (!p.channel)
    return {
      customerId: p.customerId,
      locations: { ctx: serviceContext(c), customerId: p.customerId },
      channel: null,
      cityId,
    };
  return {
    customerId: p.customerId,
    locations: { ctx: await channelContext(c, p.channel.appId), customerId: p.channel.customerId },
    channel: p.channel,
    cityId,
  };
}
