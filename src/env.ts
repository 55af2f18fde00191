import type { Principal } from "./core/auth";
import type { Db } from "./db/client";

/** Hono environment shared by every router: the bindings from `wrangler types` and per-request values. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Db;
    /** The tenant named by the `app-id` header. */
    appId: number;
    /** The organization named by the `org-id` header, where the operation takes one. */
    orgId: number | null;
    principal: Principal;
  };
};
