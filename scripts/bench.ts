/**
 * `npm run bench`: List Tickets (filtered, searched, ordered) at 1,000 and at 100,000 tickets,
 * List Orders and Checkout at 1,000 and at 100,000 orders, List Items, the meals reads (cached, 304
 * and uncached), the meals Place Order, emit() and webhook delivery, against a bare Hono JSON route (and one bare KV read)
 * served by the same runtime in the same run. Both Workers run on wrangler's local runtime (workerd
 * through Miniflare, as deployed: bench/serve.ts) on this machine, with their own local state in .bench/; load comes from autocannon. Writes the table to
 * docs/benchmarks.md. `npm run bench -- --only webhooks` (or `orders`, `subscriptions`, `meal-orders`) runs one
 * part alone.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomToken, sha256Hex } from "../src/core/crypto";
import { TOKEN_PREFIX } from "../src/core/permissions";
import { benchWranglerToml } from "./bench/bundle";
import { CONNECTIONS, DURATION_S, interleaved, load, mid, pct, REPEATS, type Result } from "./bench/load";
import { type MealStore, mealOrderRows, mealOrderRuns, mealOrdersSection, seedMealStore } from "./bench/meal-orders";
import { type OrderRow, orderRows, orderRuns, ordersSection, seedOrderStores } from "./bench/orders";
import { measureReads, readsSection, writeBenchEntry } from "./bench/reads";
import { runRenewals, seedSubscriptions, subscriptionsConfig, subscriptionsSection } from "./bench/subscriptions";
import { measureWebhooks, replaceSection, sectionOf, webhooksSection } from "./bench/webhooks";
import { executeLocal, lit } from "./d1";

const STATE = ".bench/state";
/** Ports of the API and the bare baseline (another checkout's bench can run beside this one on others). */
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8788);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 8789);
const BARE_ASSETS_PORT = Number(process.env.BENCH_BARE_ASSETS_PORT ?? 8790);
process.env.D1_PERSIST_TO = STATE;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const started = Date.now();
const log = (m: string) => process.stderr.write(`bench: [${Math.round((Date.now() - started) / 1000)} s] ${m}\n`);

function run(cmd: string, args: string[]) {
  execFileSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"], env });
}

