import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { notDeletedRow } from "../../../core/crud/tenant-table";
import { emit, rowEvent } from "../../../core/events/outbox";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { mealSubscriptions } from "../tables";
import { newToken } from "./writes";

/**
 * A meal subscription is completed once every one of its suborders is final (delivered, cancelled,
 * not received). Evaluated where suborders reach a final status (logistics' bulk update puts these
 * statements in its own batch, after its suborder updates), never on read: only an active
 * subscription completes (a paused one still holds frozen deliveries; a cancelled one stays so).
 */
export function completionStatements(
  ctx: ServiceContext,
  subscriptionIds: readonly number[],
): { statements: BatchItem<"sqlite">[]; events: SQL } {
  const token = newToken();
  const s = mealSubscriptions;
  const update = ctx.db
    .update(s)
    .set({ status: "completed", modifiedAt: nowIso(), changeToken: token })
    .where(
      sql`${s.appId} = ${ctx.appId} AND ${inList(s.id, subscriptionIds)} AND ${s.status} = 'active'
        AND EXISTS (SELECT 1 FROM suborders o WHERE o.subscription_id = ${s.id} AND ${notDeletedRow("o")})
        AND NOT EXISTS (SELECT 1 FROM suborders o WHERE o.subscription_id = ${s.id} AND ${notDeletedRow("o")}
          AND o.status IN ('new', 'confirmed', 'on_delivery'))`,
    );
  return {
    statements: [update],
    events: rowEvent(
      "meal_subscription.completed",
      s,
      sql`app_id = ${ctx.appId} AND change_token = ${token}`,
      sql`json_object('id', id, 'status', status, 'channel_app_id', channel_app_id)`,
    ),
  };
}

/** Completes those of `subscriptionIds` whose suborders are all final, in a batch of its own. */
export async function completeFinishedSubscriptions(ctx: ServiceContext, subscriptionIds: readonly number[]) {
  if (!subscriptionIds.length) return;
  const { statements, events } = completionStatements(ctx, subscriptionIds);
  await emit(ctx.db, ctx.events, statements, events);
}
