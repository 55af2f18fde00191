import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { JobMessage } from "../../src/core/jobs";
import worker from "../../src/index";
import type { SendNotification } from "../../src/modules/customers/notifications/schemas";
import { sendNotification } from "../../src/modules/customers/notifications/service";
import { fcmTokens } from "../../src/modules/customers/tables";
import { APP_1, createCustomerFor, db, serviceCtx, shardFor } from "../helpers/factories";

export type Queued = { body: JobMessage; delaySeconds?: number };

/**
 * The Worker's job consumer with a recording JOBS queue: what a job queues is kept, and `drain()`
 * runs it through the Worker's own `queue()` handler (and its JOB_HANDLERS) until none is left.
 */
export function jobWorld(appId: number, overrides: { FCM_SERVICE_ACCOUNT?: string; ENVIRONMENT?: string } = {}) {
  const queued: Queued[] = [];
  const ran: Queued[] = [];
  const retried: string[] = [];
  const jobs: Queue = {
    metrics: () => env.JOBS.metrics(),
    send: async (body, options) => {
      queued.push({ body: body as JobMessage, delaySeconds: options?.delaySeconds });
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
    },
    sendBatch: async (messages) => {
      for (const m of messages) queued.push({ body: m.body as JobMessage, delaySeconds: m.delaySeconds });
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
    },
  };
  const world: Env = { ...env, JOBS: jobs, ...overrides };

  /** Send Notification as the route runs it, its first job recorded instead of queued. */
  const send = (input: SendNotification) => sendNotification({ ...serviceCtx(appId), jobs }, input);

  async function drain(limit = 500) {
    for (let n = 0; queued.length && n < limit; n++) {
      const next = queued.shift()!;
      ran.push(next);
      const batch = createMessageBatch<JobMessage>("commerce-jobs", [
        { id: `job-${ran.length}`, timestamp: new Date(), attempts: 1, body: next.body },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, world, ctx);
      await waitOnExecutionContext(ctx);
      const result = await getQueueResult(batch, ctx);
      if (result.retryMessages.length) retried.push(next.body.job);
    }
  }
  return { world, jobs, queued, ran, retried, send, drain };
}

/** A notification's texts, in both languages. */
export const texts = { title_en: "Offer", title_ar: "عرض", body_en: "20% off", body_ar: "خصم ٢٠٪" };

export const row = (q: string, ...binds: unknown[]) =>
  shardFor(APP_1)
    .prepare(q)
    .bind(...binds)
    .first<Record<string, any>>();
export const all = (q: string, ...binds: unknown[]) =>
  shardFor(APP_1)
    .prepare(q)
    .bind(...binds)
    .all<Record<string, any>>()
    .then((r) => r.results);

/** `n` new customers of the store speaking `lang`, each with `tokens` FCM tokens: their ids. */
export async function withTokens(appId: number, n: number, lang: "ar" | "en" = "ar", tokens = 1) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createCustomerFor(appId, { lang });
    ids.push(c.id);
    for (let t = 0; t < tokens; t++) {
      await db(appId)
        .insert(fcmTokens)
        .values({ appId, customerId: c.id, token: `tok-${c.id}-${t}-${lang}`, platform: "android" });
    }
  }
  return ids;
}
