import { invalidateTenantCache } from "./core/cache";
import { makeServiceContext } from "./core/context";
import { outboxRoutes, resendStale } from "./core/events/outbox";
import { purgeExpiredIdempotencyKeys } from "./core/idempotency";
import { deadLetterJobs, type JobHandlers, type JobMessage, runJobs } from "./core/jobs";
import { type BackgroundTask, log, logTaskFailure } from "./core/logging";
import { nowIso } from "./core/time";
import { createDb } from "./db/client";
import { measureShard } from "./db/placement";
import { copyPlatformAudit } from "./db/platform-audit";
import { everyShardBinding } from "./db/shards";
import { expireLapsedBalances, fanOutPush, sendPushes, sendSms } from "./modules/customers";
import {
  chargeDueRecurringPurchases,
  expireUnpaidOrders,
  queueDueSubscriptions,
  renewSubscriptionsJob,
} from "./modules/orders";
import { redeliverConnectionEvents } from "./modules/sales-channels";
import { pollCarrierTracking } from "./modules/shipping";
import { type ScheduledTask, tasksOfRun } from "./scheduled-tasks";
import { wireModules } from "./wiring";

/** Every background job's handler, from the modules that declare them. */
const JOB_HANDLERS: JobHandlers = {
  "sms.send": sendSms,
  "push.fanout": fanOutPush,
  "push.send": sendPushes,
  "subscriptions.renew": renewSubscriptionsJob,
};

type Task = { label: BackgroundTask; run: () => Promise<unknown> };

/**
 * The cron's tasks by name (src/scheduled-tasks.ts) over one shard's stores; each starts only when its
 * run calls it. The tasks work store by store already: each shard's run covers that shard's stores.
 */
function scheduledTasks(
  env: Env,
  ctx: ExecutionContext,
  { name: shardName, d1: shard }: { name: string; d1: D1Database },
): Record<ScheduledTask, Task> {
  const db = () => createDb(shard);
  const contextOf = (appId: number) => makeServiceContext(createDb(shard), appId, env, (p) => ctx.waitUntil(p));
  return {
    // The outbox rows stay un-enqueued on failure, so the next run retries; the log is the trace. With
    // them, the sales channel connection events the directory holds for this shard's stores and has not
    // seen delivered (the isolate died after the directory's batch): a second copy inserts nothing.
    "resend-outbox": {
      label: "resend outbox",
      run: async () => ({
        outbox: await resendStale(db(), env.EVENTS, undefined, outboxRoutes(env)),
        connection_events: await redeliverConnectionEvents(env, env.EVENTS, shardName),
      }),
    },
    "purge-idempotency-keys": { label: "purge idempotency keys", run: () => purgeExpiredIdempotencyKeys(db()) },
    // Wallet amounts past their expiry leave the balance through an `expiry` entry.
    "expire-wallet-balances": { label: "expire wallet balances", run: () => expireLapsedBalances(contextOf, db()) },
    // Unpaid orders past their payment deadline give their stock, voucher use and cashback back.
    "expire-unpaid-orders": {
      label: "expire unpaid orders",
      run: () =>
        expireUnpaidOrders(contextOf, db(), undefined, undefined, (appId) => invalidateTenantCache(env.CACHE, appId)),
    },
    // Recurring purchases whose next order date has come are ordered and paid, once per cycle.
    "charge-recurring-purchases": {
      label: "charge recurring purchases",
      run: () => chargeDueRecurringPurchases(contextOf, db()),
    },
    // Subscriptions due (renewal, retry, end of a pause) go to the jobs queue in batches; a claim per period charges it once.
    "queue-subscription-renewals": {
      label: "queue subscription renewals",
      run: () => queueDueSubscriptions(db(), env.JOBS),
    },
    // Carriers that post no signed webhook (Aramex) are asked for their open shipments' statuses.
    "poll-carrier-tracking": {
      label: "poll carrier tracking",
      run: () => pollCarrierTracking({ db: db(), env, waitUntil: (p) => ctx.waitUntil(p) }),
    },
    // The shard's size in the directory, where placement reads it (docs/shards.md, "Placement").
    "measure-shard": { label: "measure shard", run: () => measureShard(env, shardName, shard, nowIso()) },
    // The platform's audit rows the directory's trail lacks (an isolate that stopped before copying them).
    "copy-platform-audit": { label: "copy platform audit", run: () => copyPlatformAudit(env, shardName) },
  };
}

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
  async scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    wireModules();
    // Each task on each shard on its own: one that fails never stops the others. The run ends when all
    // have, so that `npm run cron` answers once their work is done; a failure fails the run, after its
    // own log line.
    const names = tasksOfRun(controller.cron);
    const runs = everyShardBinding(env).flatMap((binding) => {
      const shard = binding.name;
      const tasks = scheduledTasks(env, ctx, binding);
      return names.map((name) => ({
        name: `${name} (${shard})`,
        run: async () => {
          const started = Date.now();
          try {
            const result = (await tasks[name].run()) ?? null;
            log({ msg: "scheduled task", level: "info", task: name, shard, result, ms: Date.now() - started });
          } catch (error) {
            logTaskFailure(tasks[name].label, error, { shard });
            throw error;
          }
        },
      }));
    });
    const outcomes = await Promise.allSettled(runs.map((r) => r.run()));
    const failed = runs.filter((_, i) => outcomes[i]?.status === "rejected").map((r) => r.name);
    if (failed.length) throw new Error(`scheduled tasks failed: ${failed.join(", ")} (see "background task failed")`);
  },
} satisfies ExportedHandler<Env, JobMessage>;
