import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { makeServiceContext } from "../../../core/context";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import { logTaskFailure } from "../../../core/logging";
import { createDb } from "../../../db/client";
import { everyShardBinding } from "../../../db/shards";
import { einvoiceUnits, type UnitMessage } from "./tables";
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
        // Every write stamps modified_at (the list syncs on it); only active units, so the
        // interrupted onboardings' clock below (modified_at of onboarding and renewing units) is untouched.
        [db.update(einvoiceUnits).set({ renewalWarnedAt: at, modifiedAt: at }).where(due)],
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

/** Longer than any onboarding takes (a few calls of at most 15 s each): its consumer is gone. */
export const INTERRUPTED_AFTER_MS = 10 * 60_000;

const INTERRUPTED: UnitMessage = {
  code: "local-interrupted",
  category: "local",
  message: "The onboarding was interrupted after the OTP was sent to ZATCA: try again with a new OTP.",
};

/**
 * The webhooks' cron: a unit whose consumer took its OTP and never wrote the answer (its isolate
 * died) would hold the store's one unit forever; after 10 minutes it is `failed` (onboarding) or
 * `active` on its old CSID (renewing), with a message saying to try again, and its event.
 */
export async function endInterruptedOnboardings(env: Env, waitUntil: (p: Promise<unknown>) => void, now = Date.now()) {
  const at = new Date(now).toISOString();
  const before = new Date(now - INTERRUPTED_AFTER_MS).toISOString();
  const taken = (status: "onboarding" | "renewing") =>
    and(eq(einvoiceUnits.status, status), isNull(einvoiceUnits.otpSealed), lt(einvoiceUnits.modifiedAt, before));
  for (const { name, d1 } of everyShardBinding(env)) {
    const db = createDb(d1);
    try {
      await emit(
        db,
        makeServiceContext(db, 0, env, waitUntil).events,
        [
          db
            .update(einvoiceUnits)
            .set({ status: "failed", messages: [INTERRUPTED], modifiedAt: at })
            .where(taken("onboarding")),
          db
            .update(einvoiceUnits)
            .set({ status: "active", messages: [INTERRUPTED], modifiedAt: at })
            .where(taken("renewing")),
        ],
        unionEvents([
          rowEvent(
            "einvoice_unit.onboarding_failed",
            einvoiceUnits,
            sql`status = 'failed' AND modified_at = ${at}`,
            UNIT_REF,
          ),
          rowEvent(
            "einvoice_unit.renewal_failed",
            einvoiceUnits,
            sql`status = 'active' AND modified_at = ${at} AND json_extract(messages, '$[0].code') = ${INTERRUPTED.code}`,
            UNIT_REF,
          ),
        ]),
      );
    } catch (error) {
      logTaskFailure("onboard e-invoicing unit", error, { shard: name });
    }
  }
}
