import { createApp } from "./app";
import { createDb } from "./db/client";
import { consumeDeadLetters, consumeEvents, type QueueMessage } from "./events/consumer";
import { resendStale } from "./events/outbox";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<QueueMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    if (batch.queue.endsWith("-dlq")) await consumeDeadLetters(batch, env, ctx);
    else await consumeEvents(batch, env, ctx);
  },
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(resendStale(createDb(env.DB), env.EVENTS));
  },
} satisfies ExportedHandler<Env, QueueMessage>;
