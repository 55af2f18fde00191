/**
 * `npm run cron [-- TASK]`: runs the API Worker's scheduled handler once against the running
 * `npm start` (all its tasks, or the one named), and says what ran and how it ended; what each task
 * did is on the `npm start` console, a `{"msg":"scheduled task",…}` line each.
 *
 * It calls `/__scheduled?cron=TASK`, which wrangler adds to the Worker it bundles for `wrangler dev
 * --test-scheduled` (as `npm start` and `npm run dev` run it) and to no other: a deployed Worker
 * has no such route (test/core/scheduled.test.ts), and its cron's value is a cron expression, never
 * a task's name (src/scheduled-tasks.ts). wrangler's own `/cdn-cgi/handler/scheduled` answers 500 for
 * a Worker with static assets: it reaches the assets' proxy Worker, which has no scheduled handler.
 */
import { pathToFileURL } from "node:url";
import { isScheduledTask, SCHEDULED_TASKS, type ScheduledTask } from "../src/scheduled-tasks";

const USAGE = `usage: npm run cron [-- TASK]   (PORT=… for a server on another port than 8787)
Runs the scheduled handler once against the running npm start: every task, or TASK alone. The tasks:
  ${SCHEDULED_TASKS.join("\n  ")}`;

/** The task named on the command line (none: all of them), or what is wrong with it. */
export function parseCronArgs(args: string[]): { task: ScheduledTask | null } | { help: string } | { error: string } {
  if (args.some((a) => a === "--help" || a === "-h")) return { help: USAGE };
  if (args.length > 1) return { error: `one task at most, got ${args.join(" ")}\n${USAGE}` };
  const [name] = args;
  if (name === undefined) return { task: null };
  if (isScheduledTask(name)) return { task: name };
  return { error: `no task named "${name}". The tasks:\n  ${SCHEDULED_TASKS.join("\n  ")}` };
}

async function main(): Promise<number> {
  const parsed = parseCronArgs(process.argv.slice(2));
  if ("help" in parsed) {
    process.stdout.write(`${parsed.help}\n`);
    return 0;
  }
  if ("error" in parsed) {
    process.stderr.write(`cron: ${parsed.error}\n`);
    return 2;
  }
  const base = `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const what = parsed.task ?? `all tasks (${SCHEDULED_TASKS.join(", ")})`;
  process.stdout.write(`running ${what} on ${base}\n`);
  const started = Date.now();
  let res: Response;
  try {
    // The pretty HTML error page is for browsers: a failed run's error comes back as JSON.
    res = await fetch(`${base}/__scheduled?cron=${parsed.task ?? ""}`, { headers: { "MF-Disable-Pretty-Error": "1" } });
  } catch {
    process.stderr.write(
      `cron: nothing answers on ${base}. Start the API first (npm start), or set PORT to its port.\n`,
    );
    return 1;
  }
  const body = await res.text();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (res.ok && body === "Ran scheduled event") {
    process.stdout.write(`done in ${seconds} s: ${parsed.task ?? "every task"} ran to its end without error.
What each task did is on the npm start console: {"msg":"scheduled task","task":…,"result":…}\n`);
    return 0;
  }
  if (res.status === 404)
    process.stderr.write(`cron: ${base} has no /__scheduled: it was not started by npm start or npm run dev
(they run wrangler dev --test-scheduled). Restart it with npm start.\n`);
  else {
    const message = (() => {
      try {
        return (JSON.parse(body) as { message?: string }).message ?? body;
      } catch {
        return body.slice(0, 500);
      }
    })();
    process.stderr.write(`cron: the run failed after ${seconds} s (${res.status}): ${message}
The npm start console has each failed task's {"msg":"background task failed",…} line.\n`);
  }
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
