/**
 * The harness of `npm run bench`, shared by every scenario: a fresh local database per scenario,
 * the Worker under test and the bare baseline served as deployed (bench/serve.ts), tokens, the
 * floors and the ratios against them, and docs/benchmarks.md, one section per scenario.
 *
 * A scenario declares its `--only` name, its section's heading, the goal it checks, and `run`,
 * which seeds its data, starts what it needs (`startApi`, `startBare`) and returns its section's
 * body; the harness stops what it started and writes the section.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { cpus, loadavg } from "node:os";
import { sign } from "hono/jwt";
import { benchWranglerToml } from "./bundle";
import { writeBenchEntry } from "./entry";
import {
  CONNECTIONS,
  DEFAULT_REPEATS,
  DEFAULT_SECONDS,
  DURATION_S,
  interleaved,
  load,
  REPEATS,
  type Result,
} from "./load";
import { benchShardOf } from "./stores";

export const BENCH_DIR = ".bench";
export const STATE = `${BENCH_DIR}/state`;
const DOC = "docs/benchmarks.md";
/** Ports of the API and the bare baseline (another checkout's bench can run beside this one on others). */
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8788);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 8789);
export const API = `http://127.0.0.1:${API_PORT}`;
export const BARE = `http://127.0.0.1:${BARE_PORT}`;
// scripts/d1.ts (executeLocal, queryLocal) works on the bench's own database.
process.env.D1_PERSIST_TO = STATE;
export const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const started = Date.now();
export const log = (m: string) =>
  process.stderr.write(`bench: [${Math.round((Date.now() - started) / 1000)} s] ${m}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Two decimals; "-" for a figure that was not measured. */
export const fmt = (n: number) => (Number.isFinite(n) ? (Math.round(n * 100) / 100).toString() : "-");
export const count = (n: number) => n.toLocaleString("en");
export const met = (ok: boolean) => (ok ? "met" : "not met");

// ---- Servers ------------------------------------------------------------------------------------

/** The secret customer tokens are signed with in this run (the config is in .bench/: .dev.vars is not read). */
const CUSTOMER_JWT_SECRET = randomBytes(32).toString("base64url");
/** The API's vars: webhooks allowed to this machine and retried after 1, 2 and 3 s; this run's secrets. */
const API_ARGS = [
  "--persist-to",
  STATE,
  "--var",
  "WEBHOOKS_ALLOW_LOCALHOST:true",
  "--var",
  "WEBHOOK_RETRY_DELAYS:1,2,3",
  "--var",
  `CUSTOMER_JWT_SECRET:${CUSTOMER_JWT_SECRET}`,
  "--var",
  `LINK_SIGNING_SECRET:${randomBytes(32).toString("base64url")}`,
];

const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

/** Serves a Worker (bench/serve.ts) on `port`; its output goes to .bench/serve-PORT.log. */
async function serve(args: string[], port: number): Promise<ChildProcess> {
  const url = `http://127.0.0.1:${port}/`;
  // A server still answering on the port (one being stopped) is not the one started here.
  for (const free = Date.now() + 30_000; await answers(url); await sleep(500))
    if (Date.now() > free) throw new Error(`port ${port} is taken by another server`);
  const out = openSync(`${BENCH_DIR}/serve-${port}.log`, "a");
  const child = spawn("npx", ["tsx", "scripts/bench/serve.ts", ...args, "--port", String(port), "--ip", "127.0.0.1"], {
    stdio: ["ignore", out, out],
    env,
    detached: true,
  });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500))
    if (await answers(url)) return child;
  throw new Error(`the Worker on ${port} did not start (see ${BENCH_DIR}/serve-${port}.log)`);
}

/** Stops a served Worker (its whole process group) and waits for it to exit. */
async function stop(child: ChildProcess) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid, "SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
}

