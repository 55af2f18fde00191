/**
 * Reads at the platform's floor (`npm run bench`): the floors (the bare route, one KV read, one D1
 * round trip returning a page of 20 rows built by SQLite), the Worker's bundle and start-up, what
 * each app-wide middleware costs a public read, the meals lists uncached, and what serialising a
 * 30-day Plan Details costs. Every read is set beside its floor in the same run.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type autocannon from "autocannon";
import { writeD1Counter } from "./d1-counter";
import { DURATION_S, load, mid, REPEATS, type Result } from "./load";

/**
 * The API's entry under the benchmark: the Worker itself, plus the app without each app-wide
 * middleware (header `x-bench-app: without-<name>`, or `none`), the cache bypassed
 * (`x-bench-uncached: 1`, for reads whose cache key cannot be varied), and a request's D1
 * statements and round trips counted (`x-bench-count: 1`: answered in headers, see countedFetch).
 * Written into .bench/.
 */
export function writeBenchEntry(dir: string): string {
  writeFileSync(
    `${dir}/entry.ts`,
    `import { APP_MIDDLEWARE, createApp } from "../src/app";
import worker from "../src/index";
import { type Counts, counted } from "./${writeD1Counter(dir)}";

const variants = new Map([
  ["none", createApp({ without: APP_MIDDLEWARE })],
  ...APP_MIDDLEWARE.map((m) => [\`without-\${m}\`, createApp({ without: [m] })] as const),
]);

/**
 * The request run on a counting binding, its answer carrying the counts (x-bench-statements,
 * x-bench-round-trips). What it leaves to waitUntil (the events' send, which writes too) is awaited
 * before they are read, so that it is counted: it runs beside the handler, and when it runs says
 * nothing of whose it is.
 */
async function countedFetch(app: { fetch: typeof worker.fetch }, request: Request, env: Env, ctx: ExecutionContext) {
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
  const res = await app.fetch(request, { ...env, DB: counted(env.DB, counts) }, c);
  const body = await res.arrayBuffer();
  // Deferred work can defer more: the list grows while it is walked.
  for (let i = 0; i < deferred.length; i++) await deferred[i]!.catch(() => undefined);
  const out = new Response(body, res);
  out.headers.set("x-bench-statements", String(counts.statements));
  out.headers.set("x-bench-round-trips", String(counts.roundTrips));
  return out;
}

export default {
  ...worker,
  async fetch(request: Request, env: Env, ctx: ExecutionContext) {
    // The cron's run, as the scheduled event starts it: the local runtime's own trigger
    // (/cdn-cgi/handler/scheduled) fails before the handler runs (DataCloneError on the controller).
    if (new URL(request.url).pathname === "/__bench/scan") {
      const controller = { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} };
      await worker.scheduled(controller as ScheduledController, env, ctx);
      return new Response("ok");
    }
    const variant = request.headers.get("x-bench-app");
    const app = variant === null ? undefined : variants.get(variant);
    const e = request.headers.get("x-bench-uncached") === null ? env : { ...env, CACHE_BYPASS: true };
    if (request.headers.get("x-bench-count") !== null) return countedFetch(app ?? worker, request, e, ctx);
    return (app ?? worker).fetch(request, e, ctx);
  },
};
`,
  );
  return "entry.ts";
}

export type Floors = { bare: Result; kv: Result; d1: Result };

/** The three floors, interleaved with `others`, REPEATS times; the median of each. */
export async function withFloors(
  bare: string,
  others: (() => Promise<Result>)[],
): Promise<{ floors: Floors; others: Result[] }> {
  const runs = [() => load(`${bare}/bare`), () => load(`${bare}/bare-kv`), () => load(`${bare}/bare-d1`), ...others];
  const results = runs.map(() => [] as Result[]);
  for (let i = 0; i < REPEATS; i++) for (const [j, run] of runs.entries()) results[j]!.push(await run());
  const [b, kv, d1, ...rest] = results.map(mid);
  return { floors: { bare: b!, kv: kv!, d1: d1! }, others: rest };
}

