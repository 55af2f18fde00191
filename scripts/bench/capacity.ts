/**
 * `--only capacity`: the figures docs/capacity.md plans from, through the API as clients use it.
 *
 * - The demo's largest store as `npm start` seeds it: its rows and the bytes of their values.
 * - Bytes per order with everything it brings: commerce Checkouts (1 to 3 lines, invoice, events,
 *   webhook deliveries and their logs) and meal Place Orders (subscription, suborders), each in a
 *   store of its own with a webhook subscribed to every event and answered by a receiver here. The
 *   size is D1's own figure (`meta.size_after`: page count x page size, the WAL's committed pages
 *   included, what the 10 GB cap counts), read through the served Worker before and after, once
 *   every event has left the outbox and every delivery has ended.
 * - Writes one database sustains: Checkout and Place Order at a fixed concurrency against the write
 *   floor, a single-row INSERT a request through the same Worker, interleaved in the same run; and
 *   the D1 statements of one cron run (what running the scheduled tasks once per shard multiplies).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { EVENT_TYPES } from "../../src/modules/webhooks/catalogue";
import { executeLocal, queryLocal } from "../d1";
import {
  API,
  count,
  customerTokens,
  fmt,
  log,
  merchantHeaders,
  registerBenchStore,
  type Scenario,
  type Served,
  sendFresh,
  sleep,
  startApi,
} from "./harness";
import { CONNECTIONS, interleaved, load, type Result } from "./load";
import { bodyOf, type Customer, APP as MEAL_APP, PATH as MEAL_PATH, PLANS, seedMealStore } from "./meal-orders";

const APP = 41;
const NOW = "2026-11-01T09:00:00.000Z";
/** Orders placed for the bytes, per kind: enough to fill many pages, few enough for a loaded machine. */
const ORDERS = Number(process.env.BENCH_CAPACITY_ORDERS ?? 300);
const MEAL_ORDERS = Number(process.env.BENCH_CAPACITY_MEAL_ORDERS ?? 100);
/** Open carts: the bytes' checkouts, then every throughput run's (and warm-up's). */
const CARTS = Number(process.env.BENCH_CAPACITY_CARTS ?? 8_000);
const CUSTOMERS = 200;
const PRODUCTS = 5;
const RECEIVER_PORT = Number(process.env.BENCH_RECEIVER_PORT ?? 8790);
const HOOKS = "/api/v1/dashboard/admin/integrations/webhooks/";
/** A request counted (statements, round trips) before the load, per write. */
const COUNTED = 3;

/** The commerce store: products with plenty of stock, customers, open carts of 1 to 3 lines. */
function storeSql(): string {
  const A = APP;
  const firstCustomer = `(SELECT min(id) FROM customers WHERE app_id = ${A})`;
  const firstCart = `(SELECT min(id) FROM carts WHERE app_id = ${A})`;
  return `
INSERT INTO apps (id, org_id, name_en, name_ar, created_at) VALUES (${A}, 1, 'Capacity bench', 'متجر قياس السعة', '${NOW}');
INSERT INTO items (app_id, type, service_type, sku, price_minor, name_en, name_ar, stock_qty, ordering)
  WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < ${PRODUCTS - 1})
  SELECT ${A}, 'product', 'pickup', 'CAP-' || k, 2500 + 1500 * k, 'Bench product ' || k, 'منتج ' || k, 100000000, k FROM k;
INSERT INTO customers (app_id, created_at, modified_at, country_code, mobile_number, username, name, email, joined_at, is_mobile_verified)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CUSTOMERS - 1})
  SELECT ${A}, '${NOW}', '${NOW}', '966', '96658' || printf('%07d', k), '058' || printf('%07d', k), 'Buyer ' || k,
    'buyer' || k || '@example.com', '${NOW}', 1 FROM n;
INSERT INTO carts (app_id, created_at, modified_at, customer_id, status, cart_provider, quoted_total_minor)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CARTS - 1})
  SELECT ${A}, '${NOW}', '${NOW}', ${firstCustomer} + k % ${CUSTOMERS}, 'open', 'app', 0 FROM n;
INSERT INTO cart_items (app_id, cart_id, item_id, qty, unit_price_minor, created_at)
  SELECT ${A}, c.id, it.id, 1 + j % 2, it.price_minor, c.created_at
  FROM (SELECT id, created_at, id - ${firstCart} AS k FROM carts WHERE app_id = ${A}) c
    JOIN (SELECT 0 AS j UNION ALL SELECT 1 UNION ALL SELECT 2) ON j <= c.k % 3
    JOIN items it ON it.app_id = ${A} AND it.sku = 'CAP-' || ((c.k + j) % ${PRODUCTS})
  ORDER BY c.id, j;`;
}

