/**
 * Serves a Worker for `npm run bench` as `wrangler dev` would, but as deployed Workers run: without
 * the DevTools inspector attached, and without watching files.
 *
 * `wrangler dev` always attaches its inspector, and with it every `console.log` is sent over the
 * inspector protocol to wrangler's process: measured here, one log line cost a route about 40% of
 * its rate (a bare Hono route 1,000 req/s, the same route logging one line 590), which no deployed
 * Worker pays. Its file watcher would also reload the Worker (and drop queued messages) when the
 * bench writes into `.bench/`.
 *
 * Takes the few `wrangler dev` flags the bench uses:
 *   tsx scripts/bench/serve.ts -c CONFIG --port N [--ip HOST] [--persist-to DIR] [--var NAME:VALUE]... [--test-scheduled]
 */
import { unstable_startWorker } from "wrangler";

function parse(argv: string[]) {
  const o = {
    config: "wrangler.toml",
    port: 8787,
    ip: "127.0.0.1",
    persist: undefined as string | undefined,
    vars: {} as Record<string, { type: "plain_text"; value: string }>,
    testScheduled: false,
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
    else if (flag === "--test-scheduled") o.testScheduled = true;
    else if (flag === "--var") {
      const v = value();
      const at = v.indexOf(":");
      if (at <= 0) throw new Error(`--var takes NAME:VALUE, not ${v}`);
      o.vars[v.slice(0, at)] = { type: "plain_text", value: v.slice(at + 1) };
    } else throw new Error(`unknown flag ${flag}`);
  }
  return o;
}

const o = parse(process.argv.slice(2));
const worker = await unstable_startWorker({
  config: o.config,
  bindings: o.vars,
  dev: {
    inspector: false,
    watch: false,
    persist: o.persist,
    testScheduled: o.testScheduled,
    server: { hostname: o.ip, port: o.port },
    logLevel: "warn",
  },
});
await worker.ready;

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