export const fmt = (n: number) => (Math.round(n * 100) / 100).toString();
export const ratio = (r: Result, floor: Result) => ({
  rps: r.rps / floor.rps,
  p50: r.p50 / Math.max(floor.p50, 0.001),
});

/** The bundle as deployed (`wrangler deploy --dry-run --outdir`) and its start-up CPU profile. */
export function bundleFigures(dir: string, env: NodeJS.ProcessEnv) {
  const out = `${dir}/dist`;
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], { stdio: "ignore", env });
  const js = readdirSync(out).filter((f) => f.endsWith(".js"));
  const raw = js.reduce((n, f) => n + statSync(`${out}/${f}`).size, 0);
  const gzip = js.reduce((n, f) => n + gzipSync(readFileSync(`${out}/${f}`), { level: 9 }).byteLength, 0);
  let startupMs: number | null = null;
  try {
    // The CPU profile of evaluating the Worker's script, measured locally by wrangler.
    execFileSync("npx", ["wrangler", "check", "startup", "--outfile", `${dir}/startup.cpuprofile`], {
      stdio: "ignore",
      env,
    });
    const p = JSON.parse(readFileSync(`${dir}/startup.cpuprofile`, "utf8")) as {
      nodes: { id: number; callFrame: { functionName: string } }[];
      samples: number[];
      timeDeltas: number[];
    };
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    let busy = 0;
    for (const [i, s] of p.samples.entries()) if (!idle.has(s)) busy += p.timeDeltas[i] ?? 0;
    startupMs = busy / 1000;
  } catch {
    // An alpha command: its figure is left out rather than failing the run.
  }
  return { raw, gzip, startupMs };
}

/** The app-wide middleware, as src/app.ts names them (APP_MIDDLEWARE). */
const MIDDLEWARE = [
  "requestId",
  "requestLog",
  "methodNotAllowed",
  "secureHeaders",
  "cors",
  "fixedPaths",
  "bodyLimit",
  "dbSession",
] as const;

const SHORT_S = Math.max(3, Math.round(DURATION_S / 2));

/**
 * A cached public read with all the app's middleware, with none, and without each one: what each
 * costs, as a share of the bare route's time per request. Shorter runs (SHORT_S), interleaved.
 */
export async function measureMiddleware(url: string, headers: Record<string, string>, bare: string) {
  const variants = ["all", "none", ...MIDDLEWARE.map((m) => `without-${m}`)];
  const runs = [
    () => load(`${bare}/bare`, { duration: SHORT_S }),
    () => load(`${bare}/bare-log`, { duration: SHORT_S }),
    ...variants.map(
      (v) => () => load(url, { headers: v === "all" ? headers : { ...headers, "x-bench-app": v }, duration: SHORT_S }),
    ),
  ];
  const results = runs.map(() => [] as Result[]);
  for (let i = 0; i < REPEATS; i++) for (const [j, run] of runs.entries()) results[j]!.push(await run());
  const [b, bareLog, all, none, ...without] = results.map(mid);
  // The same app measured REPEATS times: how far its CPU per request moves between runs, as a share
  // of the bare route's. A cost within it is not told apart from noise.
  const allCpu = results[2]!.map((r) => r.cpu).filter((x): x is number => x !== null);
  const noise = allCpu.length > 1 && b!.cpu ? (Math.max(...allCpu) - Math.min(...allCpu)) / b!.cpu : null;
  return {
    noise,
    bare: b!,
    bareLog: bareLog!,
    all: all!,
    none: none!,
    without: MIDDLEWARE.map((name, j) => ({ name, r: without[j]! })),
  };
}

/** What a middleware costs a request, as a share of the bare route's time per request (1/rps). */
const costOf = (withIt: Result, withoutIt: Result, bare: Result) => (1 / withIt.rps - 1 / withoutIt.rps) * bare.rps;

/** The same from the runtime's CPU per request: what it adds, as a share of the bare route's. */
const cpuCostOf = (withIt: Result, withoutIt: Result, bare: Result) =>
  withIt.cpu === null || withoutIt.cpu === null || !bare.cpu ? null : (withIt.cpu - withoutIt.cpu) / bare.cpu;