// ---- What a store holds -------------------------------------------------------------------------

/** Every table with an `app_id`, with its columns: what a store's rows are. */
function storeTables(): { table: string; columns: string[] }[] {
  const rows = queryLocal<{ t: string; cols: string }>(
    `SELECT m.name AS t, group_concat(p.name, ',') AS cols FROM sqlite_master m JOIN pragma_table_info(m.name) p
      WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' GROUP BY m.name
      HAVING sum(p.name = 'app_id') = 1 ORDER BY m.name`,
  );
  return rows.map((r) => ({ table: r.t, columns: r.cols.split(",") }));
}

/** The bytes of a row's values as SQLite holds text (UTF-8); numbers as their digits: near its record's size. */
const valueBytes = (columns: string[]) => columns.map((c) => `coalesce(length(CAST("${c}" AS BLOB)), 0)`).join(" + ");

type TableRows = { table: string; app: number; rows: number; bytes: number };

type Query = <T>(sql: string) => Promise<T[]>;
/** Before the API serves: through wrangler. */
const beforeServing: Query = async (sql) => queryLocal(sql);
/** While the API serves: through the served Worker (bench/entry.ts), which holds the local database. */
const whileServing: Query = async <T>(sql: string) => {
  const res = await sendFresh(`${API}/__bench/query`, { method: "POST", body: sql, timeoutMs: 120_000 });
  if (res.status !== 200) throw new Error(`/__bench/query answered ${res.status}: ${res.text}`);
  return res.json() as T[];
};

/** Rows and value bytes per table and store (of `app` only, when given). */
async function holdings(query: Query, tables: ReturnType<typeof storeTables>, app?: number): Promise<TableRows[]> {
  const where = app === undefined ? "" : ` WHERE app_id = ${app}`;
  const out: TableRows[] = [];
  // D1 refuses a compound SELECT of many terms: one column a table instead, its stores as JSON, 40 tables a query.
  for (let i = 0; i < tables.length; i += 40) {
    const chunk = tables.slice(i, i + 40);
    const [row] = await query<Record<string, string>>(
      `SELECT ${chunk
        .map(
          (t, j) =>
            `(SELECT json_group_array(json_array(app_id, n, bytes)) FROM (SELECT app_id, count(*) AS n,
              sum(${valueBytes(t.columns)}) AS bytes FROM "${t.table}"${where} GROUP BY app_id)) AS t${j}`,
        )
        .join(", ")}`,
    );
    chunk.forEach((t, j) => {
      for (const [a, rows, bytes] of JSON.parse(row![`t${j}`]!) as [number, number, number][])
        out.push({ table: t.table, app: a, rows, bytes });
    });
  }
  return out;
}

