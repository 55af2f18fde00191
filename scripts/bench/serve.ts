/**
 * Serves a Worker for `npm run bench` on the runtime `wrangler dev` uses (workerd, through
 * Miniflare), but as deployed Workers run: the bundle `wrangler deploy` would upload, with nothing
 * of the development server in front of it.
 *
 * Why not `wrangler dev` itself, measured on this machine:
 * - it serves every request through a proxy Worker of its own, in front of the user's Worker: a
 *   bare Hono route answered about 900 req/s through it and 2,500 without it, so the floors were a
 *   third of the runtime's, and every read's own cost a smaller share of its time than it is;
 * - it parses every line the Worker logs (and, before, sent it over the DevTools inspector): one
 *   log line cost a bare route 20-40% of its rate there. Here the runtime's output is copied as it
 *   is into this process's stdout (the bench keeps it in .bench/serve-PORT.log), which costs little,
 *   as shipping logs costs a deployed Worker nothing;
 * - its file watcher reloaded the Worker (and dropped queued messages) when the bench wrote into
 *   `.bench/`.
 *
 * Bindings, vars, secrets (from the environment) and queues come from the wrangler config, as
 * wrangler reads them; the state is `--persist-to`'s, laid out as wrangler lays it out, so that
 * `wrangler d1 migrations apply --local --persist-to` prepared it. The cron is run through the bench
 * entries' `/__bench/scan`: the runtime's own trigger (`/cdn-cgi/handler/scheduled`) fails before
 * the handler runs (DataCloneError on the ScheduledController).
 *
 *   tsx scripts/bench/serve.ts -c CONFIG --port N [--ip HOST] [--persist-to DIR] [--var NAME:VALUE]...
 */
import { deployedWorker, parseWorkerArgs } from "./bundle";

let port = 8787;
let ip = "127.0.0.1";
const worker = parseWorkerArgs(process.argv.slice(2), (flag, value) => {
  if (flag === "--port") port = Number(value);
  else if (flag === "--ip") ip = value;
  else return false;
  return true;
});

// The bundle as deployed (aliases, minification and all), one per server.
const { mf } = deployedWorker(worker, {
  outDir: `.bench/build-${port}`,
  host: ip,
  port,
  // The runtime's stdout and stderr, copied as they are.
  handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
    stdout.pipe(process.stdout);
    stderr.pipe(process.stderr);
  },
});
await mf.ready;

const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
