import { and, eq, type SQL } from "drizzle-orm";
import { notDeleted } from "../../core/crud/tenant-table";
import { channelDirectory } from "../../db/channel-directory";
import { salesChannelConnections } from "../../db/channel-directory-schema";

/**
 * Whether a channel store may sell a provider store's plans now, and which providers a channel is
 * connected to: read in the directory, where the connection rows live (docs/shards.md, "Sales
 * channels across shards"), whatever the shards of the two stores. Every access across stores goes
 * through these.
 */

const c = salesChannelConnections;

/** An active connection that is not deleted, as the channel. */
const activeAsChannel = (channelAppId: number): SQL =>
  and(eq(c.channelAppId, channelAppId), eq(c.status, "active"), notDeleted(c))!;

/** Whether the channel store has an active connection with the provider store. */
export async function isConnectionActive(env: Env, channelAppId: number, providerAppId: number): Promise<boolean> {
  const row = await channelDirectory(env)
    .select({ id: c.id })
    .from(c)
    .where(and(activeAsChannel(channelAppId), eq(c.providerAppId, providerAppId)))
    .get();
  return row !== undefined;
}

/** The provider stores the channel is actively connected to, in id order. */
export async function connectedProviderAppIds(env: Env, channelAppId: number): Promise<number[]> {
  const rows = await channelDirectory(env)
    .select({ providerAppId: c.providerAppId })
    .from(c)
    .where(activeAsChannel(channelAppId))
    .all();
  return [...new Set(rows.map((r) => r.providerAppId))].sort((a, b) => a - b);
}
