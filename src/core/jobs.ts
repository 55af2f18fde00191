import { logTaskFailure } from "./logging";

/**
 * Background jobs on their own queue (`JOBS`): work a request hands off, such as an SMS to send or
 * a batch of pushes. Each module declares its jobs and their payloads by declaration merging,
 *
 *   declare module "../../core/jobs" {
 *     interface JobRegistry { "sms.send": { to: string; text: string } }
 *   }
 *
 * and gives their handlers to the Worker's entry, which dispatches by name. A job that throws is
 * retried with a growing delay, then dead-lettered and logged.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules (declaration merging)
export interface JobRegistry {}

export type JobName = keyof JobRegistry & string;

export type JobMessage<N extends JobName = JobName> = { kind: "job"; job: N; app_id: number; payload: JobRegistry[N] };

export type JobHandler<N extends JobName> = (
  payload: JobRegistry[N],
  job: { appId: number; env: Env; ctx: ExecutionContext; attempt: number },
) => Promise<void>;

export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Queues one job; Queues keeps it until a consumer acknowledges it. */
export async function enqueueJob<N extends JobName>(
  queue: Queue,
  appId: number,
  job: N,
  payload: JobRegistry[N],
): Promise<void> {
  await queue.send({ kind: "job", job, app_id: appId, payload } satisfies JobMessage<N>, { contentType: "json" });
}

/** Queues many jobs of one name, in sends of at most 100 (the Queues batch limit). */
export async function enqueueJobs<N extends JobName>(
  queue: Queue,
  appId: number,
  job: N,
  payloads: JobRegistry[N][],
): Promise<void> {
  for (let i = 0; i < payloads.length; i += 100) {
    await queue.sendBatch(
      payloads.slice(i, i + 100).map((payload) => ({
        body: { kind: "job", job, app_id: appId, payload } satisfies JobMessage<N>,
        contentType: "json" as const,
      })),
    );
  }
}

/** Seconds before the n-th retry of a failed job: 5, 30, 120, 600, 1800. */
const RETRY_DELAYS_S = [5, 30, 120, 600, 1800];

/** Runs a batch of the jobs queue: each message on its own, so that one failure delays no other. */
export async function runJobs(batch: MessageBatch<JobMessage>, env: Env, ctx: ExecutionContext, handlers: JobHandlers) {
  await Promise.all(
    batch.messages.map(async (message) => {
      const { job, app_id: appId, payload } = message.body;
      const handler = handlers[job] as JobHandler<typeof job> | undefined;
      if (!handler) {
        logTaskFailure("job", new Error(`no handler for job ${job}`), { app_id: appId, message_id: message.id });
        return message.ack();
      }
      try {
        await handler(payload, { appId, env, ctx, attempt: message.attempts });
        message.ack();
      } catch (error) {
        logTaskFailure("job", error, { app_id: appId, message_id: message.id });
        message.retry({ delaySeconds: RETRY_DELAYS_S[Math.min(message.attempts - 1, RETRY_DELAYS_S.length - 1)] });
      }
    }),
  );
}

/** The jobs' dead-letter queue: jobs that kept failing, logged once more and dropped. */
export function deadLetterJobs(batch: MessageBatch<JobMessage>): void {
  for (const message of batch.messages) {
    logTaskFailure("dead-letter message", new Error(`job ${message.body.job} failed ${message.attempts} times`), {
      app_id: message.body.app_id,
      message_id: message.id,
    });
    message.ack();
  }
}
