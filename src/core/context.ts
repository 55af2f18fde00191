import type { Context } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import type { EventSink } from "../events/outbox";

/** What a service needs of the request: the tenant's db scope and where its events go. */
export type ServiceContext = { db: Db; appId: number; events: EventSink };

/** The service context of a request: its db session, its tenant and its event sink. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  return {
    db: c.get("db"),
    appId: c.get("appId"),
    events: { queue: c.env.EVENTS, defer: (p) => c.executionCtx.waitUntil(p) },
  };
}