/** The middleware goal (at most 0.1 of the bare route), told only when the cost stands clear of the noise. */
function middlewareVerdict(cost: number | null, noise: number | null) {
  if (cost === null || noise === null) return "not measured";
  if (cost + noise <= 0.1) return "met";
  if (cost - noise > 0.1) return "not met";
  return `not told: within the noise of ${fmt(noise)}`;
}

/** The middleware whose cost stands above the noise, largest first. */
function aboveNoise(m: Awaited<ReturnType<typeof measureMiddleware>>) {
  const costs = m.without
    .flatMap((w) => {
      const cost = cpuCostOf(m.all, w.r, m.bare);
      return cost !== null && m.noise !== null && cost > m.noise ? [{ name: w.name, cost }] : [];
    })
    .sort((x, y) => y.cost - x.cost);
  return costs.length
    ? `by the runtime's CPU per request, the costs above the noise are ${costs.map((w) => `${w.name} (${fmt(w.cost)})`).join(", ")}`
    : `no single middleware's cost stands above the noise (${share(m.noise)} of the bare route)`;
}

/** CPU ms per request, 3 decimals; "-" where it could not be read. */
const cpuMs = (r: Result) => (r.cpu === null ? "-" : (Math.round(r.cpu * 1000) / 1000).toString());
const share = (x: number | null) => (x === null ? "-" : fmt(x));

/** The Plan Details body's serialisation (in this Node process, on the bytes the API sent). */
export async function serialisationCost(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers: { ...headers, "accept-encoding": "identity", "x-bench-uncached": "1" } });
  const text = await res.text();
  const body = JSON.parse(text) as unknown;
  const time = (f: () => unknown, n = 20) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    return (performance.now() - t) / n;
  };
  const stringify = time(() => JSON.stringify(body));
  const gzip = time(() => gzipSync(text, { level: 6 }), 10);
  return { bytes: Buffer.byteLength(text), gzipped: gzipSync(text).byteLength, stringifyMs: stringify, gzipMs: gzip };
}

/** `KV of its size`: one KV read of as many bytes as the read sends (`Floors.kvOfSize`). */
export type ReadRow = {
  name: string;
  size: string;
  r: Result;
  floor: "D1" | "KV" | "KV of its size";
  goal: "list" | "cached" | "none";
};

/** The two profiles side by side: each part's share of the isolate's samples. */
function profileTable(p: { uncached: Profile | null; cached: Profile | null }): string[] {
  if (!p.uncached && !p.cached) return ["The profiler gave no result in this run."];
  const names = [...new Set([...(p.uncached?.parts ?? []), ...(p.cached?.parts ?? [])].map((x) => x.name))];
  const pct = (q: Profile | null, name: string) => {
    if (!q) return "-";
    return `${Math.round((q.parts.find((x) => x.name === name)?.share ?? 0) * 100)}%`;
  };
  const head = (q: Profile | null, what: string) =>
    q
      ? `${what} (${q.requests} requests, ${q.samples} samples, ${fmt(q.msPerRequest)} ms a request profiled)`
      : `${what} (no profile)`;
  return [
    `| part of the work | ${head(p.uncached, "uncached")} | ${head(p.cached, "cached")} |`,
    "|---|---:|---:|",
    ...names.map((n) => `| ${n} | ${pct(p.uncached, n)} | ${pct(p.cached, n)} |`),
  ];
}

