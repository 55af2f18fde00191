import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../../core/context";
import { live, liveRow, notDeletedRow } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, rowEvent, unionEvents } from "../../../core/events/outbox";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { findDeliveryWindow } from "../../meals";
import { suborderMachine } from "../suborders/machine";
import { mealSubscriptionMachine } from "../subscriptions/machine";
import {
  type MEAL_SUBSCRIPTION_STATUSES,
  mealSubscriptions,
  OPEN_SUBORDER_STATUSES,
  type SuborderStatus,
  suborders,
} from "../tables";
import { captainRows } from "./captains";
import type { BulkSuborderCode, BulkSuborderResult, BulkUpdateSuborders } from "./schemas";

/**
 * ML6 Bulk Update Suborders: each id answered on its own (the bulk result shape of the commerce
 * subscriptions' bulk actions). The captain and the window are the request's: one unknown is a 400
 * on its field, an inactive captain a 409 for the whole request. Per id: the status moves through
 * the suborder machine, a captain or a window goes only on a delivery still to go out, a window only
 * of the suborder's restaurant. The legal changes land in ONE batch, each guarded on its row as read,
 * with their events derived from exactly the rows that changed.
 */

type SuborderRow = typeof suborders.$inferSelect;
type SubscriptionStatus = (typeof MEAL_SUBSCRIPTION_STATUSES)[number];
type Result = BulkSuborderResult["results"][number];

/** Subscriptions whose suborders may move: not unpaid (`pending`), `cancelled` nor `expired`. */
const MOVABLE: readonly SubscriptionStatus[] = ["active", "paused", "completed"];
/** A captain may change until the suborder is delivered (or given up); a window until it leaves. */
const CAPTAIN_OPEN: readonly SuborderStatus[] = [...OPEN_SUBORDER_STATUSES, "on_delivery"];

const fail = (
  id: number,
  code: BulkSuborderCode,
  detail: string,
  extra: Partial<NonNullable<Result["error"]>> = {},
): Result => ({
  id,
  success: false,
  error: { code, detail, ...extra },
});

/**
 * A value of our own making (an id list, a status, a change token, field names) written into the
 * statement: the events' SELECT would otherwise bind more than D1's 100 parameters for 100 ids.
 */
