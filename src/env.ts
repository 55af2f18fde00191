import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Principal } from "./core/principal";
import type { StoreEntry } from "./db/store-entry";

/** The per-request database: drizzle over a D1 session (see db/client.ts). */
export type Db = DrizzleD1Database<Record<string, never>>;

/** Hono environment shared by every router: the bindings and secrets, and per-request values. */
export type AppEnv = {
  /**
   * The bindings, vars and declared secrets, from `wrangler types`; and the platform operator's key,
   * an optional secret (without it the platform routes answer 503, so a deploy never needs it).
   */
  Bindings: Env & { PLATFORM_API_KEY?: string };
  Variables: {
    requestId: string;
    db: Db;
    /** The binding name of the shard `db` is on (db/session.ts). */
    shard: string;
    /** The `app-id` store's directory row as db/session.ts read it, for the store check (core/tenancy). */
    storeEntry?: Promise<StoreEntry | null>;
    /** The tenant named by the `app-id` header. */
    appId: number;
    /** The organization named by the `org-id` header, where the operation takes one. */
    orgId: number | null;
    principal: Principal;
    /** Customer routes: the `app-id` store's check, started beside the token's (core/tenancy). */
    storeCheck?: Promise<void>;
    /**
     * Customer routes whose handler runs beside the admission (the store and the customer's standing):
     * settles when both pass, rejects with the refusal (core/auth).
     */
    admission?: Promise<void>;
  };
};
