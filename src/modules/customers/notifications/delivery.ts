import { and, asc, count, eq, gt, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertSelect } from "../../../core/batch-plan";
import { makeServiceContext, type ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { emit, newEvent } from "../../../core/events/outbox";
import { enqueueJob, enqueueJobs, type JobHandler, type JobMessage } from "../../../core/jobs";
import { errorText, logTaskFailure } from "../../../core/logging";
import { inList } from "../../../core/sql";
import { nowIso } from "../../../core/time";
import { storeDb } from "../../../db/shards";
import { type PushMessage, type PushOutcome, pusherFor } from "../push/pusher";
import { customerNotifications, customers, fcmTokens, notifications } from "../tables";
import { audienceOf, audienceWhere, notificationRecords } from "./service";

/**
 * Delivering a notification, on the JOBS queue. `push.fanout` walks the recipients by customer id
 * (FANOUT_CHUNK a job, each job queueing the next) and hands them to `push.send` jobs, each with
 * at most PUSH_BATCH devices: a Worker invocation may make 50 subrequests on the free plan, and
 * one more may go to the OAuth exchange. A `push.send` pushes to its customers' active FCM tokens
 * in their language, deactivates the tokens FCM reports dead, queues itself again (later, with
 * only the pushes worth retrying) for 429s and 5xx, and writes each finished customer's received
 * notification with the counters in one batch. The notification is `sent`, `partially_failed` or
 * `failed` (with `notification.sent`) once every recipient has its received notification.
 */

declare module "../../../core/jobs" {
  interface JobRegistry {
    /** The next recipients of a notification: customers with `after < id <= up_to` (frozen when it was sent). */
    "push.fanout": {
      notification_id: number;
      after_customer_id: number;
      up_to_customer_id: number;
      dispatched: number;
    };
    /** Pushes to these customers' active tokens (only `token_ids` on a retry); `attempt` counts from 1. */
    "push.send": { notification_id: number; customer_ids: number[]; attempt: number; token_ids?: number[] };
  }
}

export const FANOUT_CHUNK = 1000;
export const PUSH_BATCH = 40;
const JOB_CUSTOMERS_MAX = 500;
export const MAX_PUSH_ATTEMPTS = 5;
/** Seconds before the n-th retry of a push, unless FCM's `Retry-After` asks for longer. */
const RETRY_DELAYS_S = [30, 120, 600, 1800];

async function jobContext(appId: number, env: Env, exec: ExecutionContext): Promise<ServiceContext> {
  return makeServiceContext(await storeDb(env, appId), appId, env, (p) => exec.waitUntil(p));
}

/** Customers in groups of at most PUSH_BATCH tokens (and JOB_CUSTOMERS_MAX customers), in order. */
export function packRecipients(ids: readonly number[], tokensOf: ReadonlyMap<number, number>): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let tokens = 0;
  for (const id of ids) {
    const n = tokensOf.get(id) ?? 0;
    if (group.length && (tokens + n > PUSH_BATCH || group.length >= JOB_CUSTOMERS_MAX)) {
      groups.push(group);
      group = [];
      tokens = 0;
    }
    group.push(id);
    tokens += n;
  }
  if (group.length) groups.push(group);
  return groups;
}

