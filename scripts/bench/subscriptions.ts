/**
 * `--only subscriptions`: one renewal
 * run of BENCH_SUBSCRIPTIONS (10,000) due subscriptions in a store of its own, generated inside
 * SQLite. Nine in ten customers have a wallet that pays the renewal; one in ten has an empty one, so
 * that dunning (suspension with a retry day) runs too. The API's scheduled handler is triggered twice
 * through the bench entry's `/__bench/scan`, which runs it as the cron does (the cron running twice), and the run lasts until every job
 * it queued has been consumed and every due subscription is renewed or suspended.
 *
 * D1 statements are counted by the bench's own entry around the Worker (.bench/subscriptions-entry.ts):
 * the jobs queue's consumer gets a D1 binding that counts every statement prepared (each batched one
 * included) and every round trip (a batch, or a statement run alone). The scheduled scan is counted apart.
 */
import { writeFileSync } from "node:fs";
import { executeLocal, lit, queryLocal } from "../d1";
import { benchWranglerToml } from "./bundle";
import { writeD1Counter } from "./d1-counter";
import {
  BENCH_DIR,
  count,
  fmt,
  log,
  registerBenchStore,
  type Scenario,
  type Served,
  sendFresh,
  sleep,
  startApi,
} from "./harness";

const APP = 21;
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
/** Every EMPTY_EVERY-th customer has no cashback: their renewal fails and the subscription is suspended. */
const EMPTY_EVERY = 10;
const PRICE_MINOR = 10_000;
/** Give up waiting after this long; the section then reports the rate measured so far. */
const MAX_WAIT_MS = Number(process.env.BENCH_SUBSCRIPTIONS_WAIT_S ?? 1_800) * 1000;
/** A batch of 250 renewals takes about 4 s here; one over this was held up. */
const SLOW_BATCH_S = 60;