function literal(value: string): SQL {
  if (!/^[\w\-,[\]" ]*$/.test(value)) throw new Error(`not a safe literal: ${value}`);
  return sql.raw(`'${value}'`);
}

export async function bulkUpdateSuborders(ctx: ServiceContext, body: BulkUpdateSuborders): Promise<BulkSuborderResult> {
  const ids = body.suborder_ids;
  const [captain, window, rows] = await Promise.all([
    body.captain_id == null ? undefined : captainRows.get(ctx, body.captain_id),
    body.delivery_window_id === undefined ? undefined : findDeliveryWindow(ctx, body.delivery_window_id),
    ctx.db
      .select({ row: suborders, subscriptionStatus: mealSubscriptions.status })
      .from(suborders)
      .leftJoin(
        mealSubscriptions,
        and(eq(mealSubscriptions.id, suborders.subscriptionId), eq(mealSubscriptions.appId, ctx.appId)),
      )
      .where(and(live(suborders, ctx.appId), inList(suborders.id, ids))),
  ]);
  if (body.captain_id != null && !captain)
    throw ApiError.validation({ captain_id: ["No such captain in this store."] });
  if (captain && !captain.isActive)
    throw ApiError.conflict("captain_inactive", `Captain ${captain.id} is not active; activate them first.`);
  if (body.delivery_window_id !== undefined) {
    if (!window) throw ApiError.validation({ delivery_window_id: ["No such delivery window in this store."] });
    if (window.type === "on_demand")
      throw ApiError.validation({
        delivery_window_id: ["Must be a window serving subscriptions (type subscription or both)."],
      });
  }

  const byId = new Map(rows.map((r) => [r.row.id, r]));
  const results = new Map<number, Result>();
  const token = crypto.randomUUID();
  const at = nowIso();
  const changing: { id: number; statement: BatchItem<"sqlite"> }[] = [];
  const statusFrom = new Map<SuborderStatus, number[]>();
  const updatedFields = new Map<string, number[]>();
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => m.set(k, [...(m.get(k) ?? []), v]);

  for (const id of ids) {
    const found = byId.get(id);
    if (!found) {
      results.set(id, fail(id, "suborder_not_found", `Suborder ${id} was not found.`));
      continue;
    }
    const decided = decide(found.row, found.subscriptionStatus, body, window?.restaurant_id);
    if ("error" in decided) {
      results.set(id, decided);
      continue;
    }
    const { set, fields } = decided;
    if (!set.status && !fields.length) {
      // Asked for what it already has: nothing to write, nothing to announce.
      results.set(id, { id, success: true, error: null });
      continue;
    }
    if (set.status) push(statusFrom, found.row.status, id);
    if (fields.length) push(updatedFields, fields.join(","), id);
    changing.push({ id, statement: guardedUpdate(ctx, found.row, { ...set, modifiedAt: at, changeToken: token }) });
  }

  if (changing.length) {
    const { results: out } = await emit(
      ctx.db,
      ctx.events,
      [...changing.map((c) => c.statement), ...completions(ctx, token, at, body.status)],
      unionEvents(eventsOf(token, body.status, statusFrom, updatedFields)),
    );
    changing.forEach(({ id }, i) => {
      const applied = (out[i] as unknown[]).length > 0;
      results.set(
        id,
        applied
          ? { id, success: true, error: null }
          : fail(id, "concurrent_update", `Suborder ${id} changed meanwhile; nothing was changed, retry.`),
      );
    });
  }
  const list = ids.map((id) => results.get(id)!);
  const succeeded = list.filter((r) => r.success).length;
  return { results: list, succeeded_count: succeeded, failed_count: list.length - succeeded };
}

type Decision = { set: Partial<typeof suborders.$inferInsert>; fields: string[] } | Result;

/** What the request changes on one suborder, or why it cannot. */
function decide(
  r: SuborderRow,
  subscriptionStatus: SubscriptionStatus | null,
  body: BulkUpdateSuborders,
  windowRestaurantId: number | undefined,
): Decision {
  const id = r.id;
  const set: Partial<typeof suborders.$inferInsert> = {};
  const fields: string[] = [];
  const moves = body.status !== undefined || body.captain_id !== undefined || body.delivery_window_id !== undefined;
  if (moves && (subscriptionStatus === null || !MOVABLE.includes(subscriptionStatus)))
    return fail(
      id,
      "meal_subscription_not_active",
      `Suborder ${id}'s subscription ${r.subscriptionId} is ${subscriptionStatus ?? "gone"}: its suborders cannot move.`,
    );
  if (moves && r.isFrozen)
    return fail(
      id,
      "suborder_frozen",
      `Suborder ${id} is held by a pause: it has no delivery until the subscription resumes.`,
    );
  if (body.status !== undefined) {
    try {
      set.status = suborderMachine.next(r.status, body.status, `Suborder ${id}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The machine's only refusal.
      return fail(id, "invalid_state_transition", error.detail, {
        current_status: r.status,
        allowed_actions: suborderMachine.allowed(r.status),
      });
    }
    if (set.status === "delivered") set.deliveredAt = nowIso();
  }
  if (body.captain_id !== undefined && body.captain_id !== r.captainId) {
    if (r.isPickup)
      return fail(id, "suborder_is_pickup", `Suborder ${id} is picked up at a branch: it has no captain.`);
    if (!CAPTAIN_OPEN.includes(r.status))
      return fail(id, "suborder_not_changeable", `Suborder ${id} is ${r.status}: its captain can no longer change.`, {
        current_status: r.status,
      });
    set.captainId = body.captain_id;
    fields.push("captain_id");
  }
  if (body.delivery_window_id !== undefined && body.delivery_window_id !== r.deliveryWindowId) {
    if (r.isPickup)
      return fail(id, "suborder_is_pickup", `Suborder ${id} is picked up at a branch: it has no delivery window.`);
    if (!OPEN_SUBORDER_STATUSES.includes(r.status))
      return fail(id, "suborder_not_changeable", `Suborder ${id} is ${r.status}: its window can no longer change.`, {
        current_status: r.status,
      });
    if (windowRestaurantId !== r.restaurantId)
      return fail(
        id,
        "delivery_window_not_of_restaurant",
        `Delivery window ${body.delivery_window_id} is not one of restaurant ${r.restaurantId}'s, which cooks suborder ${id}.`,
      );
    set.deliveryWindowId = body.delivery_window_id;
    fields.push("delivery_window_id");
  }
  if (body.note !== undefined && body.note !== r.operationNote) {
    set.operationNote = body.note;
    fields.push("operation_note");
  }
  return { set, fields };
}

/**
 * The UPDATE of one suborder as it was read (status, frozen, modified_at in the WHERE), while its
 * subscription may still move it and, when one is assigned, the captain is still live and active.
 */
function guardedUpdate(ctx: ServiceContext, r: SuborderRow, set: Partial<typeof suborders.$inferInsert>) {
  const captainLive =
    set.captainId == null
      ? undefined
      : sql`EXISTS (SELECT 1 FROM captains WHERE id = ${set.captainId} AND ${liveRow(ctx.appId)}
          AND is_active = 1)`;
  return ctx.db
    .update(suborders)
    .set(set)
    .where(
      and(
        eq(suborders.id, r.id),
        eq(suborders.appId, ctx.appId),
        eq(suborders.status, r.status),
        eq(suborders.isFrozen, r.isFrozen),
        eq(suborders.modifiedAt, r.modifiedAt),
        sql`EXISTS (SELECT 1 FROM meal_subscriptions WHERE id = ${r.subscriptionId}
          AND status IN (SELECT value FROM json_each(${JSON.stringify(MOVABLE)})))`,
        captainLive,
      ),
    )
    .returning({ id: suborders.id });
}

/**
 * A move to a final status may finish a subscription: an active one whose suborders are all final
 * now is completed, in the same batch, after the suborders' updates (whose rows carry `token`).
 */
function completions(ctx: ServiceContext, token: string, at: string, to: SuborderStatus | undefined) {
  if (to === undefined || suborderMachine.allowed(to).length > 0) return [];
  return [
    ctx.db
      .update(mealSubscriptions)
      .set({ status: "completed", modifiedAt: at, changeToken: token })
      .where(
        and(
          eq(mealSubscriptions.appId, ctx.appId),
          inArray(mealSubscriptions.status, mealSubscriptionMachine.from("complete")),
          sql`${mealSubscriptions.id} IN (SELECT subscription_id FROM suborders WHERE change_token = ${token})`,
          sql`NOT EXISTS (SELECT 1 FROM suborders x WHERE x.subscription_id = ${mealSubscriptions.id}
            AND ${notDeletedRow("x")} AND x.status IN (SELECT value FROM json_each(${JSON.stringify(STILL_TO_END)})))`,
        ),
      ),
  ];
}

/** The statuses a suborder is not done in: a subscription with one of them is not complete. */
const STILL_TO_END: readonly SuborderStatus[] = CAPTAIN_OPEN;

/** The events of the rows this change marked with `token`: none for a row whose guard failed. */
function eventsOf(
  token: string,
  to: SuborderStatus | undefined,
  statusFrom: Map<SuborderStatus, number[]>,
  updatedFields: Map<string, number[]>,
): SQL[] {
  const ofRows = (ids: number[]) =>
    sql`change_token = ${literal(token)} AND id IN (SELECT value FROM json_each(${literal(JSON.stringify(ids))}))`;
  const ref = sql`'id', id, 'subscription_id', subscription_id, 'date', date`;
  const parts: SQL[] = [];
  for (const [from, ids] of statusFrom) {
    parts.push(
      rowEvent(
        "suborder.status_changed",
        suborders,
        ofRows(ids),
        sql`json_object(${ref}, 'from', ${literal(from)}, 'to', status)`,
      ),
    );
    if (to === "delivered")
      parts.push(
        rowEvent("suborder.delivered", suborders, ofRows(ids), sql`json_object(${ref}, 'captain_id', captain_id)`),
      );
  }
  if (to !== undefined && suborderMachine.allowed(to).length === 0)
    parts.push(
      rowEvent(
        "meal_subscription.completed",
        mealSubscriptions,
        sql`change_token = ${literal(token)} AND status = 'completed'`,
        sql`json_object('id', id, 'status', status, 'channel_app_id', channel_app_id)`,
      ),
    );
  for (const [fields, ids] of updatedFields) {
    parts.push(
      rowEvent(
        "suborder.updated",
        suborders,
        ofRows(ids),
        sql`json_object(${ref}, 'fields', json(${literal(JSON.stringify(fields.split(",")))}))`,
      ),
    );
  }
  return parts;
}
