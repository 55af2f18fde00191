import { createApp } from "./app";
import { resendStale } from "./core/events/outbox";
import { deadLetterJobs, type JobHandlers, type JobMessage, runJobs } from "./core/jobs";
import { logTaskFailure } from "./core/logging";
import { createDb } from "./db/client";
import { consumeDeadLetters, consumeEvents, type QueueMessage } from "./modules/webhooks";

const app = createApp();

/** Every background job's handler, from the modules that declare them. */
const JOB_HANDLERS: JobHandlers = {};

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<QueueMessage | JobMessage>, env: Env, ctx: ExecutionContext): Promise<void> {
    switch (batch.queue) {
      case "commerce-jobs":
        return runJobs(batch as MessageBatch<JobMessage>, env, ctx, JOB_HANDLERS);
      case "commerce-jobs-dlq":
        return deadLetterJobs(batch as MessageBatch<JobMessage>);
      case "commerce-events-dlq":
        return consumeDeadLetters(batch as MessageBatch<QueueMessage>, env, ctx);
      default:
        return consumeEvents(batch as MessageBatch<QueueMessage>, env, ctx);
    }
  },
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    // The outbox rows stay un-enqueued on failure, so the next run retries; the log is the trace.
    ctx.waitUntil(resendStale(createDb(env.DB), env.EVENTS).catch((error) => logTaskFailure("resend outbox", error)));
  },
} satisfies ExportedHandler<Env, QueueMessage | JobMessage>;
