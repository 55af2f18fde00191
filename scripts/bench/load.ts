/**
 * The load of `npm run bench`: autocannon against one URL, a warm-up then a run of DURATION_S
 * seconds, and the median of REPEATS interleaved runs. Shared by the parts of the benchmark.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export const DEFAULT_SECONDS = 10;
export const DEFAULT_REPEATS = 3;
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? DEFAULT_SECONDS);
export const CONNECTIONS = 10;
export const REPEATS = Number(process.env.BENCH_REPEATS ?? DEFAULT_REPEATS);

/**
 * Latencies in ms (of the responses with the expected status). `cpu`: the serving runtime's CPU
 * time per request in ms (null where it cannot be read): unlike req/s, it does not depend on the
 * load generator, which shares this machine's cores with the runtime.
 */
export type Result = { rps: number; p50: number; p95: number; p99: number; non2xx: number; cpu: number | null };

const TICK_MS = 1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);

/** The process listening on the URL's port: the runtime serving it (workerd binds the port itself). */
function listenerOf(url: string): number | null {
  try {
    const out = execFileSync("ss", ["-ltnpH", `sport = :${new URL(url).port}`], { encoding: "utf8" });
    const m = /pid=(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The CPU time (user and system) a process has used, in ms. */
function cpuMsOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // utime and stime are fields 14 and 15; the command (field 2) may hold spaces, so count after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

export type LoadOptions = {
  headers?: Record<string, string>;
  /** The status every response must have: 304 for revalidations, 404 for the unknown path. */
  expect?: 200 | 304 | 404;
  /** Gives each request its own query parameter, so that no two share a cache entry. */
  unique?: boolean;
  /** Shapes each request (its path, method, headers, body): a write that needs a target of its own each time. */
  setup?: (req: autocannon.Request) => autocannon.Request;
  /** Requests of the warm-up; 200 unless given. */
  warmup?: number;
  /** Seconds of the run; DURATION_S unless given. */
  duration?: number;
  /** Told each response's status, of the warm-up and of the run: a write checks its answers against its rows. */
  onStatus?: (status: number) => void;
};

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : Number.NaN;
};

/** One autocannon run, reporting each response's status and time (ms) to `onResponse`. */
function cannon(opts: autocannon.Options, onResponse?: (status: number, ms: number) => void) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    // The instance emits (client, status, bytes, time), whatever @types/autocannon says.
    if (onResponse)
      (instance as NodeJS.EventEmitter).on("response", (_client: unknown, status: number, _bytes: number, ms: number) =>
        onResponse(status, ms),
      );
  });
}

export async function load(url: string, opts: LoadOptions = {}): Promise<Result> {
  const headers = opts.headers ?? {};
  let n = 0;
  const setup =
    opts.setup ??
    (opts.unique
      ? (req: autocannon.Request) => ({
          ...req,
          path: `${req.path}${req.path?.includes("?") ? "&" : "?"}nocache=${Date.now()}-${n++}`,
        })
      : undefined);
  const requests: autocannon.Request[] | undefined = setup ? [{ setupRequest: setup }] : undefined;
  await cannon({ url, connections: CONNECTIONS, amount: opts.warmup ?? 200, headers, requests }, opts.onStatus);
  const expected = Math.floor((opts.expect ?? 200) / 100);
  const times: number[] = [];
  const pid = listenerOf(url);
  const cpu0 = cpuMsOf(pid);
  const r = await cannon(
    { url, connections: CONNECTIONS, duration: opts.duration ?? DURATION_S, headers, requests },
    (status, ms) => {
      opts.onStatus?.(status);
      if (Math.floor(status / 100) === expected) times.push(ms);
    },
  );
  const cpu1 = cpuMsOf(pid);
  const wrong =
    opts.expect === 304
      ? r.non2xx - r["3xx"] + r["2xx"]
      : opts.expect === 404
        ? r.non2xx - r["4xx"] + r["2xx"]
        : r.non2xx;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p95: Math.round(pct(times, 0.95)),
    p99: r.latency.p99,
    non2xx: wrong + r.errors,
    cpu: cpu0 === null || cpu1 === null || r.requests.total === 0 ? null : (cpu1 - cpu0) / r.requests.total,
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The median of each figure of several runs; the errors of all of them. */
export const mid = (rs: Result[]): Result => ({
  rps: median(rs.map((r) => r.rps)),
  p50: median(rs.map((r) => r.p50)),
  p95: median(rs.map((r) => r.p95)),
  p99: median(rs.map((r) => r.p99)),
  non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
  cpu: rs.some((r) => r.cpu === null) ? null : median(rs.map((r) => r.cpu!)),
});

/** Runs every measure REPEATS times, interleaved (each round once through all of them); every run of each. */
export async function repeated(runs: readonly (() => Promise<Result>)[]): Promise<Result[][]> {
  const results = runs.map(() => [] as Result[]);
  for (let i = 0; i < REPEATS; i++) for (const [j, run] of runs.entries()) results[j]!.push(await run());
  return results;
}

/** The median of each measure's runs (see `repeated`). */
export const interleaved = async (runs: readonly (() => Promise<Result>)[]) => (await repeated(runs)).map(mid);