/** `push.fanout`: the next FANOUT_CHUNK recipients into `push.send` jobs; the last chunk starts `sending`. */
export const fanOutPush: JobHandler<"push.fanout"> = async (p, { appId, env, ctx: exec }) => {
  const ctx = await jobContext(appId, env, exec);
  const row = await notificationRecords.get(ctx, p.notification_id);
  if (row?.status !== "queued") return; // deleted, or a repeated delivery of the last chunk
  const chunk = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        live(customers, appId),
        audienceWhere(audienceOf(row)),
        gt(customers.id, p.after_customer_id),
        lte(customers.id, p.up_to_customer_id),
      ),
    )
    .orderBy(asc(customers.id))
    .limit(FANOUT_CHUNK);
  const ids = chunk.map((c) => c.id);
  const counts = ids.length
    ? await ctx.db
        .select({ customerId: fcmTokens.customerId, n: count() })
        .from(fcmTokens)
        .where(and(live(fcmTokens, appId), eq(fcmTokens.isActive, true), inList(fcmTokens.customerId, ids)))
        .groupBy(fcmTokens.customerId)
    : [];
  const groups = packRecipients(ids, new Map(counts.map((c) => [c.customerId, c.n])));
  await enqueueJobs(
    ctx.jobs,
    appId,
    "push.send",
    groups.map((customer_ids) => ({ notification_id: row.id, customer_ids, attempt: 1 })),
  );
  const dispatched = p.dispatched + ids.length;
  if (ids.length === FANOUT_CHUNK) {
    await enqueueJob(ctx.jobs, appId, "push.fanout", { ...p, after_customer_id: ids.at(-1)!, dispatched });
    return;
  }
  // Every recipient is handed over: the count is now exact (customers deleted since are not in it).
  await notificationRecords.update(ctx, row.id, {
    status: "sending",
    recipientsCount: dispatched,
    modifiedAt: nowIso(),
  });
  await completeIfDone(ctx, row.id);
};

const finalStatus = (sent: number, failed: number) =>
  failed === 0 ? "sent" : sent === 0 ? "failed" : "partially_failed";

/**
 * Ends the sending once every recipient has its received notification: one guarded batch, so that
 * of several jobs finishing at once exactly one writes the status and `notification.sent`.
 */
export async function completeIfDone(ctx: ServiceContext, id: number): Promise<void> {
  const row = await notificationRecords.get(ctx, id);
  if (row?.status !== "sending") return;
  const status = finalStatus(row.pushSent, row.pushFailed);
  // The counters as read: a job that changes them after this read runs its own check.
  const guard = sql`EXISTS (SELECT 1 FROM notifications n WHERE n.id = ${id} AND n.app_id = ${ctx.appId}
    AND n.status = 'sending' AND n.push_sent = ${row.pushSent} AND n.push_failed = ${row.pushFailed}
    AND n.recipients_count <= (SELECT count(*) FROM customer_notifications r WHERE r.notification_id = ${id}))`;
  await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .update(notifications)
        .set({ status, modifiedAt: nowIso() })
        .where(and(live(notifications, ctx.appId), eq(notifications.id, id), guard)),
    ],
    [
      newEvent(ctx.appId, "notification.sent", {
        id,
        status,
        recipients_count: row.recipientsCount,
        push_sent: row.pushSent,
        push_failed: row.pushFailed,
      }),
    ],
    { guard },
  );
}

type Target = { id: number; token: string; customerId: number; lang: "ar" | "en" };

function messageFor(n: typeof notifications.$inferSelect, t: Target): PushMessage {
  const ar = t.lang === "ar";
  return {
    token: t.token,
    title: ar ? n.titleAr : n.titleEn,
    body: ar ? n.bodyAr : n.bodyEn,
    data: { ...n.data, notification_id: String(n.id) },
  };
}