async function serve(args: string[], port: number): Promise<ChildProcess> {
  // A server still answering on the port (one being stopped) is not the one started here.
  const free = Date.now() + 30_000;
  while (
    await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    )
  ) {
    if (Date.now() > free) throw new Error(`port ${port} is taken by another server`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // On wrangler's runtime as deployed, without the development server in front (bench/serve.ts says why).
  // Its output (the runtime's and the Worker's log lines) is kept in .bench/serve-PORT.log.
  const out = openSync(`.bench/serve-${port}.log`, "a");
  const child = spawn("npx", ["tsx", "scripts/bench/serve.ts", ...args, "--port", String(port), "--ip", "127.0.0.1"], {
    stdio: ["ignore", out, out],
    env,
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`the Worker on ${port} did not start (see .bench/serve-${port}.log)`);
}

/**
 * Adds tickets `from`..`to` for app 1, generated inside SQLite (one statement). Customers are
 * families of about 25 tickets each, as in a store where a customer's tickets do not grow with
 * the store: a search for one family finds a few dozen tickets at any size.
 */
function growTickets(from: number, to: number) {
  const families = Math.max(1, Math.round((to - from + 1) / 25));
  executeLocal(`INSERT INTO tickets (app_id, invoice_item_id, item_id, name_en, name_ar, status, total_amount_minor, date, time,
      customer_name, customer_email, customer_phone, token)
    WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
    SELECT 1, 100000 + i, item, CASE item % 3 WHEN 0 THEN 'Kabsa class' WHEN 1 THEN 'Museum day pass' ELSE 'Desert safari' END,
      CASE item % 3 WHEN 0 THEN 'درس الكبسة' WHEN 1 THEN 'تذكرة المتحف' ELSE 'رحلة صحراوية' END,
      CASE abs(random()) % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'confirmed' WHEN 2 THEN 'checked_in' ELSE 'cancelled' END,
      5000 + (abs(random()) % 40) * 500,
      date('2026-12-01', '+' || (abs(random()) % 30) || ' days'),
      printf('%02d:00:00', 9 + abs(random()) % 12),
      'Guest ' || i || ' Family' || printf('%04d', i % ${families}),
      'guest' || i || '@example.com',
      '+9665' || printf('%08d', i),
      'tkt_bench_' || i
    FROM (SELECT i, 1 + abs(random()) % 5 AS item FROM n);`);
}

/**
 * One run at a time in a checkout: a second run would remove the first one's .bench/ (its database
 * and its servers' builds) from under it. The running one's pid is kept in .bench/pid.
 */
function claimBenchDir() {
  try {
    const pid = Number(readFileSync(".bench/pid", "utf8"));
    if (!Number.isSafeInteger(pid) || pid <= 0) throw Object.assign(new Error("no pid"), { code: "ENOENT" });
    process.kill(pid, 0); // throws ESRCH when no such process is running
    throw new Error(`another npm run bench (pid ${pid}) is using .bench/; run this one after it ends`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ESRCH") throw error;
  }
  rmSync(".bench", { recursive: true, force: true });
  mkdirSync(".bench", { recursive: true });
  writeFileSync(".bench/pid", String(process.pid));
}

/**
 * The API's own wrangler.toml, with the per-token rate limit lifted: the load comes from one
 * token, and the benchmark measures the list, not the limiter.
 */
function benchConfig(): string {
  mkdirSync(".bench", { recursive: true });
  // The Worker itself, plus the variants the reads section measures (bench/reads.ts).
  const text = benchWranglerToml(writeBenchEntry(".bench")).replace(
    /simple = \{ limit = \d+/,
    "simple = { limit = 100000000",
  );
  writeFileSync(".bench/wrangler.toml", text);
  return ".bench/wrangler.toml";
}

/** The List Tickets queries measured: each filters, searches and orders. */
const SCENARIOS = [
  {
    name: "filtered, searched, ordered: pending from a date on, one customer family, newest date first",
    query: "status=pending&date__gte=2026-12-10&search=Family0017&order_by=-date&page_size=20",
  },
  {
    name: "door list (no search): one day, pending, by time",
    query: "date=2026-12-15&status=pending&order_by=time&page_size=20",
  },
] as const;

/** The meals reads measured: each cached (a KV hit), revalidated (304) and uncached (a miss that reads D1 and fills KV). */
const MEALS = [
  { name: "Plan Details: Keto week (7 days x 3 categories x 3 options)", path: "/public-api/v1/plans/2/" },
  { name: "Plan Details: Balanced 30 (30 days x 5 categories x 10 options)", path: "/public-api/v1/plans/1/" },
  { name: "Restaurant Menu: Green Bowl (5 categories x 10 products)", path: "/api/v1/restaurants/menus/1/" },
] as const;
const MEALS_MODES = ["cached", "304", "uncached"] as const;
type MealsMode = (typeof MEALS_MODES)[number];

/** Baselines and every meals scenario in each mode, REPEATS times interleaved; the median of each. */
async function measureMeals(api: string, bare: { route: string; kv: string }) {
  // As browsers and mobile HTTP clients send it: the cached bodies are served gzipped as stored.
  const headers = { "app-id": "1", "accept-encoding": "gzip, deflate, br" };
  const etags: string[] = [];
  const sizes: number[] = [];
  for (const m of MEALS) {
    const res = await fetch(api + m.path, { headers });
    if (res.status !== 200) throw new Error(`${m.path}: ${res.status} ${await res.text()}`);
    // The size as sent: fetch decodes the body, Content-Length is the gzipped one.
    const sent = res.headers.get("content-length");
    const decoded = (await res.arrayBuffer()).byteLength;
    sizes.push(sent === null ? decoded : Number(sent));
    etags.push(res.headers.get("etag")!);
  }
  const runs = {
    bare: [] as Result[],
    kv: [] as Result[],
    notFound: [] as Result[],
    /** One KV read of as many bytes as each read sends: what a cached read of that size cannot beat. */
    kvOfSize: MEALS.map(() => [] as Result[]),
    meals: MEALS.map(
      () => Object.fromEntries(MEALS_MODES.map((mode) => [mode, [] as Result[]])) as Record<MealsMode, Result[]>,
    ),
  };
  for (let i = 0; i < REPEATS; i++) {
    runs.bare.push(await load(bare.route));
    runs.kv.push(await load(bare.kv));
    // The API's own middleware and runtime, without I/O: an unknown path answered 404.
    runs.notFound.push(await load(`${api}/api/v1/no-such-path/`, { headers, expect: 404 }));
    for (const [j, m] of MEALS.entries()) {
      runs.kvOfSize[j]!.push(await load(`${bare.kv}/${sizes[j]}`));
      runs.meals[j]!.cached.push(await load(api + m.path, { headers }));
      runs.meals[j]!["304"].push(
        await load(api + m.path, { headers: { ...headers, "if-none-match": etags[j]! }, expect: 304 }),
      );
      runs.meals[j]!.uncached.push(await load(api + m.path, { headers, unique: true }));
    }
  }
  return {
    bare: mid(runs.bare),
    kv: mid(runs.kv),
    notFound: mid(runs.notFound),
    meals: runs.meals.map((r, j) => ({
      ...MEALS[j]!,
      bytes: sizes[j]!,
      kvOfSize: mid(runs.kvOfSize[j]!),
      cached: mid(r.cached),
      notModified: mid(r["304"]),
      uncached: mid(r.uncached),
    })),
  };
}

/**
 * Runs the baseline, every list and the `extra` measures REPEATS times, interleaved, and keeps the
 * median of each figure.
 */
async function measure(
  urls: { bare: string; lists: string[] },
  headers: Record<string, string>,
  extra: (() => Promise<Result>)[] = [],
) {
  // The D1 floor (bench/reads.ts) beside the bare route: what a D1-backed read cannot beat.
  const [bare, floor, ...rest] = await interleaved([
    () => load(urls.bare),
    () => load(`${urls.bare}-d1`),
    ...urls.lists.map((url) => () => load(url, { headers })),
    ...extra,
  ]);
  return { bare: bare!, floor: floor!, lists: rest.slice(0, urls.lists.length), extra: rest.slice(urls.lists.length) };
}

/** The meals reads' section (see measureMeals). */
function mealsSection(meals: Awaited<ReturnType<typeof measureMeals>>): string[] {
  const fmt = (n: number) => (Math.round(n * 100) / 100).toString();
  return [
    "## Meals reads: KV cache",
    "",
    "Public reads (only `app-id`), served cache-aside from KV, requested with " +
      "`Accept-Encoding: gzip, deflate, br` as clients send it (bytes are as sent, gzipped).",
    "*cached*: the same URL again (the tenant's generation held in the isolate for at most a second, " +
      "the body from the isolate's memory).",
    "*304*: the same, with `If-None-Match` of the current ETag. *uncached*: each request with " +
      "its own query parameter, so each one misses, reads D1",
    "(one batch) and fills KV. Baselines: the bare Hono route, the same route reading one " +
      "small KV value, and the API's own 404",
    "(all its middleware, no I/O), which together split what a cached read costs.",
    "",
    "| read | bytes sent | mode | req/s | p50 | p99 | req/s vs bare | p50 vs bare | errors |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    `| bare Hono route (baseline) | 41 | - | ${fmt(meals.bare.rps)} | ${meals.bare.p50} | ${meals.bare.p99} | 1 | 1 | ${meals.bare.non2xx} |`,
    `| bare Hono route + one KV read | 41 | - | ${fmt(meals.kv.rps)} | ${meals.kv.p50} | ${meals.kv.p99} | ${fmt(meals.kv.rps / meals.bare.rps)} | ${fmt(meals.kv.p50 / Math.max(meals.bare.p50, 0.001))} | ${meals.kv.non2xx} |`,
    `| the API's 404 for an unknown path (its middleware and runtime, no I/O) | - | - | ${fmt(meals.notFound.rps)} | ${meals.notFound.p50} | ${meals.notFound.p99} | ${fmt(meals.notFound.rps / meals.bare.rps)} | ${fmt(meals.notFound.p50 / Math.max(meals.bare.p50, 0.001))} | ${meals.notFound.non2xx} |`,
    ...meals.meals.flatMap((m) =>
      (
        [
          ["cached", m.cached],
          ["304", m.notModified],
          ["uncached", m.uncached],
        ] as const
      ).map(
        ([mode, r]) =>
          `| ${m.name} | ${m.bytes.toLocaleString("en")} | ${mode} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${fmt(r.rps / meals.bare.rps)} | ${fmt(r.p50 / Math.max(meals.bare.p50, 0.001))} | ${r.non2xx} |`,
      ),
    ),
    "",
    "Goals: a cached read at least 0.9 of the req/s of the bare route reading one KV value of as many bytes as the read sends (what",
    "a cached read cannot beat: for small bodies, about the KV floor), a 304 at least 0.9 of the KV floor's, cached p50 at most a",
    "third of uncached p50. Measured:",
    ...meals.meals.map((m) => {
      const cached = m.cached.rps / meals.kv.rps;
      const sized = m.cached.rps / m.kvOfSize.rps;
      const nm = m.notModified.rps / meals.kv.rps;
      const third = m.cached.p50 / Math.max(m.uncached.p50, 0.001);
      const met = (ok: boolean) => (ok ? "met" : "not met");
      return `- ${m.name}: cached **${fmt(cached)}** of the KV floor, **${fmt(sized)}** of one KV read of its ${m.bytes.toLocaleString("en")} bytes (${fmt(m.kvOfSize.rps)} req/s; ${met(sized >= 0.9)}), 304 **${fmt(nm)}** (${met(nm >= 0.9)}), cached p50 / uncached p50 **${fmt(third)}** (${met(third <= 1 / 3)})`;
    }),
    "",
    `Where a cached read's cost goes: the API answering a 404 with no I/O at all runs at ${fmt(meals.notFound.rps / meals.bare.rps)} of the bare route`,
    "(its middleware, router and validation, and the 405 check that only a 404 pays: it matches the path against every route), and one KV read",
    `costs the bare route ${fmt(1 - meals.kv.rps / meals.bare.rps)} of its rate. A cached read reads nothing from KV while the tenant's generation is held in the isolate`,
    "(at most a second, src/core/cache.ts) and its body is in the isolate's memory, gzipped: what is left is the app's own work (see",
    "Reads at the floor: what each middleware costs).",
    "",
  ];
}

const EMIT_RUNS = Number(process.env.BENCH_EMIT_RUNS ?? 300);

/** Times the same ticket update written alone, with emit(), and with emit() and its publish awaited. */
async function measureEmit() {
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ DB: unknown; EVENTS: unknown }>({
    configPath: "wrangler.toml",
    persist: { path: `${STATE}/v3` },
  });
  // The Worker's modules are typed for workerd: imported by a non-literal path (see test/node).
  const paths = {
    client: "../src/db/client",
    outbox: "../src/core/events/outbox",
    tables: "../src/modules/tickets/tables",
    orm: "drizzle-orm",
  };
  const { createDb } = await import(paths.client);
  const { emit, newEvent } = await import(paths.outbox);
  const { tickets } = await import(paths.tables);
  const { eq } = await import(paths.orm);
  const db = createDb(proxy.env.DB);
  const update = (i: number) =>
    db
      .update(tickets)
      .set({ modifiedAt: new Date(i).toISOString() })
      .where(eq(tickets.id, 1));
  // Events of a store with no webhooks (app 99), so that nothing is delivered later.
  const event = () => newEvent(99, "ticket.updated", { id: 1 });
  let deferred: Promise<unknown>[] = [];
  const sink = { queue: proxy.env.EVENTS, defer: (p: Promise<unknown>) => void deferred.push(p) };
  const variants: { name: string; run: (i: number) => Promise<unknown> }[] = [
    { name: "UPDATE alone (baseline)", run: (i) => db.batch([update(i)]) },
    { name: "UPDATE + emit(): what a request waits for", run: (i) => emit(db, sink, [update(i)], [event()]) },
    {
      name: "UPDATE + emit() + the queue send it defers",
      run: async (i) => {
        await emit(db, sink, [update(i)], [event()]);
        await Promise.all(deferred);
      },
    },
  ];
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < EMIT_RUNS; i++) {
    for (const [j, v] of variants.entries()) {
      const t = performance.now();
      await v.run(i);
      samples[j]!.push(performance.now() - t);
      // Deferred work finishes between runs, outside the timings it does not belong to.
      await Promise.all(deferred);
      deferred = [];
    }
  }
  await proxy.dispose();
  return variants.map((v, j) => ({ name: v.name, p50: pct(samples[j]!, 0.5), p99: pct(samples[j]!, 0.99) }));
}

/** The secrets of this run's API (.dev.vars is not read: the config is in .bench/): customer tokens are signed with the first. */
const CUSTOMER_JWT_SECRET = randomBytes(32).toString("base64url");

/**
 * The API, with webhooks allowed to this machine and retried after 1, 2 and 3 s,
 * and its secrets for this run.
 */
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

/** Stops a server started by `serve` (its whole process group) and waits for it to exit. */
async function stop(child: ChildProcess) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

/** The API served with `args`, which can be restarted (see orderRuns). */
async function apiServer(args: string[]) {
  let child = await serve(args, API_PORT);
  return {
    stop: () => stop(child),
    restart: async () => {
      await stop(child);
      child = await serve(args, API_PORT);
    },
  };
}

/** A run's own database in .bench/: migrated, with the demo seed. */
function freshDatabase() {
  claimBenchDir();
  log("migrating and seeding a fresh local database in .bench/");
  run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE]);
  run("npx", ["tsx", "scripts/seed.ts"]);
}

