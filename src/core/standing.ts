import type { Context } from "hono";
import type { Db } from "../db/client";
import { storeDb } from "../db/shards";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";
import { HeldFor } from "./held";
import { TOKEN_HOLD_MS } from "./tenancy";

/**
 * Where a customer's access token stands beyond its signature: the customers module answers (core
 * knows no customers table), and `createApp` hands its answer over with `checkCustomerStanding`.
 */
export type CustomerStanding = "active" | "blocked" | "gone";
export type StandingCheck = (db: Db, appId: number, customerId: number) => Promise<CustomerStanding>;
let standingOf: StandingCheck | undefined;

export function checkCustomerStanding(check: StandingCheck): void {
  standingOf = check;
  heldStandings.clear();
}

/**
 * Standings as this isolate last read them, for at most TOKEN_HOLD_MS, as merchant tokens are: a
 * block or a deletion is seen at once in the isolate that made it (it forgets the customer), and
 * within a second elsewhere, although the access token itself is valid for 15 minutes.
 */
const heldStandings = new HeldFor<string, CustomerStanding>(TOKEN_HOLD_MS);

export function forgetCustomerStanding(appId: number, customerId: number): void {
  heldStandings.delete(`${appId}:${customerId}`);
}

export async function requireGoodStanding(
  c: Context<AppEnv>,
  appId: number,
  customerId: number,
  ofAnotherStore = false,
): Promise<void> {
  if (!standingOf) throw new Error("No customer standing check: createApp() registers it");
  const key = `${appId}:${customerId}`;
  const now = Date.now();
  let standing = heldStandings.get(key, now);
  if (!standing) {
    // A channel's customer (on a provider's request) stands in the channel store's shard.
    const db = ofAnotherStore ? await storeDb(c.env, appId) : c.get("db");
    standing = await standingOf(db, appId, customerId);
    heldStandings.set(key, standing, now);
  }
  if (standing === "blocked")
    throw ApiError.forbidden("The store blocked this customer: their tokens are refused.", "customer_blocked");
  if (standing === "gone")
    throw ApiError.unauthorized("The customer's account was deleted: this token is revoked.", "token_revoked");
}