/** `push.send`: one batch of pushes, then the finished customers' received notifications and the counters. */
export const sendPushes: JobHandler<"push.send"> = async (p, { appId, env, ctx: exec }) => {
  const ctx = await jobContext(appId, env, exec);
  const n = await notificationRecords.get(ctx, p.notification_id);
  // Deleted, or already complete (every recipient done): a repeated delivery of a finished job.
  if (n?.status !== "queued" && n?.status !== "sending") return;
  const targets: Target[] = await ctx.db
    .select({ id: fcmTokens.id, token: fcmTokens.token, customerId: fcmTokens.customerId, lang: customers.lang })
    .from(fcmTokens)
    .innerJoin(customers, eq(customers.id, fcmTokens.customerId))
    .where(
      and(
        live(fcmTokens, appId),
        eq(fcmTokens.isActive, true),
        inList(fcmTokens.customerId, p.customer_ids),
        p.token_ids ? inList(fcmTokens.id, p.token_ids) : undefined,
      ),
    )
    .orderBy(asc(fcmTokens.id))
    .limit(PUSH_BATCH);
  const pusher = pusherFor(env);
  const settled = await Promise.allSettled(targets.map((t) => pusher.send(messageFor(n, t))));
  // A push that could not even be tried (credentials refused) is retried like a 5xx.
  const outcomes: PushOutcome[] = settled.map((s) =>
    s.status === "fulfilled" ? s.value : { status: "retry", reason: errorText(s.reason) },
  );
  const lastTry = p.attempt >= MAX_PUSH_ATTEMPTS;
  let sent = 0;
  let failed = 0;
  let retryAfterS = RETRY_DELAYS_S[Math.min(p.attempt - 1, RETRY_DELAYS_S.length - 1)]!;
  const dead: number[] = [];
  const retry = new Map<number, number[]>();
  outcomes.forEach((o, i) => {
    const t = targets[i]!;
    if (o.status === "sent") sent++;
    else if (o.status === "retry" && !lastTry) {
      retry.set(t.customerId, [...(retry.get(t.customerId) ?? []), t.id]);
      retryAfterS = Math.max(retryAfterS, o.retryAfterS ?? 0);
    } else {
      failed++;
      if (o.status === "invalid_token") dead.push(t.id);
    }
  });
  if (failed) {
    // One line a job, not a push: the reasons are FCM's codes (or a missing secret), never a token.
    const reasons = [...new Set(outcomes.flatMap((o) => (o.status === "sent" ? [] : [o.reason])))].join(", ");
    logTaskFailure("job", new Error(`push.send: ${failed} of ${targets.length} pushes failed (${reasons})`), {
      app_id: appId,
    });
  }
  const done = p.customer_ids.filter((id) => !retry.has(id));
  const now = nowIso();
  const writes: BatchItem<"sqlite">[] = [
    ctx.db
      .update(notifications)
      .set({
        pushSent: sql`${notifications.pushSent} + ${sent}`,
        pushFailed: sql`${notifications.pushFailed} + ${failed}`,
        modifiedAt: now,
      })
      .where(and(eq(notifications.appId, appId), eq(notifications.id, n.id))),
  ];
  if (dead.length) {
    writes.push(
      ctx.db
        .update(fcmTokens)
        .set({ isActive: false, modifiedAt: now })
        .where(and(eq(fcmTokens.appId, appId), inList(fcmTokens.id, dead))),
    );
  }
  if (done.length) {
    // One statement whatever the count: the ids are one JSON parameter, the texts come from the
    // notification.
    writes.push(
      insertSelect(
        ctx.db,
        customerNotifications,
        {
          appId: sql`n.app_id`,
          createdAt: now,
          modifiedAt: now,
          isDeleted: false,
          ordering: 0,
          notificationId: sql`n.id`,
          customerId: sql`r.value`,
          titleEn: sql`n.title_en`,
          titleAr: sql`n.title_ar`,
          bodyEn: sql`n.body_en`,
          bodyAr: sql`n.body_ar`,
          data: sql`n.data`,
        },
        sql`FROM notifications n, json_each(${JSON.stringify(done)}) r WHERE n.id = ${n.id} AND n.app_id = ${appId}`,
        { onConflictDoNothing: [customerNotifications.notificationId, customerNotifications.customerId] },
      ),
    );
  }
  await ctx.db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  if (retry.size) {
    const again: JobMessage<"push.send"> = {
      kind: "job",
      job: "push.send",
      app_id: appId,
      payload: {
        notification_id: n.id,
        customer_ids: [...retry.keys()],
        token_ids: [...retry.values()].flat(),
        attempt: p.attempt + 1,
      },
    };
    await ctx.jobs.send(again, { contentType: "json", delaySeconds: Math.min(retryAfterS, 43_200) });
  }
  await completeIfDone(ctx, n.id);
};
