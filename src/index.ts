import { createApp } from "./app";
import { createDb } from "./db/client";
import { consumeEvents } from "./events/consumer";
import { resendStale, type EventMessage } from "./events/outbox";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<EventMessage>, env: Env, _ctx: ExecutionContext): Promise<void> {
    await consumeEvents(batch, env);
  },
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(resendStale(createDb(env.DB), env.EVENTS));
  },
} satisfies ExportedHandler<Env, EventMessage>;