/** The floors section: floors, bundle and start-up, middleware, and every read as a ratio to its floor. */
export function readsSection(fig: {
  floors: Floors;
  behindAssets: Result;
  kvOfSize: { bytes: number; r: Result };
  profiles: { uncached: Profile | null; cached: Profile | null };
  reads: ReadRow[];
  bundle: ReturnType<typeof bundleFigures>;
  middleware: Awaited<ReturnType<typeof measureMiddleware>>;
  serialisation: Awaited<ReturnType<typeof serialisationCost>>;
  plan30: { uncached: Result; cached: Result };
}): string[] {
  const { floors, bundle, middleware: m, serialisation: s } = fig;
  const floorOf = (r: ReadRow) => (r.floor === "D1" ? floors.d1 : r.floor === "KV" ? floors.kv : fig.kvOfSize.r);
  const verdict = (r: ReadRow) => {
    const x = ratio(r.r, floorOf(r));
    if (r.goal === "list")
      return x.p50 <= 1.5 && x.rps >= 0.6 ? "met" : `not met (goal: p50 <= 1.5x, req/s >= 0.6 of the D1 floor)`;
    if (r.goal === "cached") return x.rps >= 0.9 ? "met" : `not met (goal: req/s >= 0.9 of the ${r.floor} floor)`;
    return "-";
  };
  const kib = (n: number) => `${fmt(n / 1024)} KiB`;
  const mwTotal = costOf(m.all, m.none, m.bare);
  const mwCpu = cpuCostOf(m.all, m.none, m.bare);
  const assetsCost = cpuCostOf(fig.behindAssets, floors.bare, floors.bare);
  return [
    "## Reads at the floor",
    "",
    "Every figure of this section comes from one run, its measures interleaved (ratios are same-run ratios: the machine has 2 cores",
    "shared with other work, so absolute figures move between runs and only the ratios are compared). Floors, served by the same runtime:",
    "the bare Hono route; the same route reading one small KV value (**KV floor**, what a cached read cannot beat); the same route doing",
    "one D1 round trip that returns the count and a page of 20 rows assembled as JSON by SQLite (**D1 floor**, what a D1-backed read",
    "cannot beat). Merchant reads also look their token up (one more D1 round trip before the read). Both Workers are served as",
    "scripts/bench/serve.ts serves them: the deployed bundle on workerd, nothing of `wrangler dev` in front, and the API without its",
    "static assets in front (the last floor row: the local runtime matches a request against them in two more Workers of its own,",
    "where Cloudflare does it before the Worker runs and outside its CPU time).",
    "",
    "*CPU*: the serving runtime's CPU time per request (the workerd process, its local D1 and KV included), read from the",
    "process before and after each run: it does not depend on the load generator, which shares the 2 cores (at 3,000 req/s the",
    "bare route's rate is the generator's as much as the runtime's).",
    "",
    "| floor | req/s | p50 | p99 | CPU ms/request |",
    "|---|---:|---:|---:|---:|",
    `| bare Hono route | ${fmt(floors.bare.rps)} | ${floors.bare.p50} | ${floors.bare.p99} | ${cpuMs(floors.bare)} |`,
    `| KV floor: bare route + one KV read | ${fmt(floors.kv.rps)} | ${floors.kv.p50} | ${floors.kv.p99} | ${cpuMs(floors.kv)} |`,
    `| D1 floor: bare route + one D1 round trip (count + 20 rows as JSON) | ${fmt(floors.d1.rps)} | ${floors.d1.p50} | ${floors.d1.p99} | ${cpuMs(floors.d1)} |`,
    `| KV floor of the 30-day Plan Details' size: bare route + one KV read of ${fig.kvOfSize.bytes.toLocaleString("en")} bytes | ${fmt(fig.kvOfSize.r.rps)} | ${fig.kvOfSize.r.p50} | ${fig.kvOfSize.r.p99} | ${cpuMs(fig.kvOfSize.r)} |`,
    `| not a floor: the bare route behind the API's static assets, as the local runtime serves them | ${fmt(fig.behindAssets.rps)} | ${fig.behindAssets.p50} | ${fig.behindAssets.p99} | ${cpuMs(fig.behindAssets)} |`,
    "",
    "| read | size | req/s | p50 | p99 | CPU ms/request | floor | req/s vs floor | p50 vs floor | CPU vs floor | goal | errors |",
    "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|",
    ...fig.reads.map((r) => {
      const x = ratio(r.r, floorOf(r));
      const f = floorOf(r);
      const cpuX = r.r.cpu === null || !f.cpu ? null : r.r.cpu / f.cpu;
      return `| ${r.name} | ${r.size} | ${fmt(r.r.rps)} | ${r.r.p50} | ${r.r.p99} | ${cpuMs(r.r)} | ${r.floor} | ${fmt(x.rps)} | ${fmt(x.p50)} | ${share(cpuX)} | ${verdict(r)} | ${r.r.non2xx} |`;
    }),
    "",
    "### Bundle and start-up",
    "",
    `\`wrangler deploy --dry-run --outdir\`: **${kib(bundle.raw)}** raw, **${kib(bundle.gzip)}** gzipped (goal: under 400 KiB gzipped: ${bundle.gzip < 400 * 1024 ? "met" : "not met"}).`,
    bundle.startupMs === null
      ? "Start-up: `wrangler check startup` gave no profile in this run."
      : `Start-up: **${fmt(bundle.startupMs)} ms** of CPU evaluating the script (\`wrangler check startup\`'s profile, this machine, profiler on: an upper bound of what Cloudflare measures; most of it is building the route table and its zod schemas).`,
    "",
    "### What each middleware costs a public read",
    "",
    `A cached Plan Details (Keto week), through the same Worker built with all of the app-wide middleware, with none, and without each one (runs of ${SHORT_S} s).`,
    "Cost: the time per request it adds, as a share of the bare route's time per request (0.1 = a tenth of the bare route): from",
    "the runtime's CPU per request (the goal's measure here), and from req/s (which moves with the load generator's share of the cores).",
    "",
    "| app | req/s | p50 | CPU ms/request | cost by CPU (share of the bare route) | cost by req/s |",
    "|---|---:|---:|---:|---:|---:|",
    `| bare Hono route | ${fmt(m.bare.rps)} | ${m.bare.p50} | ${cpuMs(m.bare)} | - | - |`,
    `| bare Hono route + one request log line | ${fmt(m.bareLog.rps)} | ${m.bareLog.p50} | ${cpuMs(m.bareLog)} | ${share(cpuCostOf(m.bareLog, m.bare, m.bare))} (the line alone) | ${fmt(costOf(m.bareLog, m.bare, m.bare))} |`,
    `| all middleware (as deployed) | ${fmt(m.all.rps)} | ${m.all.p50} | ${cpuMs(m.all)} | - | - |`,
    `| no app-wide middleware | ${fmt(m.none.rps)} | ${m.none.p50} | ${cpuMs(m.none)} | ${share(mwCpu)} (all of them) | ${fmt(mwTotal)} |`,
    ...m.without.map(
      (w) =>
        `| without ${w.name} | ${fmt(w.r.rps)} | ${w.r.p50} | ${cpuMs(w.r)} | ${share(cpuCostOf(m.all, w.r, m.bare))} | ${fmt(costOf(m.all, w.r, m.bare))} |`,
    ),
    "",
    `Goal: the app's middleware costs a public read at most 0.1 of the bare route: **${share(mwCpu)}** by CPU (${middlewareVerdict(mwCpu, m.noise)}), ${fmt(mwTotal)} by req/s.`,
    `Noise: the app with all of it, measured ${REPEATS} times in this run, moved by **${share(m.noise)}** of the bare route between runs; a cost`,
    "within that is not told apart from none.",
    "",
    "### Why the goals not met are not met, and the next steps",
    "",
    `- Serving: the local runtime puts the API's static assets (the /docs files) in front of the Worker as two more Workers of`,
    `  its own, in the same process: behind them the bare route costs **${share(assetsCost)}** times its own CPU more. Every read`,
    "  paid that here until this run measured the API without them (Cloudflare matches assets before the Worker, outside its CPU",
    "  time, so a deployed Worker never pays it); the floors never did. It was most of what cached reads and the middleware",
    "  measure lacked: behind them, the runs before this one measured cached reads at 0.5-0.6 of the KV floor.",
    "- D1-backed lists: each is one statement (the count, the page and every nested level, the nested levels looked up by the",
    "  page's ids; merchant lists also look their token up, at most once a second per isolate), on indexes that match the common",
    "  filter and order (migration 0013), and List Orders counts a large store from counters kept by triggers. What is left beside",
    "  the floor is the request's own work in the isolate (the query's validation, building the statement's SQL text, decoding and",
    "  assembling the nested JSON into the spec's objects, and for a public read's miss its ETag and the gzip it stores) and the",
    "  statement's own SQLite time, larger than the floor's (the tenant's conditions, the nested levels, the parent's check), on a",
    "  runtime where local D1 runs one statement at a time, so 10 connections queue on it. No one part dominates the isolate's",
    "  share (Where a read's CPU goes, below). Next, by that table: the miss's serialisation, ETag and gzip for KV moved after",
    "  the response, and each list statement's SQL built once per isolate and list shape with the values bound.",
    `- Middleware: ${aboveNoise(m)}; all of them ${share(mwCpu)} (${middlewareVerdict(mwCpu, m.noise)}). Next: one middleware for`,
    "  what a public read needs (request id, log line, security and CORS headers) instead of nine.",
    "- Cached reads: a hit reads nothing from KV (the generation held in the isolate for at most a second, the body in its memory).",
    `  The 30-day Plan Details sends ${fig.kvOfSize.bytes.toLocaleString("en")} bytes gzipped: its floor is one KV read of as many bytes, since sending them`,
    "  costs the same to both.",
    bundle.gzip < 400 * 1024
      ? `- Bundle: ${kib(bundle.gzip)} gzipped, under the goal with little room: the next saving is the phone metadata or the schemas' own descriptions.`
      : `- Bundle: ${kib(bundle.gzip)} gzipped, ${kib(bundle.gzip - 400 * 1024)} over. Next: the phone metadata, the schemas' own descriptions.`,
    "",
    "### Where a read's CPU goes",
    "",
    "The runtime's own sampling profiler (V8's, through the inspector on workerd), on the bundle as built but not minified, over",
    "requests sent one at a time to List Restaurant (the profiler has stopped the local runtime after 100-200 requests, so a",
    "few dozen). Each sample goes to the part of the work of its innermost frame in the bundle's modules (scripts/bench/profile.ts);",
    "the D1 statement's own SQLite time runs outside the isolate and is not in it. The profiler slows what it samples: the shares",
    "count, not the times. With the inspector attached, every console.log also goes to it, so the request log line's share is",
    "larger here than its cost without (the bare route with one log line, What each middleware costs).",
    "",
    ...profileTable(fig.profiles),
    "",
    "### Plan Details, 30 days: size and serialisation",
    "",
    `The Balanced 30 plan's body: **${kib(s.bytes)}** of JSON, **${kib(s.gzipped)}** gzipped. Serialising it (JSON.stringify, in Node on the same`,
    `body) takes **${fmt(s.stringifyMs)} ms**, gzipping it **${fmt(s.gzipMs)} ms**: a miss pays both once, then the gzipped bytes are kept (KV and the`,
    "isolate's memory) and sent as they are to every client that takes gzip (compressed end to end; never decompressed on a hit).",
    `p50 uncached (cache bypassed: D1, assembly, serialisation, gzip): **${fig.plan30.uncached.p50} ms** (${fmt(fig.plan30.uncached.rps)} req/s); cached: **${fig.plan30.cached.p50} ms** (${fmt(fig.plan30.cached.rps)} req/s).`,
    "",
  ];
}

