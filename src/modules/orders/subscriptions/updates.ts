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
  // Everything it reads, at once: the store's calendar, the new item, the subscription as it is.
  const [{ timezone }, priced, first] = await Promise.all([
    readStoreSettings(ctx.db, ctx.appId),
    body.item_id === undefined ? undefined : itemsForPricing(ctx, [body.item_id]),
    // Held, not thrown, until the item is checked: a bad item is a 400 before a missing subscription's 404.
    findSubscription(ctx, id).then(
      (row) => ({ row }),
      (error: unknown) => ({ error }),
    ),
  ]);
  let item: { nameEn: string; nameAr: string; unitPriceMinor: number } | undefined;
  if (body.item_id !== undefined) {
    const found = priced?.get(body.item_id);
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
  if ("error" in first) throw first.error;
  let read: SubscriptionRow | undefined = first.row;
  return retrying(id, async () => {
    const r = read ?? (await findSubscription(ctx, id));
    read = undefined;
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
    const shown = plan.read<UpdateRow>(ctx.db.select().from(subscriptionUpdates).where(sql`id = ${update.id}`));
    try {
      return updateView((await plan.run(ctx.events)).rows(shown)[0]!);
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

/** MS11: a pending update cancelled (an applied or cancelled one is a 409): one read, one batch that reads it back. */
export async function cancelSubscriptionUpdate(
  ctx: ServiceContext,
  id: number,
  updateId: number,
): Promise<SubscriptionUpdate> {
  const ofUpdate = and(eq(subscriptionUpdates.id, updateId), eq(subscriptionUpdates.subscriptionId, id));
  const [, u] = await Promise.all([
    findSubscription(ctx, id),
    ctx.db.select().from(subscriptionUpdates).where(ofUpdate).get(),
  ]);
  if (!u) throw ApiError.notFound("subscription_update_not_found", `Update ${updateId} of subscription ${id}`);
  subscriptionUpdateMachine.next(u.status, "cancel", `Update ${updateId}`);
  const at = nowIso();
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(subscriptionUpdates)
        .set({ status: "cancelled", cancelledAt: at, modifiedAt: at })
        .where(and(eq(subscriptionUpdates.id, updateId), eq(subscriptionUpdates.status, "pending"))),
      ctx.db.select().from(subscriptionUpdates).where(ofUpdate),
    ],
    rowEvent(
      "subscription.update_cancelled",
      subscriptionUpdates,
      sql`id = ${updateId} AND status = 'cancelled' AND cancelled_at = ${at}`,
      sql`json_object('id', id, 'subscription_id', subscription_id, 'status', status)`,
    ),
  );
  const after = (results[1] as UpdateRow[])[0]!;
  // Applied by a renewal meanwhile: the 409 names what it is now.
  if (after.status !== "cancelled" || after.cancelledAt !== at)
    subscriptionUpdateMachine.next(after.status, "cancel", `Update ${updateId}`);
  return updateView(after);
}