/** The Worker with counters around the jobs queue's D1 and the scheduled handler's JOBS, and a route that reads them. */
function writeSubscriptionsEntry(dir: string): string {
  writeFileSync(
    `${dir}/subscriptions-entry.ts`,
    `import worker from "../src/index";
import { type Counts, countedEnv } from "./${writeD1Counter(dir)}";

const counts = { statements: 0, roundTrips: 0, sent: 0, consumed: 0, batches: 0, retried: 0 };
/** The scans' own statements, apart from the consumer's. */
const scan: Counts = { statements: 0, roundTrips: 0 };
/** The jobs the scans sent, waiting for \`/__bench/jobs\` to hand them to the consumer. */
const waiting: { id: string; body: unknown; attempts: number }[] = [];
let sentIds = 0;
const MAX_ATTEMPTS = 6; // the jobs queue's max_retries (5) + 1
const BATCH = 10; // the jobs queue's max_batch_size

/** Hands the next batch of waiting jobs to the Worker's queue handler, as Queues would. */
async function consumeBatch(env: Env, ctx: ExecutionContext) {
  const taken = waiting.splice(0, BATCH);
  const settled = new Map<string, "ack" | "retry">();
  const messages = taken.map((m) => ({
    id: m.id,
    timestamp: new Date(),
    body: m.body,
    attempts: m.attempts,
    ack: () => void settled.set(m.id, "ack"),
    retry: () => void settled.set(m.id, "retry"),
  }));
  const batch = {
    queue: "commerce-jobs",
    messages,
    ackAll: () => messages.forEach((m) => m.ack()),
    retryAll: () => messages.forEach((m) => m.retry()),
  } as unknown as MessageBatch<never>;
  await worker.queue(batch, countedEnv(env, counts), ctx);
  for (const m of taken)
    if (settled.get(m.id) !== "ack") {
      counts.retried += 1;
      if (m.attempts < MAX_ATTEMPTS) waiting.push({ ...m, attempts: m.attempts + 1 });
    }
  counts.consumed += taken.length;
  counts.batches += 1;
}

/** The Worker's scheduled handler, its jobs kept here for /__bench/jobs instead of local Queues. */
function scheduledKeepingJobs(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  const keep = (body: unknown) => {
    counts.sent += 1;
    waiting.push({ id: String(++sentIds), body, attempts: 1 });
  };
  const JOBS = {
    send: async (body: unknown) => keep(body),
    sendBatch: async (msgs: Iterable<MessageSendRequest>) => {
      for (const m of msgs) keep(m.body);
    },
  } as unknown as Queue;
  return worker.scheduled(controller, countedEnv({ ...env, JOBS }, scan), ctx);
}

export default {
  ...worker,
  async fetch(request: Request, env: Env, ctx: ExecutionContext) {
    const url = new URL(request.url);
    // The cron's run, as the scheduled event would start it: the local runtime's own trigger
    // (/cdn-cgi/handler/scheduled) fails before the handler runs (DataCloneError on the controller).
    if (url.pathname === "/__bench/scan") {
      const controller = { cron: url.searchParams.get("cron") ?? "", scheduledTime: Date.now(), noRetry() {} };
      await scheduledKeepingJobs(controller as ScheduledController, env, ctx);
      return new Response("ok");
    }
    if (url.pathname === "/__bench/jobs") {
      if (waiting.length) await consumeBatch(env, ctx);
      return Response.json({ waiting: waiting.length });
    }
    if (url.pathname !== "/__bench/subscriptions") return worker.fetch(request, env, ctx);
    const app = Number(url.searchParams.get("app"));
    const day = url.searchParams.get("due") ?? "";
    const d1 = env.SHARD_1;
    const [statuses, overdue, pending] = await d1.batch([
      d1.prepare("SELECT status, count(*) AS n FROM subscriptions WHERE app_id = ? GROUP BY status").bind(app),
      d1.prepare(
        "SELECT count(*) AS n FROM subscriptions WHERE app_id = ? AND status IN ('active', 'trialing') AND next_billing_date <= ?",
      ).bind(app, day),
      d1.prepare("SELECT count(*) AS n FROM subscription_renewals WHERE app_id = ? AND status = 'pending'").bind(app),
    ]);
    return Response.json({
      counts: { ...counts, scanStatements: scan.statements },
      waiting: waiting.length,
      statuses: statuses!.results,
      overdue: (overdue!.results[0] as { n: number }).n,
      pendingClaims: (pending!.results[0] as { n: number }).n,
    });
  },
  // The jobs wait here for /__bench/jobs instead of local Queues (see runRenewals in bench/subscriptions.ts).
  scheduled: scheduledKeepingJobs,
};
`,
  );
  return "subscriptions-entry.ts";
}

/** The store: its settings, one plan item, one customer per subscription (most with a wallet), the due subscriptions. */
function storeSql(n: number, now: string, due: string): string {
  const A = APP;
  const firstCustomer = `(SELECT min(id) FROM customers WHERE app_id = ${A})`;
  return `
INSERT INTO apps (id, org_id, name_en, name_ar, created_at) VALUES (${A}, 1, 'Subscriptions bench', 'متجر قياس الاشتراكات', '${now}');
INSERT INTO store_settings (app_id, name_en, name_ar, modified_at) VALUES (${A}, 'Subscriptions bench', 'متجر قياس الاشتراكات', '${now}');
INSERT INTO items (app_id, type, service_type, sku, price_minor, name_en, name_ar, stock_qty, ordering, is_plan_enabled, plan_config)
  VALUES (${A}, 'product', 'pickup', 'SUBS-BENCH', ${PRICE_MINOR}, 'Weekly meal box', 'صندوق الوجبات', 100000000, 0, 1,
    '{"duration":1,"duration_unit":"month"}');
INSERT INTO customers (app_id, created_at, modified_at, country_code, mobile_number, username, name, email, joined_at, is_mobile_verified)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${n - 1})
  SELECT ${A}, '${now}', '${now}', '966', '96656' || printf('%07d', k), '056' || printf('%07d', k), 'Subscriber ' || k,
    'subscriber' || k || '@example.com', '${now}', 1 FROM n;
INSERT INTO wallet_entries (app_id, customer_id, kind, type, amount, balance_after, reason, created_at)
  SELECT ${A}, id, 'cashback', 'deposit', ${PRICE_MINOR * 100}, ${PRICE_MINOR * 100}, 'Bench', '${now}'
  FROM customers WHERE app_id = ${A} AND (id - ${firstCustomer}) % ${EMPTY_EVERY} <> 0;
INSERT INTO subscriptions (app_id, created_at, modified_at, customer_id, item_id, order_id, name_en, name_ar, status, quantity,
    unit_price_minor, currency, payment_provider, duration, duration_unit, start_date, current_period_start_date,
    current_period_end_date, next_billing_date, last_billing_date, activated_at)
  SELECT ${A}, '${now}', '${now}', c.id, (SELECT id FROM items WHERE app_id = ${A} AND sku = 'SUBS-BENCH'), 0,
    'Weekly meal box', 'صندوق الوجبات', 'active', 1, ${PRICE_MINOR}, 'SAR', 'wallet', 1, 'month',
    date(${lit(due)}, '-1 month'), date(${lit(due)}, '-1 month'), ${lit(due)}, ${lit(due)}, date(${lit(due)}, '-1 month'), '${now}'
  FROM customers c WHERE c.app_id = ${A} ORDER BY c.id;`;
}

