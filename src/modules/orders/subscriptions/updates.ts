import { and, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent } from "../../../core/events/outbox";
import { isGuardAbort } from "../../../core/guards";
import { nowIso, todayIn } from "../../../core/time";
import { readStoreSettings } from "../../account";
import { itemsForPricing } from "../../items";
import { addDuration } from "../recurring/dates";
import { daysBetween, guardedUpdate, newChangeToken, retrying, type SubscriptionSet } from "./change";
import { subscriptionMachine, subscriptionUpdateMachine } from "./machine";
import type { CreateSubscriptionUpdate, SubscriptionUpdate } from "./schemas";
import { findSubscription, type SubscriptionRow, updateView } from "./service";
import { type SubscriptionChanges, subscriptionUpdates } from "./tables";

type UpdateRow = typeof subscriptionUpdates.$inferSelect;

/** What a change sets on the subscription (item, price, period length, usage limit). */
export function changesSet(c: SubscriptionChanges, item?: { nameEn: string; nameAr: string }): SubscriptionSet {
  return {
    ...(c.item_id !== undefined && { itemId: c.item_id }),
    ...(item && { nameEn: item.nameEn, nameAr: item.nameAr }),
    ...(c.price_minor !== undefined && { unitPriceMinor: c.price_minor }),
    ...(c.duration !== undefined && { duration: c.duration }),
    ...(c.duration_unit !== undefined && { durationUnit: c.duration_unit }),
    ...(c.usage_limit !== undefined && { usageLimit: c.usage_limit }),
  };
}

export const updateEventSql = (type: "subscription.update_created" | "subscription.update_applied", where: SQL) =>
  rowEvent(
    type,
    subscriptionUpdates,
    where,
    sql`json_object('id', id, 'subscription_id', subscription_id, 'status', status)`,
  );

/**
 * MS10: a change of item, price, period length or usage limit. `next_period`: pending until the
 * next renewal applies it (one pending at a time: a second is a 409). `immediate`: applied now; a
 * price change owes (or credits) the rest of the period's share of the difference, added to the next
 * renewal; a new period length moves the current period's end.
 */
export async function createSubscriptionUpdate(
  ctx: ServiceContext,
  id: number,
  body: CreateSubscriptionUpdate,
): Promise<SubscriptionUpdate> {
  const { timezone } = await readStoreSettings(ctx.db, ctx.appId);
  let item: { nameEn: string; nameAr: string; unitPriceMinor: number } | undefined;
  if (body.item_id !== undefined) {
    const found = (await itemsForPricing(ctx, [body.item_id])).get(body.item_id);
    if (!found?.isLive || found.parentId !== null)
      throw ApiError.validation({ item_id: [`No item ${body.item_id} in the store's catalogue.`] });
    item = found;
  }
  const changes: SubscriptionChanges = {
    ...(body.item_id !== undefined && { item_id: body.item_id }),
    ...((body.price !== undefined || item) && { price_minor: body.price ?? item!.unitPriceMinor }),
    ...(body.duration !== undefined && { duration: body.duration }),
    ...(body.duration_unit !== undefined && { duration_unit: body.duration_unit }),
    ...(body.usage_limit !== undefined && { usage_limit: body.usage_limit }),
  };
  const updateId = await retrying(id, async () => {
    const r = await findSubscription(ctx, id);
    subscriptionMachine.next(r.status, "update", `Subscription ${id}`);
    const at = nowIso();
    const today = todayIn(timezone);
    const immediate = body.effective === "immediate";
    const proration = immediate ? prorationOf(r, changes, today) : 0;
    const asRead = sql`EXISTS (SELECT 1 FROM subscriptions WHERE id = ${id} AND status = ${r.status}
      AND modified_at = ${r.modifiedAt})`;
    const noPending = sql`NOT EXISTS (SELECT 1 FROM subscription_updates WHERE subscription_id = ${id} AND status = 'pending')`;
    const plan = new BatchPlan(ctx.db).guard(sql`${asRead} AND ${noPending}`, "subscription update");
    const update = plan.insert(
      "subscription_update",
      ctx.db.insert(subscriptionUpdates).values({
        appId: ctx.appId,
        subscriptionId: id,
        status: immediate ? "applied" : "pending",
        effective: body.effective,
        effectiveAt: immediate ? today : r.nextBillingDate,
        changes,
        prorationMinor: proration,
        appliedAt: immediate ? at : null,
        createdAt: at,
        modifiedAt: at,
      }),
    );
    plan.event(updateEventSql("subscription.update_created", sql`id = ${update.id}`));
    if (immediate)
      plan
        .add(guardedUpdate(ctx, r, immediateSet(r, changes, item, proration, today), newChangeToken(), at))
        .event(updateEventSql("subscription.update_applied", sql`id = ${update.id}`));
    try {
      return (await plan.run(ctx.events)).id(update);
    } catch (error) {
      if (!isGuardAbort(error)) throw error;
      const pending = await ctx.db
        .select({ id: subscriptionUpdates.id })
        .from(subscriptionUpdates)
        .where(and(eq(subscriptionUpdates.subscriptionId, id), eq(subscriptionUpdates.status, "pending")))
        .get();
      if (pending)
        throw ApiError.conflict("subscription_update_pending", `Subscription ${id} has pending update ${pending.id}.`, {
          update_id: pending.id,
        });
      return undefined;
    }
  });
  return updateView(
    (await ctx.db.select().from(subscriptionUpdates).where(eq(subscriptionUpdates.id, updateId)).get())!,
  );
}