/**
 * The bare Worker behind the API's static assets (what the local runtime's assets matching costs a
 * request), served while `fn` runs.
 */
async function withBareBehindAssets<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await serve(["-c", "scripts/bench/wrangler.bare-assets.toml"], BARE_ASSETS_PORT);
  const kill = () => server.pid && process.kill(-server.pid, "SIGTERM");
  process.on("exit", kill);
  try {
    return await fn(`http://127.0.0.1:${BARE_ASSETS_PORT}`);
  } finally {
    process.off("exit", kill);
    await stop(server);
  }
}

/** The API (the bench's entry) and the bare baseline, both stopped when the run ends however it ends. */
async function apiAndBare() {
  const apiArgs = ["-c", benchConfig(), ...API_ARGS];
  const api = await apiServer(apiArgs);
  const bare = await serve(["-c", "scripts/bench/wrangler.bare.toml"], BARE_PORT);
  const stopAll = () => Promise.all([api.stop(), stop(bare)]);
  process.on("exit", () => void stopAll());
  return { api, apiArgs, stopAll };
}

/** Reads at the floor (bench/reads.ts), against the API served with `apiArgs` and the bare Worker at `bareUrl`. */
function readsAtFloor(bareUrl: string, apiArgs: string[]) {
  return withBareBehindAssets((behindAssets) =>
    measureReads(`http://127.0.0.1:${API_PORT}`, bareUrl, {
      keto: MEALS[0].path,
      balanced30: MEALS[1].path,
      env,
      behindAssets,
      serveArgs: apiArgs,
    }),
  );
}