export type Served = { url: string; args: string[]; stop: () => Promise<void>; restart: () => Promise<void> };
/** What the running scenario started: stopped when it ends, however it ends. */
const running = new Set<Served>();
const children = new Set<ChildProcess>();
process.on("exit", () => {
  // A child stopped by a signal has no exit code: its signal says it is gone (its group with it).
  for (const c of children)
    if (c.pid && c.exitCode === null && c.signalCode === null)
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {
        // already gone
      }
});
// Served Workers run in process groups of their own: interrupted, the bench still stops them (on exit).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

async function served(args: string[], port: number): Promise<Served> {
  let child = await serve(args, port);
  children.add(child);
  const s: Served = {
    url: `http://127.0.0.1:${port}`,
    args,
    stop: async () => {
      running.delete(s);
      await stop(child);
    },
    restart: async () => {
      await stop(child);
      child = await serve(args, port);
      children.add(child);
    },
  };
  running.add(s);
  return s;
}

/**
 * The API's own wrangler.toml on the bench's entry (bench/entry.ts), with the per-token rate limit
 * lifted: the load comes from one token, and the benchmark measures the API, not the limiter.
 */
function apiConfig(): string {
  const text = benchWranglerToml(writeBenchEntry(BENCH_DIR)).replace(
    /simple = \{ limit = \d+/,
    "simple = { limit = 100000000",
  );
  writeFileSync(`${BENCH_DIR}/wrangler.toml`, text);
  return `${BENCH_DIR}/wrangler.toml`;
}

/** The API under test, on the bench's entry unless `config` names another; `vars` (NAME:VALUE) beside the run's. */
export const startApi = (config = apiConfig(), vars: readonly string[] = []) =>
  served(["-c", config, ...API_ARGS, ...vars.flatMap((v) => ["--var", v])], API_PORT);
/** The baseline Worker (bench/bare-worker.ts): the floors, served by the same runtime. */
export const startBare = () => served(["-c", "scripts/bench/wrangler.bare.toml"], BARE_PORT);

// ---- Data ---------------------------------------------------------------------------------------

/**
 * A scenario's own database in .bench/: migrated, with the demo seed. One run at a time in a
 * checkout: a second would remove the first one's .bench/ from under it (the pid is in .bench/pid).
 */
function freshDatabase() {
  try {
    const pid = Number(readFileSync(`${BENCH_DIR}/pid`, "utf8"));
    if (pid > 0 && pid !== process.pid) {
      process.kill(pid, 0); // throws ESRCH when no such process is running
      throw new Error(`another npm run bench (pid ${pid}) is using ${BENCH_DIR}/; run this one after it ends`);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ESRCH") throw error;
  }
  rmSync(BENCH_DIR, { recursive: true, force: true });
  mkdirSync(BENCH_DIR, { recursive: true });
  writeFileSync(`${BENCH_DIR}/pid`, String(process.pid));
  log("migrating and seeding a fresh local database in .bench/");
  const quiet = { stdio: ["ignore", "ignore", "inherit"] as ("ignore" | "inherit")[], env };
  execFileSync("npx", ["tsx", "scripts/migrate.ts", "--local", "--persist-to", STATE], quiet);
  execFileSync("npx", ["tsx", "scripts/seed.ts"], quiet);
}

// The bench's stores and merchant keys in the directory and their shards (bench/stores.ts).
export { BENCH_SHARD, benchShardOf, merchantHeaders, registerBenchStore } from "./stores";

/** Customer access tokens of store `app`, signed with this run's secret (valid 6 hours), by customer id. */
export async function customerTokens(app: number, customerIds: Iterable<number>): Promise<Map<number, string>> {
  const now = Math.floor(Date.now() / 1000);
  const tokens = new Map<number, string>();
  for (const id of customerIds)
    if (!tokens.has(id))
      tokens.set(
        id,
        await sign(
          { sub: String(id), app_id: app, kind: "customer", iat: now, exp: now + 6 * 3600, shard: benchShardOf(app) },
          CUSTOMER_JWT_SECRET,
          "HS256",
        ),
      );
  return tokens;
}

export type Answer = { status: number; header: (name: string) => number; json: () => unknown; text: string };

/**
 * One request on a connection of its own, given up after `timeoutMs`: between requests the bench
 * writes to D1 for seconds, and a kept-alive connection can be closed just as the next one goes out.
 */
export function sendFresh(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: o.method ?? "GET", headers: o.headers, agent: false, timeout: o.timeoutMs ?? 60_000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => Number(res.headers[name]),
            json: () => JSON.parse(text),
            text,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer from ${new URL(url).pathname} in ${o.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(o.body);
  });
}

// ---- Floors and ratios --------------------------------------------------------------------------

/** The floors the bare Worker serves (bench/bare-worker.ts): what a read of the API cannot beat. */
export const floor = {
  bare: `${BARE}/bare`,
  /** The bare route reading one small KV value. */
  kv: `${BARE}/bare-kv`,
  /** The bare route reading one KV value of `bytes` (a cached read's floor for a body of that size). */
  kvOf: (bytes: number) => `${BARE}/bare-kv/${bytes}`,
  /** The bare route doing one D1 round trip: the count and 20 rows as the list envelope, built by SQLite. */
  d1: `${BARE}/bare-d1`,
};

/** `runs` interleaved with the load of the floor at `floorUrl`, REPEATS times; the median of each. */
export async function againstFloor(floorUrl: string, runs: readonly (() => Promise<Result>)[]) {
  const [f, ...results] = await interleaved([() => load(floorUrl), ...runs]);
  return { floor: f!, results };
}

export const vsFloor = (r: Result, f: Result) => ({ rps: r.rps / f.rps, p50: r.p50 / Math.max(f.p50, 0.001) });

/**
 * How a p50 grows from a small store to a large one, each against the floor of its own runs: the
 * two sizes are measured minutes apart, and the machine's load between them cancels out.
 */
export const GROWTH =
  "p50 against the D1 floor at 100,000 within 1.5x of the same at 1,000 (each size against its own runs' floor)";
export const growth = (small: number, smallFloor: Result, large: number, largeFloor: Result) =>
  large / Math.max(largeFloor.p50, 0.001) / (small / Math.max(smallFloor.p50, 0.001));

/** The columns of a measure against its floor (floorCells fills them). */
export const FLOOR_COLUMNS = {
  head: "req/s | p50 | p95 | p99 | floor req/s | floor p50 | req/s vs floor | p50 vs floor | errors |",
  rule: "---:|---:|---:|---:|---:|---:|---:|---:|---:|",
};
export const floorCells = (r: Result, f: Result) => {
  const x = vsFloor(r, f);
  return `${fmt(r.rps)} | ${r.p50} | ${r.p95} | ${r.p99} | ${fmt(f.rps)} | ${f.p50} | ${fmt(x.rps)} | ${fmt(x.p50)} | ${r.non2xx} |`;
};

/** The goal of a D1-backed read: p50 within 1.5x of the D1 floor's, req/s at least 0.6 of it. */
export const AT_D1_FLOOR = "p50 within 1.5x of the D1 floor's and req/s at least 0.6 of it";
export function atD1Floor(r: Result, f: Result) {
  const x = vsFloor(r, f);
  return `p50 **${fmt(x.p50)}x**, req/s **${fmt(x.rps)}** (${met(x.p50 <= 1.5 && x.rps >= 0.6)})`;
}

// ---- Scenarios and the document -----------------------------------------------------------------

export type Scenario = {
  /** Its `--only` name. */
  name: string;
  /** Its section's heading in docs/benchmarks.md (`## ...`). */
  heading: string;
  /** The goal it checks, as the section states it. */
  goal: string;
  /** Run only when named with `--only` (longer than the full run can afford, or a test suite's run). */
  alone?: boolean;
  /** Seeds its data (the fresh database is ready), starts what it needs, measures; its section's body. */
  run: () => Promise<string[]>;
};

const DOC_HEAD = [
  "# Benchmarks",
  "",
  "Written by `npm run bench` (do not edit by hand; `npm run bench -- --only NAME` runs one section). Each section is one",
  "scenario on a fresh local database: the API and a bare Hono Worker (the floors: a JSON route, the same reading one KV",
  "value, the same doing one D1 round trip) on the runtime `wrangler dev` uses (workerd through Miniflare, with local D1, KV",
  "and Queues), as the bundle `wrangler deploy` builds, without what `wrangler dev` puts in front (a proxy Worker and the",
  "parsing of every log line: scripts/bench/serve.ts) and without the static assets' matching, which Cloudflare does before",
  `the Worker, outside its CPU time. Load from autocannon, ${CONNECTIONS} connections, ${DEFAULT_SECONDS} s a run after a warm-up, ${DEFAULT_REPEATS} runs`,
  "a measure interleaved with its floor's (unless its section's first line says otherwise), the median of each figure;",
  "latencies in ms. The goals are set on ratios against a floor measured in the same run: the machine is shared (2 cores,",
  "its load average at the start on each section's first line), so absolute figures move between runs and sections",
  "measured at different times do not compare.",
  "",
];

/** The `## ` section `heading` of a document as lines, to the next section, if it has one. */
function sectionOf(doc: string, heading: string): string[] | undefined {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) return undefined;
  const next = doc.indexOf("\n## ", start + 1);
  return doc
    .slice(start + 1, next < 0 ? doc.length : next)
    .trimEnd()
    .split("\n");
}

