import type { Context } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import type { AssetFetcher } from "./assets";
import { type AuditContext, PLATFORM_ACTOR } from "./audit";
import { type EventSink, outboxRoutes } from "./events/outbox";

/**
 * What a service needs of the request: the tenant's db scope, where its events go, the queue
 * of background jobs (an SMS, a push) it may hand work to, and who is acting, for the audit trail
 * (absent where no merchant or operator acts: a customer, the service's own background work), and
 * the static assets where the Worker has them (data read on first use: core/assets.ts).
 */
export type ServiceContext = {
  db: Db;
  appId: number;
  events: EventSink;
  jobs: Queue;
  audit?: AuditContext;
  assets?: AssetFetcher;
};

/** The one way to build a service context: a db, a tenant, the Worker's queues, and where deferred work runs. */
export function makeServiceContext(
  db: Db,
  appId: number,
  env: Pick<Env, "EVENTS" | "JOBS"> & Partial<Pick<Env, "EINVOICES" | "ASSETS">>,
  waitUntil: (p: Promise<unknown>) => void,
): ServiceContext {
  const events = { queue: env.EVENTS, defer: waitUntil, routes: outboxRoutes(env) };
  return { db, appId, events, jobs: env.JOBS, ...(env.ASSETS && { assets: env.ASSETS }) };
}

/** The service context of a request: its db session, its tenant, its event sink and job queue. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const ctx = makeServiceContext(c.get("db"), c.get("appId"), c.env, (p) => c.executionCtx.waitUntil(p));
  const audit = auditContextOf(c);
  return audit ? { ...ctx, audit } : ctx;
}

/** The request's actor for the audit trail: its merchant key, or the platform operator; none for a customer. */
export function auditContextOf(c: Context<AppEnv>): AuditContext | undefined {
  const p = c.get("principal");
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  if (p?.kind === "platform") return { actor: PLATFORM_ACTOR, requestId };
  if (p?.kind !== "merchant") return undefined;
  return { actor: { type: "api_key", id: p.tokenId }, requestId };
}

/** The request's execution context, or undefined where there is none (a test's `app.request()`). */
export function executionCtxOf(c: Context): Context["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
