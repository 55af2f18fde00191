import { type SQL, sql } from "drizzle-orm";
import { notDeletedRow } from "../../core/crud/tenant-table";
import type { Db } from "../../db/client";
import { channelConnections } from "./tables";

/**
 * Whether the channel store may sell the provider store's plans now: an active connection that is
 * not deleted. Every access across stores goes through this (or `connectedProviderAppIds`).
 */
export async function isConnectionActive(db: Db, channelAppId: number, providerAppId: number): Promise<boolean> {
  const row = await db
    .select({ id: channelConnections.id })
    .from(channelConnections)
    .where(activeConnection(channelAppId, providerAppId))
    .get();
  return row !== undefined;
}

const activeConnection = (channelAppId: number, providerAppId: number): SQL =>
  sql`${channelConnections.channelAppId} = ${channelAppId} AND ${channelConnections.providerAppId} = ${providerAppId}
    AND ${channelConnections.status} = 'active' AND ${notDeletedRow(channelConnections)}`;

/** `isConnectionActive` as a condition of a statement that reads more (1 or 0). */
export const connectionActiveSql = (channelAppId: number, providerAppId: number): SQL =>
  sql`EXISTS (SELECT 1 FROM ${channelConnections} WHERE ${activeConnection(channelAppId, providerAppId)})`;

const activeAsChannel = (channelAppId: number): SQL =>
  sql`${channelConnections.channelAppId} = ${channelAppId} AND ${channelConnections.status} = 'active'
    AND ${notDeletedRow(channelConnections)}`;

/** The provider stores the channel is actively connected to. */
export async function connectedProviderAppIds(db: Db, channelAppId: number): Promise<number[]> {
  const rows = await db
    .select({ providerAppId: channelConnections.providerAppId })
    .from(channelConnections)
    .where(activeAsChannel(channelAppId))
    .all();
  return [...new Set(rows.map((r) => r.providerAppId))];
}

/**
 * `connectedProviderAppIds` as a subquery, for a read across stores that checks the connections in
 * its own statement (`app_id IN (...)`) rather than in a round trip before it.
 */
export const connectedProviderAppIdsSql = (channelAppId: number): SQL =>
  sql`SELECT ${channelConnections.providerAppId} FROM ${channelConnections} WHERE ${activeAsChannel(channelAppId)}`;