/** What `after` holds beyond `before`, per table, largest first. */
function added(before: TableRows[], after: TableRows[]): TableRows[] {
  const was = new Map(before.map((r) => [r.table, r]));
  return after
    .map((r) => ({
      ...r,
      rows: r.rows - (was.get(r.table)?.rows ?? 0),
      bytes: r.bytes - (was.get(r.table)?.bytes ?? 0),
    }))
    .filter((r) => r.rows > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

/** The database's size as D1 reports it, through the served Worker (bench/entry.ts). */
async function sizeOf(): Promise<number> {
  const res = await sendFresh(`${API}/__bench/size`);
  return (res.json() as { size: number }).size;
}

/** Until every event of `app` has left the outbox and every delivery has ended. */
async function settled(app: number) {
  const pending = async () =>
    (
      await whileServing<{ n: number }>(
        `SELECT (SELECT count(*) FROM outbox_events WHERE app_id = ${app} AND enqueued_at IS NULL)
        + (SELECT count(*) FROM webhook_deliveries WHERE app_id = ${app} AND status IN ('pending', 'retrying')) AS n`,
      )
    )[0]!.n;
  for (const deadline = Date.now() + 180_000; ; await sleep(1_000)) {
    const n = await pending();
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`store ${app}: ${n} events or deliveries still pending after 180 s`);
  }
}

// ---- Writes --------------------------------------------------------------------------------------

type Write = { path: string; headers: Record<string, string>; body: string };

/** `n` writes from `next`, CONNECTIONS at a time; throws on any answer but 201. */
async function place(n: number, next: () => Write) {
  let left = n;
  const worker = async () => {
    while (left-- > 0) {
      const w = next();
      const res = await sendFresh(API + w.path, { method: "POST", headers: w.headers, body: w.body });
      if (res.status !== 201) throw new Error(`POST ${w.path} answered ${res.status}: ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

type Counts = { statements: number; roundTrips: number };
/** One write with `x-bench-count` (bench/entry.ts): its D1 statements and round trips, deferred work included. */
async function countOne(w: Write): Promise<Counts> {
  const res = await sendFresh(API + w.path, {
    method: "POST",
    headers: { ...w.headers, "x-bench-count": "1" },
    body: w.body,
  });
  if (res.status !== 201) throw new Error(`POST ${w.path} answered ${res.status}: ${res.text}`);
  return { statements: res.header("x-bench-statements"), roundTrips: res.header("x-bench-round-trips") };
}

/** A webhook of the store of `headers` on every event, to a receiver that answers 200. */
async function subscribeAll(headers: Record<string, string>) {
  const res = await sendFresh(API + HOOKS, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${RECEIVER_PORT}/capacity`, events: EVENT_TYPES }),
  });
  if (res.status !== 201) throw new Error(`Create Webhook answered ${res.status}: ${res.text}`);
}

