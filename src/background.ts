import { invalidateTenantCache } from "./core/cache";
import { makeServiceContext } from "./core/context";
import { resendStale } from "./core/events/outbox";
import { purgeExpiredIdempotencyKeys } from "./core/idempotency";
import { deadLetterJobs, type JobHandlers, type JobMessage, runJobs } from "./core/jobs";
import { logTaskFailure } from "./core/logging";
import { createDb } from "./db/client";
import { expireLapsedBalances, fanOutPush, sendPushes, sendSms } from "./modules/customers";
import {
  chargeDueRecurringPurchases,
  expireUnpaidOrders,
  queueDueSubscriptions,
  renewSubscriptionsJob,
} from "./modules/orders";
import { pollCarrierTracking } from "./modules/shipping";
import { wireModules } from "./wiring";

/** Every background job's handler, from the modules that declare them. */
const JOB_HANDLERS: JobHandlers = {
  "sms.send": sendSms,
  "push.fanout": fanOutPush,
  "push.send": sendPushes,
  "subscriptions.renew": renewSubscriptionsJob,
};

/**
 * The Worker's queue consumers (background jobs) and its cron: loaded by their first batch or run
 * (index.ts), so that an isolate serving only requests never evaluates them. Webhook deliveries and
 * their reconciler run in a Worker of their own (webhooks-worker.ts).
 */
export const background = {
  async queue(batch: MessageBatch<JobMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    wireModules();
    if (batch.queue === "commerce-jobs-dlq") return deadLetterJobs(batch);
    return runJobs(batch, env, ctx, JOB_HANDLERS);
  },
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    wireModules();
    // The outbox rows stay un-enqueued on failure, so the next run retries; the log is the trace.
    ctx.waitUntil(resendStale(createDb(env.DB), env.EVENTS).catch((error) => logTaskFailure("resend outbox", error)));
    const purge = purgeExpiredIdempotencyKeys(createDb(env.DB));
    ctx.waitUntil(purge.catch((error) => logTaskFailure("purge idempotency keys", error)));
    // Wallet amounts past their expiry leave the balance through an `expiry` entry.
    const contextOf = (appId: number) => makeServiceContext(createDb(env.DB), appId, env, (p) => ctx.waitUntil(p));
    const expiry = expireLapsedBalances(contextOf, createDb(env.DB));
    ctx.waitUntil(expiry.catch((error) => logTaskFailure("expire wallet balances", error)));
    // Unpaid orders past their payment deadline give their stock, voucher use and cashback back.
    const unpaid = expireUnpaidOrders(contextOf, createDb(env.DB), undefined, undefined, (appId) =>
      invalidateTenantCache(env.CACHE, appId),
    );
    ctx.waitUntil(unpaid.catch((error) => logTaskFailure("expire unpaid orders", error)));
    // Recurring purchases whose next order date has come are ordered and paid, once per cycle.
    const recurring = chargeDueRecurringPurchases(contextOf, createDb(env.DB));
    ctx.waitUntil(recurring.catch((error) => logTaskFailure("charge recurring purchases", error)));
    // Subscriptions due (renewal, retry, end of a pause) go to the jobs queue in batches; a claim per period charges it once.
    const renewals = queueDueSubscriptions(createDb(env.DB), env.JOBS);
    ctx.waitUntil(renewals.catch((error) => logTaskFailure("queue subscription renewals", error)));
    // Carriers that post no signed webhook (Aramex) are asked for their open shipments' statuses.
    const tracking = pollCarrierTracking({ db: createDb(env.DB), env, waitUntil: (p) => ctx.waitUntil(p) });
    ctx.waitUntil(tracking.catch((error) => logTaskFailure("poll carrier tracking", error)));
  },
} satisfies ExportedHandler<Env, JobMessage>;