/**
 * `npm run bench -- --only orders`: only List Orders and Checkout, on a fresh database; the other
 * sections of docs/benchmarks.md are kept as they are.
 */
async function ordersOnly() {
  freshDatabase();
  const stores = await seedOrderStores(log);
  const { api, stopAll } = await apiAndBare();
  try {
    const rows: OrderRow[] = [];
    for (const s of stores) {
      const runs = await orderRuns(`http://127.0.0.1:${API_PORT}`, s, CUSTOMER_JWT_SECRET, api.restart, log);
      log(`measuring at ${s.orders} orders (${REPEATS} interleaved runs of ${DURATION_S} s each)`);
      const [b, ...results] = await interleaved([() => load(`http://127.0.0.1:${BARE_PORT}/bare-d1`), ...runs]);
      rows.push(...orderRows(s, results, b!));
    }
    const section = ordersSection(rows, new Date().toISOString().slice(0, 10));
    const doc = readFileSync("docs/benchmarks.md", "utf8");
    writeFileSync("docs/benchmarks.md", replaceSection(doc, section, "## List Items"));
    process.stdout.write(section.join("\n"));
  } finally {
    await stopAll();
  }
}

/** Place Order of both plans (bench/meal-orders.ts) against the D1 floor, REPEATS times interleaved. */
async function measureMealOrders(store: MealStore) {
  const m = await mealOrderRuns(`http://127.0.0.1:${API_PORT}`, store, CUSTOMER_JWT_SECRET, log);
  log(`measuring meals Place Order (${REPEATS} interleaved runs of ${DURATION_S} s each)`);
  const [floor, ...results] = await interleaved([() => load(`http://127.0.0.1:${BARE_PORT}/bare-d1`), ...m.runs]);
  return mealOrderRows(m.placements, results, floor!);
}

