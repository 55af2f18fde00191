import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { nowMs } from "../../../core/clock";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { type EventMessage, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { getLocation } from "../../customers";
import { deliversTo, restaurantLogisticsOf } from "../../meals";
import {
  calendarOf,
  changeableDeliveries,
  checkCancel,
  checkPause,
  checkPostpone,
  checkResume,
  type Delivery,
  firstChangeableDate,
  resumePlan,
  takenDates,
} from "../rules";
import { mealSubscriptions } from "../tables";
import { mealSubscriptionMachine } from "./machine";
import type { MealSubscriptionDetails, SuborderAction } from "./schemas";
import {
  customerSubscriptionRead,
  managedOf,
  type SubscriptionRow,
  type SubscriptionScope,
  subscriptionFromReads,
  subscriptionRead,
  subscriptionReads,
} from "./service";
import {
  allTouched,
  moveSuborders,
  newToken,
  subscriptionUnchanged,
  updateOpenSuborders,
  writeGuarded,
} from "./writes";

/** MM1 actions on a subscription: postpone, pause, resume, cancel, change location (rules.ts decides). */

const label = (id: number) => `Meal subscription ${id}`;

/**
 * The subscription in the scope with what its rules read, in one batch keyed by the id; `owner` is
 * the context of its store.
 */
async function loadManaged(ctx: ServiceContext, id: number, scope: SubscriptionScope) {
  const found = subscriptionRead(id, (await ctx.db.batch(subscriptionReads(ctx, id, scope))) as never);
  return { ...found, owner: { ...ctx, appId: found.row.appId } as ServiceContext };
}

/**
 * Runs the change's guarded batch and answers the subscription as the batch's last reads see it
 * (the same reads as Subscription Details), so that no read follows the write.
 */
async function writeAndRead(
  ctx: ServiceContext,
  owner: ServiceContext,
  id: number,
  scope: SubscriptionScope,
  statements: BatchItem<"sqlite">[],
  events: EventMessage[],
): Promise<MealSubscriptionDetails> {
  const reads = subscriptionReads(ctx, id, scope);
  const { results } = await writeGuarded(owner, [...statements, ...reads], events, label(id));
  return subscriptionFromReads(id, results.slice(-reads.length) as never);
}

const ref = (r: SubscriptionRow, status = r.status) => ({ id: r.id, status, channel_app_id: r.channelAppId });

const suborderUpdated = (appId: number, r: SubscriptionRow, d: { id: number; date: string }, fields: string[]) =>
  newEvent(appId, "suborder.updated", { id: d.id, subscription_id: r.id, date: d.date, fields });

const lastDate = (dates: Iterable<string>, fallback: string) => [...dates, fallback].sort().at(-1)!;

/** POST /subscriptions/{id}/suborders/actions/: postpone, pause or resume. */
export async function suborderAction(
  ctx: ServiceContext,
  id: number,
  input: SuborderAction,
  scope: SubscriptionScope,
): Promise<MealSubscriptionDetails> {
  const { row, owner, t, deliveries } = await loadManaged(ctx, id, scope);
  const sub = managedOf(row);
  const at = nowIso();
  const clock = nowMs();
  const token = newToken();
  const statements = [subscriptionUnchanged(owner, row)];
  const events: EventMessage[] = [];
  const app = row.appId;

  if (input.action === "postpone") {
    mealSubscriptionMachine.next(row.status, "postpone", label(id));
    const moves = checkPostpone(deliveries, t, input.dates, clock);
    const endDate = lastDate([...takenDates(deliveries), ...moves.map((m) => m.to)], row.endDate);
    statements.push(
      moveSuborders(owner, moves, token, at, { isPostponed: true }),
      allTouched(owner, token, moves.length),
      owner.db.update(mealSubscriptions).set({ endDate, modifiedAt: at, changeToken: token }).where(sqlId(row)),
    );
    events.push(
      ...moves.map((m) => suborderUpdated(app, row, { id: m.id, date: m.to }, ["date", "is_postponed"])),
      newEvent(app, "meal_subscription.updated", { ...ref(row), fields: ["end_date"] }),
    );
  } else if (input.action === "pause") {
    mealSubscriptionMachine.next(row.status, "pause", label(id));
    const { freeze, resumeDate } = checkPause(sub, deliveries, t, input, clock);
    const paused = {
      ...sub,
      status: "paused" as const,
      pausedFrom: input.from_date,
      pauseAttemptsCredits: sub.pauseAttemptsCredits - 1,
    };
    events.push(
      newEvent(app, "meal_subscription.paused", {
        ...ref(row, "paused"),
        from_date: input.from_date,
        to_date: input.to_date ?? null,
        frozen_count: freeze.length,
      }),
    );
    if (resumeDate === null) {
      statements.push(
        updateOpenSuborders(owner, freeze, { isFrozen: true }, token, at),
        allTouched(owner, token, freeze.length),
        owner.db
          .update(mealSubscriptions)
          .set({
            status: "paused",
            pausedFrom: input.from_date,
            resumeDate: null,
            pauseAttemptsCredits: paused.pauseAttemptsCredits,
            modifiedAt: at,
            changeToken: token,
          })
          .where(sqlId(row)),
      );
      events.push(...freeze.map((d) => suborderUpdated(app, row, d, ["is_frozen"])));
    } else {
      // A bounded pause: paused and resumed in one change, its deliveries moved after its last day.
      const frozen = freeze.map((d) => ({ ...d, isFrozen: true }));
      const after = deliveries.map((d) => frozen.find((f) => f.id === d.id) ?? d);
      const plan = resumePlan(paused, after, t, frozen, resumeDate);
      const endDate = lastDate([...takenDates(after), ...plan.moves.map((m) => m.to)], row.endDate);
      statements.push(
        moveSuborders(owner, plan.moves, token, at),
        allTouched(owner, token, plan.moves.length),
        owner.db
          .update(mealSubscriptions)
          .set({
            pausedFrom: input.from_date,
            resumeDate,
            pauseAttemptsCredits: paused.pauseAttemptsCredits,
            pausedDays: row.pausedDays + plan.pausedDays,
            pauseCredits: plan.pauseCredits,
            endDate,
            modifiedAt: at,
            changeToken: token,
          })
          .where(sqlId(row)),
      );
      events.push(
        ...plan.moves.map((m) => suborderUpdated(app, row, { id: m.id, date: m.to }, ["date"])),
        newEvent(app, "meal_subscription.resumed", {
          ...ref(row, "active"),
          resume_date: resumeDate,
          paused_days: row.pausedDays + plan.pausedDays,
          end_date: endDate,
        }),
      );
    }
  } else {
    mealSubscriptionMachine.next(row.status, "resume", label(id));
    checkResume(sub, t, input.resume_date, clock);
    const { frozen } = changeableDeliveries(deliveries, firstChangeableDate(calendarOf(t), clock));
    const plan = resumePlan(sub, deliveries, t, frozen, input.resume_date);
    const endDate = lastDate([...takenDates(deliveries), ...plan.moves.map((m) => m.to)], row.endDate);
    statements.push(
      moveSuborders(owner, plan.moves, token, at, { unfreeze: true }),
      allTouched(owner, token, plan.moves.length),
      owner.db
        .update(mealSubscriptions)
        .set({
          status: "active",
          resumeDate: input.resume_date,
          pausedDays: row.pausedDays + plan.pausedDays,
          pauseCredits: plan.pauseCredits,
          endDate,
          modifiedAt: at,
          changeToken: token,
        })
        .where(sqlId(row)),
    );
    events.push(
      ...plan.moves.map((m) => suborderUpdated(app, row, { id: m.id, date: m.to }, ["date", "is_frozen"])),
      newEvent(app, "meal_subscription.resumed", {
        ...ref(row, "active"),
        resume_date: input.resume_date,
        paused_days: row.pausedDays + plan.pausedDays,
        end_date: endDate,
      }),
    );
  }
  return writeAndRead(ctx, owner, id, scope, statements, events);
}

/** POST /subscriptions/{id}/cancel/ (and CA15's): deliveries from `from_date` cancelled, owed as credits. */
export async function cancelMealSubscription(
  ctx: ServiceContext,
  id: number,
  input: { from_date?: string },
  scope: SubscriptionScope,
): Promise<MealSubscriptionDetails> {
  const { row, owner, t, deliveries } = await loadManaged(ctx, id, scope);
  mealSubscriptionMachine.next(row.status, "cancel", label(id));
  const { from, cancel } = checkCancel(managedOf(row), deliveries, t, input.from_date);
  const at = nowIso();
  const token = newToken();
  const credits = row.cancelCredits + cancel.length;
  return writeAndRead(
    ctx,
    owner,
    id,
    scope,
    [
      subscriptionUnchanged(owner, row),
      updateOpenSuborders(owner, cancel, { status: "cancelled_by_customer", isFrozen: false }, token, at),
      allTouched(owner, token, cancel.length),
      owner.db
        .update(mealSubscriptions)
        .set({ status: "cancelled", cancelledAt: at, cancelCredits: credits, modifiedAt: at, changeToken: token })
        .where(sqlId(row)),
    ],
    [
      ...cancel.map((d: Delivery) =>
        newEvent(row.appId, "suborder.status_changed", {
          id: d.id,
          subscription_id: row.id,
          date: d.date,
          from: d.status,
          to: "cancelled_by_customer",
        }),
      ),
      newEvent(row.appId, "meal_subscription.cancelled", {
        ...ref(row, "cancelled"),
        from_date: from,
        cancelled_count: cancel.length,
        cancel_credits: credits,
      }),
    ],
  );
}

/** PATCH /subscriptions/{id}/location/: the address of every delivery still changeable, and the subscription's. */
export async function changeSubscriptionLocation(
  ctx: ServiceContext,
  id: number,
  input: { location_id: number },
  scope: SubscriptionScope & { kind: "customer" },
): Promise<MealSubscriptionDetails> {
  // The subscription, the customer's location (the customer's own: the scope's) and the areas of
  // the restaurant the subscription's row names (read through it, as a subquery) at once.
  const restaurantId = customerSubscriptionRead(ctx, id, scope.customerId).column(mealSubscriptions.restaurantId);
  const [loaded, place, areas] = await Promise.allSettled([
    loadManaged(ctx, id, scope),
    getLocation(ctx, scope.customerId, input.location_id),
    restaurantLogisticsOf(ctx.db, ctx.appId, restaurantId),
  ]);
  if (loaded.status === "rejected") throw loaded.reason;
  const { row, owner, t, deliveries } = loaded.value;
  if (!["active", "paused"].includes(row.status))
    throw ApiError.invalidTransition(
      label(id),
      row.status,
      "change_location",
      mealSubscriptionMachine.allowed(row.status),
    );
  if (row.isPickup)
    throw ApiError.conflict(
      "suborder_is_pickup",
      `${label(id)} is picked up at a branch: it has no delivery location.`,
    );
  if (place.status === "rejected") throw place.reason;
  const location = place.value;
  if (areas.status === "rejected") throw areas.reason;
  // A restaurant with no windows, branches or zones is absent: it delivers nowhere.
  const logistics = areas.value.get(row.restaurantId);
  if (!logistics || !deliversTo(logistics, [Number(location.latitude), Number(location.longitude)]))
    throw ApiError.conflict("location_not_served", `The restaurant does not deliver to location ${location.id}.`, {
      location_id: location.id,
    });
  const cal = calendarOf(t);
  const { dated, frozen } = changeableDeliveries(deliveries, firstChangeableDate(cal));
  const touched = [...dated, ...frozen];
  if (!touched.length)
    throw ApiError.conflict("no_open_deliveries", "Every delivery left is within the provider's cutoff.", {
      first_valid_date: null,
      cutoff_hours: cal.cutoffHours,
    });
  const at = nowIso();
  const token = newToken();
  const snapshot: Record<string, unknown> = location;
  return writeAndRead(
    ctx,
    owner,
    id,
    scope,
    [
      subscriptionUnchanged(owner, row),
      updateOpenSuborders(owner, touched, { locationId: location.id, location: snapshot }, token, at),
      allTouched(owner, token, touched.length),
      owner.db
        .update(mealSubscriptions)
        .set({ primaryLocationId: location.id, location: snapshot, modifiedAt: at, changeToken: token })
        .where(sqlId(row)),
    ],
    [
      ...touched.map((d) => suborderUpdated(row.appId, row, d, ["location"])),
      newEvent(row.appId, "meal_subscription.updated", { ...ref(row), fields: ["location"] }),
    ],
  );
}

function sqlId(row: SubscriptionRow) {
  return sql`${mealSubscriptions.id} = ${row.id} AND ${mealSubscriptions.appId} = ${row.appId}`;
}