/** The rest of the current period's share of a price difference (minor units; negative is a credit). */
function prorationOf(r: SubscriptionRow, c: SubscriptionChanges, today: string): number {
  if (c.price_minor === undefined || !r.currentPeriodStartDate || !r.currentPeriodEndDate) return 0;
  const length = daysBetween(r.currentPeriodStartDate, r.currentPeriodEndDate);
  const left = Math.max(0, daysBetween(today, r.currentPeriodEndDate));
  if (length <= 0) return 0;
  return Math.round(((c.price_minor - r.unitPriceMinor) * r.quantity * Math.min(left, length)) / length);
}

function immediateSet(
  r: SubscriptionRow,
  c: SubscriptionChanges,
  item: { nameEn: string; nameAr: string } | undefined,
  proration: number,
  today: string,
): SubscriptionSet {
  const set: SubscriptionSet = { ...changesSet(c, item), prorationMinor: r.prorationMinor + proration };
  const lengthChanged = c.duration !== undefined || c.duration_unit !== undefined;
  if (lengthChanged && r.currentPeriodStartDate && (r.status === "active" || r.status === "trialing") && !r.inTrial) {
    const end = addDuration(r.currentPeriodStartDate, c.duration ?? r.duration, c.duration_unit ?? r.durationUnit);
    // A period already longer than the new length ends today: its renewal is due.
    const bounded = end < today ? today : end;
    set.currentPeriodEndDate = bounded;
    set.nextBillingDate = bounded;
  }
  return set;
}

/** MS11: a pending update cancelled (an applied or cancelled one is a 409). */
export async function cancelSubscriptionUpdate(
  ctx: ServiceContext,
  id: number,
  updateId: number,
): Promise<SubscriptionUpdate> {
  await findSubscription(ctx, id);
  const find = async (): Promise<UpdateRow> => {
    const u = await ctx.db
      .select()
      .from(subscriptionUpdates)
      .where(and(eq(subscriptionUpdates.id, updateId), eq(subscriptionUpdates.subscriptionId, id)))
      .get();
    if (!u) throw ApiError.notFound("subscription_update_not_found", `Update ${updateId} of subscription ${id}`);
    return u;
  };
  const u = await find();
  subscriptionUpdateMachine.next(u.status, "cancel", `Update ${updateId}`);
  const at = nowIso();
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(subscriptionUpdates)
        .set({ status: "cancelled", cancelledAt: at, modifiedAt: at })
        .where(and(eq(subscriptionUpdates.id, updateId), eq(subscriptionUpdates.status, "pending"))),
    ],
    rowEvent(
      "subscription.update_cancelled",
      subscriptionUpdates,
      sql`id = ${updateId} AND status = 'cancelled' AND cancelled_at = ${at}`,
      sql`json_object('id', id, 'subscription_id', subscription_id, 'status', status)`,
    ),
  );
  const after = await find();
  // Applied by a renewal meanwhile: the 409 names what it is now.
  if (after.status !== "cancelled" || after.cancelledAt !== at)
    subscriptionUpdateMachine.next(after.status, "cancel", `Update ${updateId}`);
  return updateView(after);
}