/**
 * `npm run bench -- --only meal-orders`: only the meals Place Order, on a fresh database; the other
 * sections of docs/benchmarks.md are kept as they are.
 */
async function mealOrdersOnly() {
  freshDatabase();
  const store = seedMealStore(log);
  const { stopAll } = await apiAndBare();
  try {
    const section = mealOrdersSection(await measureMealOrders(store), new Date().toISOString().slice(0, 10));
    const doc = readFileSync("docs/benchmarks.md", "utf8");
    writeFileSync("docs/benchmarks.md", replaceSection(doc, section, "## Reads at the floor"));
    process.stdout.write(section.join("\n"));
  } finally {
    await stopAll();
  }
}

/**
 * `npm run bench -- --only webhooks`: only the webhook measures, on a fresh database; the other
 * sections of docs/benchmarks.md are kept as they are.
 */
async function webhooksOnly() {
  freshDatabase();
  const api = await serve(["-c", benchConfig(), ...API_ARGS], API_PORT);
  process.on("exit", () => api.pid && process.kill(-api.pid, "SIGTERM"));
  try {
    const figures = await measureWebhooks(`http://127.0.0.1:${API_PORT}`);
    const section = webhooksSection(figures);
    // The delivery figures moved from "Events and webhooks" to their own section.
    const doc = readFileSync("docs/benchmarks.md", "utf8").replace(
      /\n\nConsumer throughput:[\s\S]*?(?=\nRun on )/,
      "\n",
    );
    writeFileSync("docs/benchmarks.md", replaceSection(doc, section));
    process.stdout.write(section.join("\n"));
  } finally {
    if (api.pid) process.kill(-api.pid, "SIGTERM");
  }
}

/**
 * `npm run bench -- --only subscriptions`: a renewal run of 10,000 due subscriptions (bench/subscriptions.ts),
 * on a fresh database; the other sections of docs/benchmarks.md are kept as they are.
 */
async function subscriptionsOnly() {
  freshDatabase();
  const seeded = seedSubscriptions(log);
  const api = await apiServer(["-c", subscriptionsConfig(".bench"), ...API_ARGS]);
  process.on("exit", () => void api.stop());
  try {
    const figures = await runRenewals(`http://127.0.0.1:${API_PORT}`, seeded, api, log);
    const section = subscriptionsSection(figures, new Date().toISOString().slice(0, 10));
    writeFileSync("docs/benchmarks.md", replaceSection(readFileSync("docs/benchmarks.md", "utf8"), section));
    process.stdout.write(section.join("\n"));
  } finally {
    await api.stop();
  }
}

/**
 * `npm run bench -- --only reads`: only the meals reads and the reads at the floor (floors, meals
 * lists, middleware, bundle and start-up), on a fresh database; the other sections are kept.
 */