/**
 * Runs `only` (a scenario's name), or every scenario not `alone`, each on a fresh database, and
 * writes each one's section as it ends; the sections of the others are kept as they were.
 */
export async function runScenarios(scenarios: readonly Scenario[], only: string | undefined) {
  const chosen = scenarios.filter((s) => (only === undefined ? !s.alone : s.name === only));
  if (only !== undefined && chosen.length === 0)
    throw new Error(`--only takes: ${scenarios.map((s) => s.name).join(", ")}`);
  let failed = false;
  for (const s of chosen) {
    log(`${s.name}: ${s.heading.slice(3)}`);
    let body: string[];
    // The load on the shared machine as the scenario starts: what its absolute figures went through.
    const runs =
      REPEATS === DEFAULT_REPEATS && DURATION_S === DEFAULT_SECONDS
        ? ""
        : `, ${REPEATS} run${REPEATS === 1 ? "" : "s"} of ${DURATION_S} s a measure`;
    const measuredOn = `${new Date().toISOString().slice(0, 10)}${runs}, load average ${fmt(loadavg()[0]!)} on ${cpus().length} cores at the start`;
    try {
      freshDatabase();
      body = await s.run();
    } catch (error) {
      failed = true;
      log(`${s.name} failed: ${(error as Error).stack ?? error}`);
      continue;
    } finally {
      for (const server of [...running]) await server.stop();
    }
    const section = [s.heading, "", `Measured on ${measuredOn}.`, "", `Goal: ${s.goal}`, ""];
    const previous = readFileSync(DOC, "utf8");
    const sections = scenarios.flatMap((x) =>
      x === s ? [[...section, ...body]] : [sectionOf(previous, x.heading) ?? []],
    );
    // Sections other scripts write (`npm run docs:check`'s) stay, after the scenarios'.
    const known = new Set(scenarios.map((x) => x.heading));
    for (const heading of previous.match(/^## .*$/gm) ?? [])
      if (!known.has(heading)) sections.push(sectionOf(previous, heading) ?? []);
    writeFileSync(
      DOC,
      [...DOC_HEAD, ...sections.filter((x) => x.length).map((x) => `${x.join("\n").trimEnd()}\n`)].join("\n"),
    );
    process.stdout.write(`${[...section, ...body].join("\n")}\n`);
  }
  if (failed) process.exitCode = 1;
}