/** The writes of both stores, each request on its own cart or by the next customer. */
async function writers(api: Served, meal: { customers: Customer[] }) {
  const carts = await whileServing<{ id: number; customer_id: number }>(
    `SELECT id, customer_id FROM carts WHERE app_id = ${APP} AND status = 'open' ORDER BY id`,
  );
  const tokens = await customerTokens(
    APP,
    carts.map((c) => c.customer_id),
  );
  const mealTokens = await customerTokens(
    MEAL_APP,
    meal.customers.map((c) => c.id),
  );
  let cart = 0;
  const checkout = (): Write => {
    const c = carts[cart++];
    if (!c) throw new Error(`the ${CARTS} open carts are used up (seed more with BENCH_CAPACITY_CARTS)`);
    return {
      path: `/order/v1/carts/${c.id}/checkout/`,
      headers: {
        "app-id": String(APP),
        authorization: `Bearer ${tokens.get(c.customer_id)}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ payment_provider: "cash_on_delivery" }),
    };
  };
  const plan = PLANS[1];
  const body = await bodyOf(api.url, plan);
  let turn = 0;
  const mealOrder = (): Write => {
    const c = meal.customers[turn++ % meal.customers.length]!;
    return {
      path: MEAL_PATH,
      headers: {
        "app-id": String(MEAL_APP),
        authorization: `Bearer ${mealTokens.get(c.id)}`,
        "content-type": "application/json",
        "idempotency-key": `capacity-${randomUUID()}`,
      },
      body: body.of(c),
    };
  };
  return { checkout, mealOrder, plan, deliveries: body.deliveries };
}

/** Bytes per order: `n` writes, then the size and the rows they added once their deliveries ended. */
async function bytesOf(app: number, n: number, next: () => Write, tables: ReturnType<typeof storeTables>) {
  const [size0, rows0] = [await sizeOf(), await holdings(whileServing, tables, app)];
  const t = performance.now();
  await place(n, next);
  const seconds = (performance.now() - t) / 1000;
  await settled(app);
  const [size1, rows1] = [await sizeOf(), await holdings(whileServing, tables, app)];
  return { n, seconds, growth: size1 - size0, tables: added(rows0, rows1) };
}

// ---- The section ---------------------------------------------------------------------------------

type Bytes = Awaited<ReturnType<typeof bytesOf>>;
const kb = (bytes: number) => fmt(bytes / 1024);

function bytesTable(name: string, b: Bytes): string[] {
  const values = b.tables.reduce((s, r) => s + r.bytes, 0);
  return [
    `${name}: ${count(b.n)} placed (${fmt(b.n / b.seconds)} a second at ${CONNECTIONS} at a time); the database grew by ` +
      `**${count(b.growth)} bytes**, **${kb(b.growth / b.n)} KB an order**; the values of the rows they added, ` +
      `${count(values)} bytes (${kb(values / b.n)} KB an order): the rest (${fmt((1 - values / b.growth) * 100)}%) is ` +
      "indexes, the orders' search index, record headers and the pages' free space.",
    "",
    "| table | rows an order | value bytes an order | share of the values |",
    "|---|---:|---:|---:|",
    ...b.tables.map(
      (r) =>
        `| ${r.table} | ${r.rows / b.n < 0.01 ? "< 0.01" : fmt(r.rows / b.n)} | ${count(Math.round(r.bytes / b.n))} | ${fmt((r.bytes / values) * 100)}% |`,
    ),
    "",
  ];
}

function demoLines(demo: { app: number; rows: number; bytes: number; tables: TableRows[] }[], size: number): string[] {
  const largest = demo[0]!;
  return [
    `The demo database as \`npm start\` seeds it (migrations and scripts/seed.ts): **${count(size)} bytes** as D1 reports ` +
      `it, the schema's empty tables and indexes included. Its stores, by rows (the bytes are their values'):`,
    "",
    "| store | rows | value bytes | largest tables (rows) |",
    "|---:|---:|---:|---|",
    ...demo.map(
      (d) =>
        `| ${d.app} | ${count(d.rows)} | ${count(d.bytes)} | ${[...d.tables]
          .sort((a, b) => b.rows - a.rows)
          .slice(0, 5)
          .map((t) => `${t.table} ${t.rows}`)
          .join(", ")} |`,
    ),
    "",
    `The largest is store ${largest.app}: ${count(largest.rows)} rows, ${count(largest.bytes)} bytes of values, ` +
      `${count(largest.tables.find((t) => t.table === "orders")?.rows ?? 0)} orders.`,
    "",
  ];
}

function writesLines(rows: { name: string; r: Result; counts: Counts | null }[]): string[] {
  const floorRps = rows[0]!.r.rps;
  return [
    `Writes at ${CONNECTIONS} at a time, interleaved with the write floor (\`POST /__bench/insert\`: one single-row INSERT ` +
      "committed a request, through the same served Worker, without the API's middleware). Round trips and statements " +
      `counted on ${COUNTED} requests of each sent alone (header \`x-bench-count\`, the work after the response included; ` +
      "each batch is one round trip). The webhook consumer writes each delivery's attempt and log in the same database " +
      "meanwhile, as deployed.",
    "",
    "| write | req/s | p50 | p99 | errors | D1 round trips a request | statements a request | round trips/s | req/s vs the floor |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      ({ name, r, counts }) =>
        `| ${name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${counts?.roundTrips ?? 1} | ${counts?.statements ?? 1} | ` +
        `${fmt(r.rps * (counts?.roundTrips ?? 1))} | ${fmt(r.rps / floorRps)} |`,
    ),
    "",
  ];
}

export const capacity: Scenario = {
  name: "capacity",
  heading: "## Capacity: bytes per order and writes per database",
  goal:
    "the figures docs/capacity.md plans from (no threshold): the demo's largest store, bytes per order with everything " +
    "it brings, and the orders a second one database takes beside its single-row write floor.",
  async run() {
    const tables = storeTables();
    const byApp = new Map<number, TableRows[]>();
    for (const r of await holdings(beforeServing, tables)) byApp.set(r.app, [...(byApp.get(r.app) ?? []), r]);
    const demo = [...byApp]
      .map(([app, ts]) => ({
        app,
        tables: ts,
        rows: ts.reduce((s, t) => s + t.rows, 0),
        bytes: ts.reduce((s, t) => s + t.bytes, 0),
      }))
      .sort((a, b) => b.rows - a.rows);
    let api = await startApi();
    const demoSize = await sizeOf();
    await api.stop();
    registerBenchStore(APP, "Capacity bench");
    executeLocal(storeSql());
    const meal = seedMealStore();
    // Tokens are written before the API serves: wrangler beside the running Worker fails now and then.
    const hookHeaders: Record<string, string>[] = [];
    for (const app of [APP, MEAL_APP])
      hookHeaders.push(
        await merchantHeaders(app, ["can_update_app_config", "can_retrieve_app_config"], { "org-id": "1" }),
      );
    const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("ok")));
    await new Promise<void>((r) => receiver.listen(RECEIVER_PORT, "127.0.0.1", r));
    try {
      api = await startApi();
      for (const headers of hookHeaders) await subscribeAll(headers);
      const w = await writers(api, meal);
      log(`bytes: ${ORDERS} checkouts, ${MEAL_ORDERS} meal orders (${w.plan.name})`);
      const commerce = await bytesOf(APP, ORDERS, w.checkout, tables);
      const meals = await bytesOf(MEAL_APP, MEAL_ORDERS, w.mealOrder, tables);
      const counts = { checkout: await countOne(w.checkout()), meal: await countOne(w.mealOrder()) };
      const scan = await sendFresh(`${API}/__bench/scan`, { headers: { "x-bench-count": "1" }, timeoutMs: 120_000 });
      const cron = { statements: scan.header("x-bench-statements"), roundTrips: scan.header("x-bench-round-trips") };
      log("writes: the floor, Checkout and Place Order, interleaved");
      const post = (next: () => Write) => async () =>
        load(API, { setup: (req) => ({ ...req, method: "POST", ...next() }), warmup: 20 });
      const [floorRun, checkoutRun, mealRun] = await interleaved([
        () => load(API, { setup: (req) => ({ ...req, method: "POST", path: "/__bench/insert" }), warmup: 20 }),
        post(w.checkout),
        post(w.mealOrder),
      ]);
      return [
        ...demoLines(demo, demoSize),
        ...bytesTable("Checkout (cash on delivery, 1 to 3 lines, a webhook on every event)", commerce),
        ...bytesTable(`Place Order, ${w.plan.name} paid from the wallet (${w.deliveries} deliveries)`, meals),
        ...writesLines([
          { name: "write floor: one single-row INSERT", r: floorRun!, counts: null },
          { name: "Checkout", r: checkoutRun!, counts: counts.checkout },
          { name: `Place Order (${w.plan.name})`, r: mealRun!, counts: counts.meal },
        ]),
        `One cron run (every scheduled task, \`/__bench/scan\` with \`x-bench-count\`, over this database's ${demo.length + 2} ` +
          `stores): **${cron.statements} D1 statements in ${cron.roundTrips} round trips**.`,
      ];
    } finally {
      receiver.close();
    }
  },
};
