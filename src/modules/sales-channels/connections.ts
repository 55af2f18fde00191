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

/** The provider stores the channel is actively connected to. */
export async function connectedProviderAppIds(db: Db, channelAppId: number): Promise<number[]> {
  const rows = await db
    .select({ providerAppId: channelConnections.providerAppId })
    .from(channelConnections)
    .where(
      sql`${channelConnections.channelAppId} = ${channelAppId} AND ${channelConnections.status} = 'active'
        AND ${notDeletedRow(channelConnections)}`,
    )
    .all();
  return [...new Set(rows.map((r) => r.providerAppId))];
}
