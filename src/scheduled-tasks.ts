/**
 * The names of the API Worker's scheduled tasks (background.ts runs them). A file without imports,
 * so that `npm run cron` (scripts/cron.ts) lists and checks them without loading the Worker.
 */
export const SCHEDULED_TASKS = [
  "resend-outbox",
  "purge-idempotency-keys",
  "expire-wallet-balances",
  "expire-unpaid-orders",
  "charge-recurring-purchases",
  "queue-subscription-renewals",
  "poll-carrier-tracking",
  "measure-shard",
  "copy-platform-audit",
] as const;

export type ScheduledTask = (typeof SCHEDULED_TASKS)[number];

export function isScheduledTask(name: string): name is ScheduledTask {
  return (SCHEDULED_TASKS as readonly string[]).includes(name);
}

/**
 * The tasks a run does: the one its `cron` names, else all of them. Only `npm run cron -- NAME`
 * (wrangler dev's `/__scheduled?cron=NAME`) passes a name; a deployed run's `cron` is the cron
 * expression of wrangler.toml's [triggers], which is never a task's name.
 */
export function tasksOfRun(cron: string | undefined): readonly ScheduledTask[] {
  return cron !== undefined && isScheduledTask(cron) ? [cron] : SCHEDULED_TASKS;
}
