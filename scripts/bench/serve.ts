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
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

function parse(argv: string[]) {
  const o = {
    config: "wrangler.toml",
    port: 8787,
    ip: "127.0.0.1",
    persist: undefined as string | undefined,
    vars: {} as Record<string, string>,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "-c" || flag === "--config") o.config = value();
    else if (flag === "--port") o.port = Number(value());
    else if (flag === "--ip") o.ip = value();
    else if (flag === "--persist-to") o.persist = value();
    else if (flag === "--var") {
      const v = value();
      const at = v.indexOf(":");
      if (at <= 0) throw new Error(`--var takes NAME:VALUE, not ${v}`);
      o.vars[v.slice(0, at)] = v.slice(at + 1);
    } else throw new Error(`unknown flag ${flag}`);
  }
  return o;
}

const o = parse(process.argv.slice(2));

// The bundle as deployed (aliases, minification and all), one per server.
const out = resolve(`.bench/build-${o.port}`);
mkdirSync(out, { recursive: true });
execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out, "-c", o.config], { stdio: "ignore" });
const main = readdirSync(out).find((f) => f.endsWith(".js"));
if (!main) throw new Error(`wrangler deploy --dry-run left no script in ${out}`);

const { workerOptions } = unstable_getMiniflareWorkerOptions(o.config);
const mf = new Miniflare({
  workers: [
    {
      ...workerOptions,
      name: "bench",
      modules: true,
      modulesRoot: out,
      scriptPath: `${out}/${main}`,
      bindings: { ...workerOptions.bindings, ...o.vars },
    },
  ],
  host: o.ip,
  port: o.port,
  ...(o.persist && { defaultPersistRoot: resolve(o.persist, "v3") }),
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