async function readsOnly() {
  freshDatabase();
  const { apiArgs, stopAll } = await apiAndBare();
  try {
    const bareUrl = `http://127.0.0.1:${BARE_PORT}`;
    log("measuring the meals reads: cached, 304 and uncached");
    const meals = await measureMeals(`http://127.0.0.1:${API_PORT}`, {
      route: `${bareUrl}/bare`,
      kv: `${bareUrl}/bare-kv`,
    });
    log("measuring reads at the floor: meals lists, Plan Details 30 days, middleware, bundle and start-up");
    const reads = await readsAtFloor(bareUrl, apiArgs);
    let doc = readFileSync("docs/benchmarks.md", "utf8");
    doc = replaceSection(doc, mealsSection(meals), "## Reads at the floor");
    doc = replaceSection(doc, readsSection(reads), "## Events and webhooks");
    writeFileSync("docs/benchmarks.md", doc);
    process.stdout.write([...mealsSection(meals), ...readsSection(reads)].join("\n"));
  } finally {
    await stopAll();
  }
}

const YEAR_HEADING = "## A year of subscriptions";
const YEAR_SUBSCRIPTIONS = Number(process.env.BENCH_YEAR_SUBSCRIPTIONS ?? 1_000);

/**
 * `npm run bench -- --only year`: the suite's year of monthly subscriptions
 * (test/subscriptions/year.test.ts) played at its full size: random pauses, usage and price changes,
 * the cron twice a day and crashes between claim and payment, checked against a model of the rules.
 */
async function yearOnly() {
  log(`playing a year of ${YEAR_SUBSCRIPTIONS} subscriptions (test/subscriptions/year.test.ts)`);
  const t = performance.now();
  let passed = true;
  try {
    execFileSync("npx", ["vitest", "run", "--project", "worker", "test/subscriptions/year.test.ts"], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...env, SIM_SUBSCRIPTIONS: String(YEAR_SUBSCRIPTIONS) },
    });
  } catch {
    passed = false;
  }
  const s = (performance.now() - t) / 1000;
  const section = [
    YEAR_HEADING,
    "",
    `Measured on ${new Date().toISOString().slice(0, 10)}.`,
    "",
    `test/subscriptions/year.test.ts with ${YEAR_SUBSCRIPTIONS.toLocaleString("en")} monthly subscriptions (the suite plays 60): ` +
      "a year played day by day on the one clock, with random pauses and resumes, usage, price changes for the next period, " +
      "the cron run twice a day and a crash injected between the claim of a period and its order; it passes when the store " +
      "holds exactly the renewals a model of the rules predicts, each period charged once, one event per change, each sent to the " +
      "events queue once (the test's queues keep what is sent: the local Queues broker holds about 10,000 messages in flight, " +
      "fewer than the year's events).",
    "",
    `Result: **${passed ? "passed" : "failed"}**, in ${Math.round(s)} s (vitest in workerd, local D1, this machine).`,
    "",
  ];
  writeFileSync("docs/benchmarks.md", replaceSection(readFileSync("docs/benchmarks.md", "utf8"), section));
  process.stdout.write(section.join("\n"));
  if (!passed) process.exitCode = 1;
}