/**
 * The meals lists (uncached: the cache bypassed; and cached), against the floors of the same runs.
 * List Plans is a search (POST with its filters in the body): never cached, so measured once.
 */
const MEALS_LISTS = [
  { name: "List Restaurant", path: "/api/v1/restaurants/", method: "GET", cached: true },
  { name: "List Plans", path: "/public-api/v1/plans/", method: "POST", cached: false },
  { name: "List Restaurant Branches", path: "/api/v1/restaurants/1/branches/", method: "GET", cached: true },
  { name: "Wallet Credit Products", path: "/api/v1/restaurants/wallet-credit-products/", method: "GET", cached: true },
] as const;

export type Profile = {
  requests: number;
  msPerRequest: number;
  samples: number;
  parts: { name: string; share: number }[];
};

/** Where a read's CPU goes in the isolate (bench/profile.ts), or null when the profiler gave nothing. */
function profileOf(serveArgs: string[], read: { path: string; headers: Record<string, string> }): Profile | null {
  const out = ".bench/profile.json";
  try {
    execFileSync(
      "node",
      [
        "--experimental-websocket",
        "--import",
        "tsx",
        "scripts/bench/profile.ts",
        ...serveArgs,
        "--path",
        read.path,
        ...Object.entries(read.headers).flatMap(([k, v]) => ["--header", `${k}:${v}`]),
        "--out",
        out,
      ],
      { stdio: "ignore", timeout: 300_000 },
    );
    return JSON.parse(readFileSync(out, "utf8")) as Profile;
  } catch {
    return null;
  }
}

