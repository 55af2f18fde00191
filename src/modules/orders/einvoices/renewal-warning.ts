import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { makeServiceContext } from "../../../core/context";
import { emit, rowEvent } from "../../../core/events/outbox";
import { logTaskFailure } from "../../../core/logging";
import { createDb } from "../../../db/client";
import { everyShardBinding } from "../../../db/shards";
import { einvoiceUnits } from "./tables";
import { UNIT_REF } from "./units";

/** How long before its production CSID expires a unit's store is told to renew it. */
export const RENEWAL_NOTICE_DAYS = 30;

/**
 * The webhooks' cron (docs/zatca.md, "Renewal"): every active unit whose production CSID expires
 * within 30 days gets `einvoice_unit.expiring`, once per certificate (`renewal_warned_at`, cleared
 * when a renewal stores a new one), in the batch that marks it.
 */
export async function warnExpiringUnits(env: Env, waitUntil: (p: Promise<unknown>) => void, now = Date.now()) {
  const at = new Date(now).toISOString();
  const horizon = new Date(now + RENEWAL_NOTICE_DAYS * 86_400_000).toISOString();
  for (const { name, d1 } of everyShardBinding(env)) {
    const db = createDb(d1);
    try {
      const due = and(
        eq(einvoiceUnits.status, "active"),
        lt(einvoiceUnits.productionNotAfter, horizon),
        isNull(einvoiceUnits.renewalWarnedAt),
      );
      await emit(
        db,
        makeServiceContext(db, 0, env, waitUntil).events,
        [db.update(einvoiceUnits).set({ renewalWarnedAt: at }).where(due)],
        rowEvent(
          "einvoice_unit.expiring",
          einvoiceUnits,
          sql`renewal_warned_at = ${at} AND status = 'active'`,
          UNIT_REF,
        ),
      );
    } catch (error) {
      logTaskFailure("warn expiring e-invoicing units", error, { shard: name });
    }
  }
}
