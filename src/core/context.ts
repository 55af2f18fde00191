import type { Context } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import type { EventSink } from "./events/outbox";

/** What a service needs of the request: the tenant's db scope and where its events go. */
export type ServiceContext = { db: Db; appId: number; events: EventSink };

/** The one way to build a service context: a db, a tenant, and the queue its events go to after the work. */
export function makeServiceContext(
  db: Db,
  appId: number,
  queue: Queue,
  waitUntil: (p: Promise<unknown>) => void,
): ServiceContext {
  return { db, appId, events: { queue, defer: waitUntil } };
}

/** The service context of a request: its db session, its tenant and its event sink. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  return makeServiceContext(c.get("db"), c.get("appId"), c.env.EVENTS, (p) => c.executionCtx.waitUntil(p));
}
