import { and, eq } from "drizzle-orm";
import type { CustomerStanding } from "../../../core/auth";
import { live } from "../../../core/crud/tenant-table";
import type { Db } from "../../../db/client";
import { customers } from "../tables";

/**
 * Where the customer of an access token stands, for the auth path on every customer request: one
 * primary-key read. A token outlives a block or a deletion by up to 15 minutes; this ends it.
 */
export async function customerStanding(db: Db, appId: number, customerId: number): Promise<CustomerStanding> {
  const row = await db
    .select({ isBlocked: customers.isBlocked })
    .from(customers)
    .where(and(eq(customers.id, customerId), live(customers, appId)))
    .get();
  return !row ? "gone" : row.isBlocked ? "blocked" : "active";
}
