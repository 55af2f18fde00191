import { createApp } from "./app";
import { beforeEventsSent } from "./core/events/outbox";
import type { JobMessage } from "./core/jobs";

/**
 * The API's Worker. A cold isolate evaluates only the app's middleware and route table: each router,
 * the jobs' queue consumer and the cron are loaded when first needed (docs/benchmarks.md, start-up).
 * Webhook deliveries are consumed by a Worker of their own (webhooks-worker.ts).
 */
const app = createApp();

// Every delivery is on the webhooks' ledger before its event leaves for the queue.
beforeEventsSent(async (db, events) => (await import("./modules/webhooks/ledger")).recordDeliveries(db, events));

export default {
  fetch: app.fetch,
  async queue(batch, env, ctx) {
    return (await import("./background")).background.queue(batch, env, ctx);
  },
  async scheduled(controller, env, ctx) {
    return (await import("./background")).background.scheduled(controller, env, ctx);
  },
} satisfies ExportedHandler<Env, JobMessage>;
