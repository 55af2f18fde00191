/**
 * `--only webhooks`: webhook delivery, against the API (served by bench/serve.ts: the deployed
 * bundle on workerd) and a receiver in this process:
 *
 * - throughput: 1,000 events to one healthy receiver, against what the receiver takes alone;
 * - first-attempt latency: from a write's response to its delivery's first arrival, alone, and while
 *   another store's receiver times out on every attempt (with the onset, when it first does);
 * - chaos: 600 events to receivers that fail at random (5xx, timeouts, redirects) and one that turns
 *   410 Gone; then, from the ledger, delivered + failed + skipped = emitted for every webhook.
 */
import { createServer, type Server } from "node:http";
import autocannon from "autocannon";
import { executeLocal, queryLocal } from "../d1";
import { fmt, log, merchantHeaders, type Scenario, sleep, startApi } from "./harness";
import { pct } from "./load";

const RECEIVER_PORT = 8790;
const RECEIVER = `http://127.0.0.1:${RECEIVER_PORT}`;
const HOOKS = "/api/v1/dashboard/admin/integrations/webhooks/";
const BULK = "/order/v1/merchant/fulfillments/tickets/bulk-update/";
/** Longer than both lanes' attempt timeouts (1 s and 15 s): an answer that never comes in time. */
const HANG_MS = 20_000;
const CHAOS_EVENTS = 600;

/** A seeded generator, so that every run fails the same share of attempts in the same way. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Arrival = { path: string; id: string; ticket: number; at: number; status: number };

/** The receivers: one server, one behaviour per path; every request recorded with its arrival time. */
function startReceiver(): { server: Server; arrivals: Arrival[]; ready: Promise<void> } {
  const arrivals: Arrival[] = [];
  const rand = random(12);
  let turned = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const at = performance.now();
      const path = req.url ?? "";
      let ticket = 0;
      try {
        ticket = (JSON.parse(body) as { data?: { id?: number } }).data?.id ?? 0;
      } catch {}
      const answer = (status: number, headers: Record<string, string> = {}) => {
        arrivals.push({ path, id: String(req.headers["webhook-id"]), ticket, at, status });
        res.writeHead(status, headers).end(status < 300 ? "ok" : "no");
      };
      const hang = () => {
        arrivals.push({ path, id: String(req.headers["webhook-id"]), ticket, at, status: 0 });
        setTimeout(() => res.writeHead(200).end("too late"), HANG_MS);
      };
      if (path === "/hang") return hang();
      if (path === "/turns-410") return answer(++turned > 100 ? 410 : 200);
      if (path.startsWith("/chaos")) {
        const r = rand();
        if (r < 0.15) return answer(500);
        if (r < 0.2) return answer(503, { "retry-after": "1" });
        if (r < 0.3) return answer(302, { location: "https://elsewhere.example.org/" });
        if (r < 0.33) return hang();
      }
      answer(200);
    });
  });
  server.keepAliveTimeout = 60_000;
  const ready = new Promise<void>((r) => server.listen(RECEIVER_PORT, "127.0.0.1", r));
  return { server, arrivals, ready };
}

type Store = { app: number; headers: Record<string, string>; tickets: number[] };

/** A token and `n` pending tickets of its own for each store, written to local D1. */
async function prepareStores(n: Record<number, number>): Promise<Record<number, Store>> {
  const stores: Record<number, Store> = {};
  for (const [key, count] of Object.entries(n)) {
    const app = Number(key);
    const headers = await merchantHeaders(
      app,
      ["can_write_order", "can_read_order", "can_update_app_config", "can_retrieve_app_config"],
      { "org-id": String(app) },
    );
    const item = app === 1 ? 1 : 101;
    executeLocal(`INSERT INTO tickets (app_id, invoice_item_id, item_id, name_en, name_ar, status, total_amount_minor, date, time,
          customer_name, customer_email, customer_phone, token)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
        SELECT ${app}, ${app * 1_000_000} + i, ${item}, 'Webhook bench', 'اختبار', 'pending', 5000, '2026-12-01', '10:00:00',
          'Bench ' || i, 'bench' || i || '@example.com', '+9665' || printf('%08d', i), 'tkt_wh_${app}_' || i FROM n;`);
    const rows = queryLocal<{ id: number }>(`SELECT id FROM tickets WHERE token LIKE 'tkt_wh_${app}_%' ORDER BY id`);
    stores[app] = {
      app,
      headers,
      tickets: rows.map((r) => r.id),
    };
  }
  return stores;
}

