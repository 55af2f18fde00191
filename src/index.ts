import { createApp } from "./app";
import { resendStale } from "./core/events/outbox";
import { logTaskFailure } from "./core/logging";
import { createDb } from "./db/client";
import { consumeDeadLetters, consumeEvents, type QueueMessage } from "./modules/webhooks";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<QueueMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    if (batch.queue.endsWith("-dlq")) await consumeDeadLetters(batch, env, ctx);
    else await consumeEvents(batch, env, ctx);
  },
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    // The outbox rows stay un-enqueued on failure, so the next run retries; the log is the trace.
    ctx.waitUntil(resendStale(createDb(env.DB), env.EVENTS).catch((error) => logTaskFailure("resend outbox", error)));
  },
} satisfies ExportedHandler<Env, QueueMessage>;