type Probe = {
  counts: Record<"statements" | "roundTrips" | "scanStatements" | "sent" | "consumed" | "batches" | "retried", number>;
  waiting: number;
  statuses: { status: string; n: number }[];
  overdue: number;
  pendingClaims: number;
};

type SubscriptionsRun = {
  subscriptions: number;
  emptyWallets: number;
  wallMs: number;
  /** How long each batch took the consumer (the last call found none left). */
  batchMs: number[];
  finished: boolean;
  probe: Probe;
  renewed: number;
  suspended: number;
  doubleCharged: number;
  doubleClaimed: number;
  rowsWritten: Record<string, number>;
};

const TABLES = [
  "orders",
  "order_items",
  "invoices",
  "transactions",
  "wallet_entries",
  "subscription_renewals",
  "outbox_events",
];

const rowCounts = () =>
  queryLocal<Record<string, number>>(
    `SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${t} WHERE app_id = ${APP}) AS ${t}`).join(", ")}`,
  )[0]!;

/** Writes the store to local D1 (before the API serves). */
function seedSubscriptions() {
  const started = Date.now();
  const now = new Date().toISOString();
  // Due yesterday (UTC): the store's day (Riyadh) is today or later, so every one is due.
  const due = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  registerBenchStore(APP, "Subscriptions bench");
  executeLocal(storeSql(SUBSCRIPTIONS, now, due));
  const [row] = queryLocal<{ n: number }>(
    `SELECT count(*) AS n FROM subscriptions WHERE app_id = ${APP} AND next_billing_date = ${lit(due)}`,
  );
  if (row?.n !== SUBSCRIPTIONS) throw new Error(`${row?.n} subscriptions seeded, ${SUBSCRIPTIONS} expected`);
  log(`store ${APP}: ${SUBSCRIPTIONS} due subscriptions and their customers, in ${Date.now() - started} ms`);
  return { due, before: rowCounts() };
}

async function getJson<T>(url: string, ms: number): Promise<T> {
  const res = await sendFresh(url, { timeoutMs: ms });
  if (res.status !== 200) throw new Error(`${new URL(url).pathname} answered ${res.status}: ${res.text}`);
  return res.json() as T;
}

/**
 * Triggers the scheduled handler twice at once (the cron running twice), then hands the jobs they
 * queued to the Worker's consumer, a batch of 10 at a time, until none is left and no due
 * subscription is left.
 *
 * The bench's entry keeps the jobs and hands them over (`/__bench/jobs`) instead of local Queues:
 * under this machine's load, local Queues stopped handing batches to the consumer after two to
 * seven of them, with messages left and no error, in four runs out of five. The consumer's code is
 * the Worker's own (`queue()`), one batch after another as local Queues runs them.
 */
async function runRenewals(
  server: Served,
  seeded: { due: string; before: Record<string, number> },
): Promise<SubscriptionsRun> {
  const api = server.url;
  const probe = () => getJson<Probe>(`${api}/__bench/subscriptions?app=${APP}&due=${seeded.due}`, 30_000);
  const t0 = performance.now();
  const scans = Promise.all(
    [0, 1].map(() =>
      sendFresh(`${api}/__bench/scan?cron=${encodeURIComponent("*/5 * * * *")}`, { timeoutMs: MAX_WAIT_MS }),
    ),
  );
  for (const res of await scans)
    if (res.status !== 200) throw new Error(`the scheduled handler answered ${res.status}: ${res.text}`);
  // The scans queue their jobs after answering (in waitUntil): wait until the count stops moving.
  let p = await probe();
  for (let sent = -1; sent !== p.counts.sent; ) {
    sent = p.counts.sent;
    await sleep(500);
    p = await probe();
  }
  log(`renewals: ${p.counts.sent} jobs queued by two scans`);
  let lastLog = performance.now();
  let finished = false;
  const batchMs: number[] = [];
  while (performance.now() - t0 < MAX_WAIT_MS) {
    const tb = performance.now();
    const { waiting } = await getJson<{ waiting: number }>(`${api}/__bench/jobs`, MAX_WAIT_MS);
    batchMs.push(performance.now() - tb);
    if (waiting === 0) {
      p = await probe();
      finished = p.overdue === 0 && p.pendingClaims === 0;
      break;
    }
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      p = await probe();
      log(
        `renewals: ${SUBSCRIPTIONS - p.overdue}/${SUBSCRIPTIONS} settled, ${p.counts.consumed}/${p.counts.sent} jobs consumed`,
      );
    }
  }
  const last = p;
  const wallMs = performance.now() - t0;
  const of = (s: string) => last.statuses.find((x) => x.status === s)?.n ?? 0;
  // The rows are read from the database file, once the API has stopped writing to it (the events of
  // the run are still being consumed: reading beside it can fail as busy).
  await server.stop();
  const after = rowCounts();
  const [doubles] = queryLocal<{ claimed: number; charged: number }>(
    `SELECT
      (SELECT count(*) FROM (SELECT 1 FROM subscription_renewals WHERE app_id = ${APP}
        GROUP BY subscription_id, period_start HAVING count(*) > 1)) AS claimed,
      (SELECT count(*) FROM (SELECT 1 FROM wallet_entries WHERE app_id = ${APP} AND amount < 0
        GROUP BY customer_id HAVING count(*) > 1)) AS charged`,
  );
  return {
    subscriptions: SUBSCRIPTIONS,
    emptyWallets: Math.ceil(SUBSCRIPTIONS / EMPTY_EVERY),
    wallMs,
    batchMs,
    finished,
    probe: last,
    renewed: of("active") - last.overdue,
    suspended: of("suspended"),
    doubleClaimed: doubles!.claimed,
    doubleCharged: doubles!.charged,
    rowsWritten: Object.fromEntries(TABLES.map((t) => [t, (after[t] ?? 0) - (seeded.before[t] ?? 0)])),
  };
}

function subscriptionsSection(r: SubscriptionsRun): string[] {
  const c = r.probe.counts;
  const settled = r.subscriptions - r.probe.overdue;
  const s = r.wallMs / 1000;
  const batches = r.batchMs.slice(0, -1).sort((a, b) => a - b);
  const pctl = (q: number) => fmt((batches[Math.min(batches.length - 1, Math.floor(q * batches.length))] ?? 0) / 1000);
  const slow = batches.filter((ms) => ms > SLOW_BATCH_S * 1000);
  const slowS = slow.reduce((a, b) => a + b, 0) / 1000;
  const size =
    r.subscriptions === 10_000
      ? "10,000 due subscriptions"
      : `${count(r.subscriptions)} due subscriptions (fewer than the 10,000 asked for: BENCH_SUBSCRIPTIONS)`;
  return [
    `A renewal run of ${size} in a store of their own, generated inside SQLite: monthly, wallet-paid, ` +
      `all due the day before. One customer in ${EMPTY_EVERY} has an empty wallet, so their renewal fails and the ` +
      "subscription is suspended with a retry day (dunning). The API's scheduled handler is triggered twice at once through " +
      "the bench entry's `/__bench/scan` (the cron running twice); the run ends when both scans have answered, every job they queued has been " +
      "consumed (local Queues, the jobs consumer's batches of 10 messages) and no due subscription is left. " +
      "Wall time is from the first trigger to that point. The events' consumer is off in this run (local Queues refuses " +
      "sends past 10,000 pending messages, and the renewals emit about 9 events each): every event is in the outbox " +
      "(rows written, below); their delivery is measured in Webhook deliveries.",
    "",
    "D1 statements are counted by the bench's own entry around the Worker: the jobs consumer gets a D1 binding that counts " +
      "every statement prepared (each one in a batch included) and every round trip (a batch, or a statement run alone); " +
      "what the renewal defers after its batch (the events' queue sends, the webhooks ledger) is counted when it uses that binding. " +
      "The scheduled scan is counted apart.",
    "",
    "| figure | value |",
    "|---|---:|",
    `| due subscriptions | ${count(r.subscriptions)} |`,
    `| settled (renewed or suspended) | ${count(settled)}${r.finished ? "" : " (not finished: gave up waiting)"} |`,
    `| renewed (active, next period) | ${count(r.renewed)} |`,
    `| suspended (empty wallet: dunning) | ${count(r.suspended)} |`,
    `| wall time | ${fmt(s)} s |`,
    `| renewals per second (settled / wall time) | ${fmt(settled / s)} |`,
    `| a batch of 10 jobs (250 subscriptions): p50, p90, slowest | ${pctl(0.5)} s, ${pctl(0.9)} s, ${pctl(1)} s |`,
    ...(slow.length
      ? [
          `| batches over ${SLOW_BATCH_S} s (the local runtime held one of their awaits that long, with no statement running) | ${slow.length}, ${fmt(slowS)} s in all |`,
          `| renewals per second without those batches | ${fmt(settled / Math.max(s - slowS, 0.001))} |`,
        ]
      : []),
    `| queue messages (jobs sent by the two scheduled runs) | ${c.sent} (${fmt(c.sent / 2)} a run) |`,
    `| jobs retried (a handler that threw) | ${c.retried} |`,
    `| consumer batches | ${c.batches} |`,
    `| D1 statements in the jobs consumer | ${count(c.statements)} |`,
    `| D1 statements per subscription | ${fmt(c.statements / Math.max(settled, 1))} |`,
    `| D1 round trips per subscription | ${fmt(c.roundTrips / Math.max(settled, 1))} |`,
    `| D1 statements of the two scheduled scans (all its tasks) | ${c.scanStatements} |`,
    `| periods claimed twice (subscription_id, period_start) | ${r.doubleClaimed} |`,
    `| customers charged twice (wallet debits per customer > 1) | ${r.doubleCharged} |`,
    "",
    `Rows written: ${Object.entries(r.rowsWritten)
      .map(([t, n]) => `${t} ${count(n)}`)
      .join(", ")}.`,
    "",
  ];
}

/** The API's wrangler.toml, its Worker the entry above (in .bench/, like the bench's own config). */
function subscriptionsConfig(dir: string): string {
  const text = benchWranglerToml(writeSubscriptionsEntry(dir))
    // Without the events' consumer: local Queues' broker keeps a timer per pending message and refuses
    // sends past 10,000, which a run's ~90,000 events (renewals emit 9 each) exceed within seconds, and
    // its stalled sends then hold up the jobs consumer too. Sent to a queue without a consumer, they
    // are dropped on arrival; the outbox keeps every one (counted below). Delivery: Webhook deliveries.
    .replace(/^\[\[queues\.consumers\]\]\nqueue = "commerce-events"\n(?:.*\n)*?\n/m, "");
  writeFileSync(`${dir}/wrangler.subscriptions.toml`, text);
  return `${dir}/wrangler.subscriptions.toml`;
}

export const subscriptions: Scenario = {
  name: "subscriptions",
  heading: "## Subscription renewals",
  goal:
    `a renewal run of ${count(SUBSCRIPTIONS)} due subscriptions with the cron running twice: every one settled (renewed or ` +
    "suspended), no period claimed twice, no customer charged twice; renewals per second and D1 statements and round " +
    "trips per subscription (what the consumer pays in sequence).",
  async run() {
    const seeded = seedSubscriptions();
    const api = await startApi(subscriptionsConfig(BENCH_DIR));
    return subscriptionsSection(await runRenewals(api, seeded));
  },
};