/** The reads section's measures (bench/reads.ts). */
export async function measureReads(
  api: string,
  bare: string,
  opts: {
    keto: string;
    balanced30: string;
    env: NodeJS.ProcessEnv;
    /** The bare Worker behind the API's static assets (bench/wrangler.bare-assets.toml). */
    behindAssets: string;
    /** How the API is served (`-c CONFIG --persist-to DIR --var …`): bench/profile.ts serves it again. */
    serveArgs: string[];
  },
) {
  const headers = { "app-id": "1", "accept-encoding": "gzip, deflate, br" };
  const plan30 = `${api}${opts.balanced30}`;
  const asSent = (method: string) => (req: autocannon.Request) =>
    method === "POST"
      ? { ...req, method: "POST" as const, body: "{}", headers: { ...req.headers, "content-type": "application/json" } }
      : req;
  for (const l of MEALS_LISTS) {
    const res = await fetch(api + l.path, {
      method: l.method,
      headers: { ...headers, "content-type": "application/json" },
      ...(l.method === "POST" && { body: "{}" }),
    });
    if (res.status !== 200) throw new Error(`${l.path}: ${res.status} ${await res.text()}`);
  }
  const listRuns = MEALS_LISTS.flatMap((l) => [
    () => load(api + l.path, { headers: { ...headers, "x-bench-uncached": "1" }, setup: asSent(l.method) }),
    ...(l.cached ? [() => load(api + l.path, { headers, setup: asSent(l.method) })] : []),
  ]);
  // The 30-day plan's bytes as sent (gzipped): its cached read's floor is one KV read of as many.
  const sent = await fetch(plan30, { headers });
  await sent.arrayBuffer();
  const planBytes = Number(sent.headers.get("content-length"));
  if (!(planBytes > 0)) throw new Error(`${plan30}: no Content-Length (${sent.status})`);
  const m = await withFloors(bare, [
    () => load(`${opts.behindAssets}/bare`),
    () => load(`${bare}/bare-kv/${planBytes}`),
    ...listRuns,
    () => load(plan30, { headers: { ...headers, "x-bench-uncached": "1" } }),
    () => load(plan30, { headers }),
  ]);
  const results = [...m.others];
  const behindAssets = results.shift()!;
  const kvOfSize = { bytes: planBytes, r: results.shift()! };
  const rows: ReadRow[] = MEALS_LISTS.flatMap((l) => [
    {
      name: l.cached ? `${l.name} (uncached)` : l.name,
      size: "demo store",
      r: results.shift()!,
      floor: "D1" as const,
      goal: "list" as const,
    },
    ...(l.cached
      ? [
          {
            name: `${l.name} (cached)`,
            size: "demo store",
            r: results.shift()!,
            floor: "KV" as const,
            goal: "cached" as const,
          },
        ]
      : []),
  ]);
  const plan = { uncached: results.shift()!, cached: results.shift()! };
  rows.push(
    { name: "Plan Details, 30 days (uncached)", size: "1 plan", r: plan.uncached, floor: "D1", goal: "none" },
    { name: "Plan Details, 30 days (cached)", size: "1 plan", r: plan.cached, floor: "KV of its size", goal: "cached" },
  );
  const middleware = await measureMiddleware(`${api}${opts.keto}`, headers, bare);
  const serialisation = await serialisationCost(plan30, headers);
  const bundle = bundleFigures(".bench", opts.env);
  const restaurants = { path: "/api/v1/restaurants/", headers };
  const profiles = {
    uncached: profileOf(opts.serveArgs, { ...restaurants, headers: { ...headers, "x-bench-uncached": "1" } }),
    cached: profileOf(opts.serveArgs, restaurants),
  };
  return {
    floors: m.floors,
    behindAssets,
    kvOfSize,
    profiles,
    reads: rows,
    bundle,
    middleware,
    serialisation,
    plan30: plan,
  };
}
