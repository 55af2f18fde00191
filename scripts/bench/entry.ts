/**
 * The API's entry under the benchmark, written into .bench/ (the Worker is built from there): the
 * Worker itself, plus the app without its app-wide middleware (header `x-bench-app: none`), the
 * cache bypassed (`x-bench-uncached: 1`), a request's D1 statements and round trips counted
 * (`x-bench-count: 1`: answered in headers, see countedFetch), every D1 round trip of a request
 * delayed by a fixed time (`x-bench-d1-rtt: MS`, bench/latency.ts: a primary that far away),
 * the cron's run (`/__bench/scan`), and for bench/capacity.ts the database's size as D1 reports it
 * (`/__bench/size`), one statement's rows (`/__bench/query`) and the write floor, one single-row
 * INSERT a request (`/__bench/insert`).
 */
import { writeFileSync } from "node:fs";
import { writeD1Counter } from "./d1-counter";

/** Writes the entry into `dir`; returns its file name. */
export function writeBenchEntry(dir: string): string {
  writeFileSync(
    `${dir}/entry.ts`,
    `import { APP_MIDDLEWARE, createApp } from "../src/app";
import worker from "../src/index";
import webhooksWorker from "../src/webhooks-worker";
import { type Counts, countedEnv } from "./${writeD1Counter(dir)}";

/** The app without its app-wide middleware: what they cost a read (bench/middleware.ts). */
const withoutMiddleware = createApp({ without: APP_MIDDLEWARE });

/**
 * The request run on a counting binding, its answer carrying the counts (x-bench-statements,
 * x-bench-round-trips). What it leaves to waitUntil (the events' send, which writes too) is awaited
 * before they are read, so that it is counted: it runs beside the handler, and when it runs says
 * nothing of whose it is.
 */
async function countedFetch(
  app: { fetch: typeof worker.fetch },
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  delayMs: number,
) {
  const counts: Counts = { statements: 0, roundTrips: 0 };
  const deferred: Promise<unknown>[] = [];
  const c = new Proxy(ctx, {
    get(target, prop) {
      if (prop === "waitUntil")
        return (p: Promise<unknown>) => {
          deferred.push(p);
          target.waitUntil(p);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const res = await app.fetch(request, countedEnv(env, counts, delayMs), c);
  const body = await res.arrayBuffer();
  // Deferred work can defer more: the list grows while it is walked.
  for (let i = 0; i < deferred.length; i++) await deferred[i]!.catch(() => undefined);
  const out = new Response(body, res);
  out.headers.set("x-bench-statements", String(counts.statements));
  out.headers.set("x-bench-round-trips", String(counts.roundTrips));
  return out;
}

/** The database the capacity figures are of: the first shard, which holds the bench's stores. */
const benchDb = (env: Env) => env.SHARD_1;

/** The write floor's table, made once per isolate. */
let benchWrites: Promise<unknown> | undefined;

/** The webhooks consumer's queues (wrangler.webhooks.toml): served here by its handler, as deployed beside the API. */
const WEBHOOK_QUEUES = new Set(["commerce-events", "commerce-webhooks-slow", "commerce-events-dlq"]);

export default {
  ...worker,
  async queue(batch: MessageBatch<never>, env: Env, ctx: ExecutionContext) {
    return WEBHOOK_QUEUES.has(batch.queue) ? webhooksWorker.queue(batch, env, ctx) : worker.queue(batch, env, ctx);
  },
  async fetch(request: Request, env: Env, ctx: ExecutionContext) {
    // The cron's run, as the scheduled event starts it: the local runtime's own trigger
    // (/cdn-cgi/handler/scheduled) fails before the handler runs (DataCloneError on the controller).
    if (new URL(request.url).pathname === "/__bench/scan") {
      const controller = { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} };
      // Counted on request (x-bench-count): the D1 statements and round trips one cron run makes.
      const counts: Counts = { statements: 0, roundTrips: 0 };
      const counting = request.headers.get("x-bench-count") !== null;
      await worker.scheduled(controller as ScheduledController, counting ? countedEnv(env, counts) : env, ctx);
      return new Response("ok", {
        headers: { "x-bench-statements": String(counts.statements), "x-bench-round-trips": String(counts.roundTrips) },
      });
    }
    // D1's own figure for the database's size (page count x page size, what its cap counts), after a read.
    if (new URL(request.url).pathname === "/__bench/size") {
      const { meta } = await benchDb(env).prepare("SELECT 1").run();
      return Response.json({ size: meta.size_after });
    }
    // One statement's rows, for the bench to read the database beside the running Worker: a second
    // process on the same local files (wrangler d1 execute) fails now and then while this one writes.
    if (new URL(request.url).pathname === "/__bench/query" && request.method === "POST")
      return Response.json((await benchDb(env).prepare(await request.text()).all()).results);
    // The write floor: one single-row INSERT, committed, per request, without the API's middleware.
    if (new URL(request.url).pathname === "/__bench/insert") {
      benchWrites ??= benchDb(env).prepare(
        "CREATE TABLE IF NOT EXISTS bench_writes (id INTEGER PRIMARY KEY, at TEXT NOT NULL, body TEXT NOT NULL)",
      ).run();
      await benchWrites;
      await benchDb(env).prepare("INSERT INTO bench_writes (at, body) VALUES (?, ?)")
        .bind(new Date().toISOString(), "one row")
        .run();
      return new Response(null, { status: 201 });
    }
    const app = request.headers.get("x-bench-app") === "none" ? withoutMiddleware : undefined;
    const e = request.headers.get("x-bench-uncached") === null ? env : { ...env, CACHE_BYPASS: true };
    // The delay goes with every round trip the request makes, its deferred work's too. Sent with 0,
    // the request takes the same wrapped binding without a delay: the two differ only by it.
    const rtt = request.headers.get("x-bench-d1-rtt");
    const delayMs = rtt === null ? 0 : Math.max(0, Number(rtt) || 0);
    if (request.headers.get("x-bench-count") !== null) return countedFetch(app ?? worker, request, e, ctx, delayMs);
    if (rtt !== null)
      return (app ?? worker).fetch(request, countedEnv(e, { statements: 0, roundTrips: 0 }, delayMs), ctx);
    return (app ?? worker).fetch(request, e, ctx);
  },
};
`,
  );
  return "entry.ts";
}