async function main() {
  freshDatabase();
  const token = randomToken(TOKEN_PREFIX);
  executeLocal(`INSERT INTO merchant_api_tokens (app_id, name, token_hash, token_prefix, permissions, created_at)
    VALUES (1, 'bench', ${lit(await sha256Hex(token))}, ${lit(token.slice(0, 10))}, '["can_read_order","can_write_order","can_read_item","can_update_app_config","can_retrieve_app_config"]', ${lit(new Date().toISOString())});`);
  const orderStores = await seedOrderStores(log);
  const mealStore = seedMealStore(log);

  log("measuring what emitting an event adds to a write (real emit(), local D1 in this process)");
  const emitRows = await measureEmit();

  const servers: { stop: () => Promise<void> }[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop()));
  process.on("exit", () => void stopAll());
  try {
    log("starting the API and the bare baseline");
    const apiArgs = ["-c", benchConfig(), ...API_ARGS];
    const api = await apiServer(apiArgs);
    servers.push(api);
    const bare = await serve(["-c", "scripts/bench/wrangler.bare.toml"], BARE_PORT);
    servers.push({ stop: () => stop(bare) });
    const headers = { authorization: `Bearer ${token}`, "app-id": "1" };
    const listUrls = SCENARIOS.map(
      (sc) => `http://127.0.0.1:${API_PORT}/order/v1/merchant/fulfillments/tickets/?${sc.query}`,
    );
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/bare`;

    type Row = { scenario: string; tickets: number; matched: number; r: Result; bare: Result; floor: Result };
    const rows: Row[] = [];
    const orders: OrderRow[] = [];
    let current = 24; // tickets of app 1 in the demo seed
    for (const total of [1_000, 100_000]) {
      log(`growing app 1 to ${total} tickets`);
      growTickets(current + 1, total);
      current = total;
      const matched: number[] = [];
      for (const url of listUrls) {
        const check = await fetch(url, { headers });
        if (!check.ok) throw new Error(`list answered ${check.status}: ${await check.text()}`);
        matched.push(((await check.json()) as { count: number }).count);
      }
      // List Orders and Checkout in the store of as many orders, in the same interleaved runs.
      const store = orderStores.find((s) => s.orders === total)!;
      const orderMeasures = await orderRuns(
        `http://127.0.0.1:${API_PORT}`,
        store,
        CUSTOMER_JWT_SECRET,
        api.restart,
        log,
      );
      log(`measuring at ${total} tickets and ${total} orders (${REPEATS} interleaved runs of ${DURATION_S} s each)`);
      const m = await measure({ bare: bareUrl, lists: listUrls }, headers, orderMeasures);
      for (const [j, sc] of SCENARIOS.entries()) {
        rows.push({
          scenario: sc.name,
          tickets: total,
          matched: matched[j]!,
          r: m.lists[j]!,
          bare: m.bare,
          floor: m.floor,
        });
      }
      orders.push(...orderRows(store, m.extra, m.floor));
    }
    // The local runtime has run out of heap later in the run after serving many List Orders pages
    // (about 70 KB each): the rest starts from a fresh API.
    log("restarting the API");
    await api.restart();

    log("growing the catalogue to 10,000 items and measuring List Items");
    executeLocal(`INSERT INTO items (app_id, type, service_type, sku, price_minor, name_en, name_ar, stock_qty, ordering)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
      SELECT 1, CASE i % 3 WHEN 0 THEN 'product' WHEN 1 THEN 'service' ELSE 'ticket' END, 'pickup', 'BENCH-' || i, 1000 + i % 500,
        'Bench item ' || i, 'صنف ' || i, i % 50, i FROM n;
      INSERT INTO item_modifier_categories (app_id, item_id, category_id) SELECT 1, id, 1 FROM items WHERE sku LIKE 'BENCH-%' AND id % 2 = 0;
      INSERT INTO item_category_links (app_id, item_id, category_id) SELECT 1, id, 1 FROM items WHERE sku LIKE 'BENCH-%';`);
    const itemsUrl = `http://127.0.0.1:${API_PORT}/order/v1/merchant/items/?type=product&order_by=-price&page_size=20`;
    const itemRun = await measure({ bare: bareUrl, lists: [itemsUrl] }, headers);
    const itemRow = { r: itemRun.lists[0]!, bare: itemRun.floor };

    log("measuring the meals reads: cached, 304 and uncached");
    const meals = await measureMeals(`http://127.0.0.1:${API_PORT}`, {
      route: bareUrl,
      kv: `http://127.0.0.1:${BARE_PORT}/bare-kv`,
    });

    log("measuring reads at the floor: meals lists, Plan Details 30 days, middleware, bundle and start-up");
    const reads = await readsAtFloor(`http://127.0.0.1:${BARE_PORT}`, apiArgs);

    const placeOrder = await measureMealOrders(mealStore);

    const webhooks = await measureWebhooks(`http://127.0.0.1:${API_PORT}`);

    const fmt = (n: number) => (Math.round(n * 100) / 100).toString();
    const growth = SCENARIOS.map((sc) => {
      const [small, large] = rows.filter((r) => r.scenario === sc.name) as [Row, Row];
      const g = large.r.p50 / Math.max(small.r.p50, 0.001);
      return `- ${sc.name}: **${fmt(g)}x** (${g <= 1.5 ? "met" : "not met"})`;
    });
    const lines = [
      "# Benchmarks",
      "",
      "Written by `npm run bench` (do not edit by hand). The API and a bare Hono JSON route " +
        "(the baseline) run on the runtime `wrangler dev` uses",
      "(workerd through Miniflare, with local D1, KV and Queues), as the bundle `wrangler deploy` builds, without what `wrangler dev` puts",
      "in front (a proxy Worker that cut a bare route's rate to a third, and the parsing of every log line: scripts/bench/serve.ts)",
      "and without the static assets' matching that the local runtime runs before the API (Reads at the floor says why),",
      `on the same machine in the same run; load from autocannon, ${CONNECTIONS} connections, ${DURATION_S} s a run`,
      `after a warm-up, ${REPEATS} interleaved runs a scenario, median of each figure. Latencies in ms. Absolute numbers depend on the`,
      "machine and on local D1's overhead per statement; the goals are set on the ratios.",
      "",
      "## List Tickets",
      "",
      ...SCENARIOS.map((sc) => `- ${sc.name}: \`GET /order/v1/merchant/fulfillments/tickets/?${sc.query}\``),
      "",
      "Against the D1 floor of the same runs (the bare route doing one D1 round trip: the count and 20 rows as JSON; see",
      "Reads at the floor). A merchant list is two round trips: its token's lookup, then the list (count, page and every",
      "ticket's full item in one statement).",
      "",
      "| scenario | tickets in store | matching | req/s | p50 | p99 | D1 floor req/s | floor p50 | " +
        "req/s vs floor | p50 vs floor | bare req/s | errors |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        ({ scenario, tickets, matched, r, bare, floor }) =>
          `| ${scenario} | ${tickets.toLocaleString("en")} | ${matched} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${fmt(floor.rps)} | ${floor.p50} | ${fmt(r.rps / floor.rps)} | ${fmt(r.p50 / Math.max(floor.p50, 0.001))} | ${fmt(bare.rps)} | ${r.non2xx} |`,
      ),
      "",
      "Goal: p50 at 100,000 tickets within 1.5x of its p50 at 1,000. Measured:",
      ...growth,
      "",
      "Goal: at 1,000 and 100,000, p50 within 1.5x of the D1 floor's and req/s at least 0.6 of it. Measured:",
      ...rows.map(({ scenario, tickets, r, floor }) => {
        const p = r.p50 / Math.max(floor.p50, 0.001);
        const q = r.rps / floor.rps;
        return `- ${scenario}, ${tickets.toLocaleString("en")}: p50 **${fmt(p)}x**, req/s **${fmt(q)}** (${p <= 1.5 && q >= 0.6 ? "met" : "not met"})`;
      }),
      "",
      ...ordersSection(orders),
      "## List Items",
      "",
      "10,000 items in the store (half offering a modifier category, all in a category): `GET " +
        "/order/v1/merchant/items/?type=product&order_by=-price&page_size=20`, each result the " +
        "full Item object (variants, modifiers, images, discount, stock).",
      "",
      "Against the D1 floor of the same runs; the token's lookup, then one statement for the count, the page and every nested level.",
      "",
      "| scenario | req/s | p50 | p99 | D1 floor req/s | floor p50 | req/s vs floor | p50 vs floor | errors |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      `| List Items, 10,000 items | ${fmt(itemRow.r.rps)} | ${itemRow.r.p50} | ${itemRow.r.p99} | ${fmt(itemRow.bare.rps)} | ${itemRow.bare.p50} | ${fmt(itemRow.r.rps / itemRow.bare.rps)} | ${fmt(itemRow.r.p50 / Math.max(itemRow.bare.p50, 0.001))} | ${itemRow.r.non2xx} |`,
      "",
      `Goal: p50 within 1.5x of the D1 floor's, req/s at least 0.6 of it: p50 **${fmt(itemRow.r.p50 / Math.max(itemRow.bare.p50, 0.001))}x**, req/s **${fmt(itemRow.r.rps / itemRow.bare.rps)}** (${itemRow.r.p50 / Math.max(itemRow.bare.p50, 0.001) <= 1.5 && itemRow.r.rps / itemRow.bare.rps >= 0.6 ? "met" : "not met"}).`,
      "",
      ...mealsSection(meals),
      ...mealOrdersSection(placeOrder),
      ...readsSection(reads),
      "## Events and webhooks",
      "",
      `What emitting an event adds to a write: the real \`emit()\` against local D1 (wrangler's platform proxy, in the bench process), ${EMIT_RUNS} runs each, interleaved; ms.`,
      "The baseline is the same UPDATE in a batch of its own; `emit()` adds the outbox row to " +
        "that batch (one transaction) and sends the event to the queue after the response.",
      "",
      "| write | p50 | p99 | p50 vs baseline |",
      "|---|---:|---:|---:|",
      ...emitRows.map((r) => `| ${r.name} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.p50 / emitRows[0]!.p50)} |`),
      "",
      ...webhooksSection(webhooks),
      `Run on ${new Date().toISOString().slice(0, 10)}.`,
      "",
    ];
    // The renewals are measured by `--only subscriptions` alone: their section is kept from the last one.
    // The renewals and the year of subscriptions are measured by their `--only` parts alone: their
    // sections are kept from the last ones.
    const previous = readFileSync("docs/benchmarks.md", "utf8");
    let doc = lines.join("\n");
    for (const heading of ["## Subscription renewals", YEAR_HEADING]) {
      const kept = sectionOf(previous, heading);
      if (kept) doc = replaceSection(doc, kept);
    }
    writeFileSync("docs/benchmarks.md", doc);
    process.stdout.write(doc);
  } finally {
    await stopAll();
  }
}

const only = process.argv.indexOf("--only");
const part = only >= 0 ? process.argv[only + 1] : undefined;
const parts: Record<string, () => Promise<void>> = {
  webhooks: webhooksOnly,
  orders: ordersOnly,
  subscriptions: subscriptionsOnly,
  "meal-orders": mealOrdersOnly,
  reads: readsOnly,
  year: yearOnly,
};
if (part !== undefined && !(part in parts)) throw new Error(`--only takes: ${Object.keys(parts).join(", ")}`);
await (part === undefined ? main() : parts[part]!());
process.exit(process.exitCode ?? 0);