/** The socket closed under a request before any answer: the server dropped an idle keep-alive connection. */
const droppedIdle = (e: unknown) => (e as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET";

async function api(base: string, s: Store, path: string, method = "GET", body?: unknown) {
  const send = () =>
    fetch(base + path, {
      method,
      headers: { ...s.headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const res = await send().catch((e) => (droppedIdle(e) ? send() : Promise.reject(e)));
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

let day = 0;
/** One write that emits one `ticket.updated` event per id; resolves when its response is read. */
async function emitEvents(base: string, s: Store, ids: number[]): Promise<number> {
  day = (day % 27) + 1;
  await api(base, s, BULK, "POST", { ids, date: `2026-12-${String(day).padStart(2, "0")}` });
  return performance.now();
}

async function subscribe(base: string, s: Store, path: string): Promise<number> {
  const w = await api(base, s, HOOKS, "POST", { url: `${RECEIVER}${path}`, events: ["ticket.updated"] });
  return w.id as number;
}
const unsubscribe = (base: string, s: Store, id: number) => api(base, s, `${HOOKS}${id}/`, "DELETE");

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done in ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

const RUNS = 3;

/**
 * 1,000 events (10 writes of 100) to one healthy receiver, from the first write to the last
 * arrival; then the receiver alone, 1,000 POSTs from autocannon. After a warm-up of 100 events;
 * the median of three runs of each, interleaved.
 */
async function throughput(base: string, s: Store, arrivals: Arrival[]) {
  const hook = await subscribe(base, s, "/fast");
  const ids = s.tickets.slice(0, 1000);
  const seen = () => new Set(arrivals.filter((a) => a.path === "/fast" && a.status === 200).map((a) => a.id)).size;
  const deliver = async (tickets: number[]) => {
    const before = seen();
    const started = performance.now();
    for (let i = 0; i < tickets.length; i += 100) await emitEvents(base, s, tickets.slice(i, i + 100));
    await until(`${tickets.length} deliveries`, () => seen() >= before + tickets.length, 300_000);
    return tickets.length / ((performance.now() - started) / 1000);
  };
  await deliver(ids.slice(0, 100));
  const rates = { consumer: [] as number[], baseline: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    rates.consumer.push(await deliver(ids));
    const t = performance.now();
    await autocannon({ url: `${RECEIVER}/alone`, method: "POST", connections: 10, amount: 1000, body: "{}" });
    rates.baseline.push(1000 / ((performance.now() - t) / 1000));
  }
  await unsubscribe(base, s, hook);
  return { consumer: pct(rates.consumer, 0.5), baseline: pct(rates.baseline, 0.5), runs: rates.consumer };
}

/** First-attempt latencies of single-event writes of store `s` to `path`, one every `gapMs`. */
async function latencies(base: string, s: Store, path: string, tickets: number[], gapMs: number, arrivals: Arrival[]) {
  const sent: { ticket: number; at: number }[] = [];
  for (const ticket of tickets) {
    sent.push({ ticket, at: await emitEvents(base, s, [ticket]) });
    await sleep(gapMs);
  }
  await sleep(3000);
  return sent.map(({ ticket, at }) => {
    const first = arrivals.find((a) => a.path === path && a.ticket === ticket && a.at >= at - 5000);
    return first ? first.at - at : Number.POSITIVE_INFINITY;
  });
}

async function latency(base: string, one: Store, two: Store, arrivals: Arrival[]) {
  const hook = await subscribe(base, one, "/lat");
  const alone = await latencies(base, one, "/lat", one.tickets.slice(1000, 1100), 100, arrivals);
  // Store 2's receiver never answers in time; store 2 writes 5 events every 200 ms meanwhile.
  const dead = await subscribe(base, two, "/hang");
  let load = true;
  const loading = (async () => {
    for (let i = 0; load; i = (i + 5) % 100) {
      await emitEvents(base, two, two.tickets.slice(i, i + 5));
      await sleep(200);
    }
  })();
  const onset = await latencies(base, one, "/lat", one.tickets.slice(1100, 1140), 200, arrivals);
  const steady = await latencies(base, one, "/lat", one.tickets.slice(1140, 1240), 100, arrivals);
  load = false;
  await loading;
  const timedOut = arrivals.filter((a) => a.path === "/hang").length;
  await unsubscribe(base, two, dead);
  await unsubscribe(base, one, hook);
  return { alone, onset, steady, timedOut };
}

type Tally = { webhook: string; emitted: number; states: Record<string, number>; lost: number; unreceived: number };
const STATES = ["pending", "retrying", "delivered", "failed", "skipped"] as const;

/** 600 events to two receivers failing at random and one turning 410; every delivery accounted for. */
async function chaos(base: string, s: Store, arrivals: Arrival[]) {
  const paths = ["/chaos-a", "/chaos-b", "/turns-410"];
  const hooks = await Promise.all(paths.map((p) => subscribe(base, s, p)));
  const since = new Date().toISOString();
  const ids = s.tickets.slice(1240, 1240 + CHAOS_EVENTS);
  for (let i = 0; i < ids.length; i += 50) {
    await emitEvents(base, s, ids.slice(i, i + 50));
    await sleep(500);
  }
  // What was emitted, from the outbox: the ledger is what is being checked, so it cannot say.
  const [{ n: emitted } = { n: 0 }] = queryLocal<{ n: number }>(
    `SELECT count(*) AS n FROM outbox_events WHERE app_id = ${s.app} AND type = 'ticket.updated' AND created_at >= '${since}'`,
  );
  const list = (hook: number, query: string) => api(base, s, `${HOOKS}deliveries/?webhook=${hook}&${query}`);
  const count = async (hook: number, status: string) =>
    (await list(hook, `status=${status}&page_size=1`)).count as number;
  const open = async () => {
    let n = 0;
    for (const h of hooks) n += (await count(h, "pending")) + (await count(h, "retrying"));
    return n;
  };
  const started = Date.now();
  // The cron's reconciler, which runs every 5 minutes deployed, every 30 s here through the bench
  // entry's /__bench/scan (the local runtime runs no cron, and its own trigger fails before the
  // handler runs): it re-sends only deliveries more than a minute overdue, so it does nothing unless
  // a queue message was lost (a Worker reloaded mid-run loses them all).
  let reconciled = 0;
  const reconciler = setInterval(() => {
    fetch(`${base}/__bench/scan`).then(
      (r) => r.ok && reconciled++,
      () => {},
    );
  }, 30_000);
  await until("every chaos delivery final", async () => (await open()) === 0, 900_000).finally(() =>
    clearInterval(reconciler),
  );
  const settleS = (Date.now() - started) / 1000;
  const tallies: Tally[] = [];
  for (const [i, hook] of hooks.entries()) {
    const states: Record<string, number> = {};
    for (const st of STATES) states[st] = await count(hook, st);
    const rows = STATES.reduce((n, st) => n + states[st]!, 0);
    // Every delivery the ledger says delivered was answered 2xx at the receiver at least once.
    const answered = new Set(arrivals.filter((a) => a.path === paths[i] && a.status === 200).map((a) => a.id));
    let unreceived = 0;
    for (let page = 1; ; page++) {
      const p = await list(hook, `status=delivered&page_size=100&page=${page}`);
      unreceived += (p.results as { id: string }[]).filter((r) => !answered.has(r.id)).length;
      if (!p.next) break;
    }
    tallies.push({ webhook: paths[i]!, emitted, states, lost: emitted - rows, unreceived });
  }
  const attempts = arrivals.filter((a) => paths.includes(a.path));
  return {
    tallies,
    settleS,
    reconciled,
    attempts: attempts.length,
    timeouts: attempts.filter((a) => a.status === 0).length,
  };
}

type WebhookFigures = Awaited<ReturnType<typeof measureWebhooks>>;

/** Runs the three measures against the API at `base` (with short retry delays). */
async function measureWebhooks(base: string) {
  const receiver = startReceiver();
  await receiver.ready;
  try {
    log("webhooks: a token and tickets for stores 1 and 2");
    const stores = await prepareStores({ 1: 1900, 2: 100 });
    log("webhooks: 1,000 events to one healthy receiver");
    const tp = await throughput(base, stores[1]!, receiver.arrivals);
    log("webhooks: first-attempt latency, alone and while another store's receiver times out");
    const lat = await latency(base, stores[1]!, stores[2]!, receiver.arrivals);
    log(`webhooks: ${CHAOS_EVENTS} events to receivers failing at random, until every delivery is final`);
    const ch = await chaos(base, stores[1]!, receiver.arrivals);
    return { throughput: tp, latency: lat, chaos: ch };
  } finally {
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}

/** A latency in ms, or "never" for an event that never arrived. */
const at = (n: number) => (Number.isFinite(n) ? fmt(n) : "never");
const ms = (xs: number[]) => `${at(pct(xs, 0.5))} / ${at(pct(xs, 0.99))}`;

function webhooksSection(f: WebhookFigures): string[] {
  const tp = f.throughput;
  const { alone, onset, steady } = f.latency;
  return [
    "The API as bench/serve.ts serves it (the deployed bundle on workerd, local D1 and Queues, retries after 1, 2 and 3 s), delivering to receivers in the bench " +
      "process. Latency: from a write's response to the first arrival of its event at the receiver (ms, p50 / p99).",
    "",
    "| measure | figure | goal |",
    "|---|---|---|",
    `| first attempt, healthy receiver alone (${alone.length} writes) | ${ms(alone)} | p50 ≤ 1000, p99 ≤ 2000 |`,
    `| the same while another store's receiver times out on every attempt (${steady.length} writes, ${f.latency.timedOut} timed-out attempts) | ${ms(steady)} | p50 ≤ 1000, p99 ≤ 2000 |`,
    `| the same during the onset, while that receiver's first attempts time out on the fast lane (${onset.length} writes) | ${ms(onset)}, max ${at(Math.max(...onset))} | p50 ≤ 1000, p99 ≤ 2000: at most the fast lane's timeout (1,000) more, once |`,
    `| throughput, 1,000 events (10 writes of 100) → queue → receiver, from the first write to the last arrival (median of ${tp.runs.length}: ${tp.runs.map((r) => fmt(r)).join(", ")}/s) | ${fmt(tp.consumer)}/s, ${fmt(tp.consumer / tp.baseline)} of the receiver alone (${fmt(tp.baseline)}/s, autocannon, 10 connections) | ≥ 0.5 |`,
    "",
    `Chaos: ${f.chaos.tallies[0]?.emitted ?? 0} events to two receivers answering at random (15% 500, 5% 503, 10% 302, 3% no answer in time, ` +
      `the rest 200) and one that answers 410 Gone after 100 requests; ${f.chaos.attempts} attempts, ${f.chaos.timeouts} timed out; ` +
      `every delivery final ${fmt(f.chaos.settleS)} s after the last write (the reconciler ran ${f.chaos.reconciled} times meanwhile). ` +
      "Most of that wait is the slow lane: locally one batch at a time, each as long as its slowest attempts (15 s, at most 4 at once per receiver); " +
      "deployed, Queues runs consumer batches concurrently. Counted from the ledger (List Webhook Deliveries):",
    "",
    "| webhook | emitted | delivered | failed | skipped | still open | lost | delivered, never received 2xx |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...f.chaos.tallies.map(
      (t) =>
        `| ${t.webhook} | ${t.emitted} | ${t.states.delivered} | ${t.states.failed} | ${t.states.skipped} | ${(t.states.pending ?? 0) + (t.states.retrying ?? 0)} | ${t.lost} | ${t.unreceived} |`,
    ),
    "",
  ];
}

export const webhooks: Scenario = {
  name: "webhooks",
  heading: "## Webhook deliveries",
  goal:
    "first attempt p50 ≤ 1 s and p99 ≤ 2 s from a write's response, alone and while another store's receiver times out; " +
    "throughput to one receiver at least 0.5 of what the receiver takes alone; under random failures every delivery final, none lost.",
  async run() {
    const api = await startApi();
    return webhooksSection(await measureWebhooks(api.url));
  },
};
