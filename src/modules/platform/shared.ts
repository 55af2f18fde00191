import type { Context } from "hono";
import type { AuditContext } from "../../core/audit";
import { auditContextOf, executionCtxOf } from "../../core/context";
import type { EventSink } from "../../core/events/outbox";
import { logTaskFailure } from "../../core/logging";
import { copyPlatformAudit } from "../../db/platform-audit";
import type { AppEnv } from "../../env";

/** Where a platform request's events go (a store's outbox): the Worker's queue, sent after the response. */
export function eventSinkOf(c: Context<AppEnv>): EventSink {
  const ctx = executionCtxOf(c);
  return { queue: c.env.EVENTS, defer: (p) => (ctx ? ctx.waitUntil(p) : void p) };
}

/** The audit trail's actor of a platform request: the platform (`authenticatePlatform` set the principal). */
export function platformAuditOf(c: Context<AppEnv>): AuditContext {
  const audit = auditContextOf(c);
  if (audit?.actor.type !== "platform") throw new Error("platformAuditOf() on a route without authenticatePlatform()");
  return audit;
}

export const PLATFORM_TAGS = ["Platform"];
/** Why the platform operations exist beside the spec's. */
export const PLATFORM_BEYOND_SPEC =
  "The spec serves stores that exist; the platform operator creates them, suspends them and issues their first key.";

/**
 * After a platform write on `shard`, its audit row is copied to the directory's platform trail, after
 * the response (db/platform-audit.ts): List Platform Audit Events shows it within a moment, and the
 * scheduled `copy-platform-audit` task copies it if this isolate stops first.
 */
export function copyAuditAfter(c: Context<AppEnv>, shard: string): void {
  const copy = copyPlatformAudit(c.env, shard).catch((error) =>
    logTaskFailure("copy platform audit", error, { shard }),
  );
  const ctx = executionCtxOf(c);
  if (ctx) ctx.waitUntil(copy);
}
