/**
 * `--only meal-orders`: the customer's meal checkout, `POST /api/v1/orders/`, for the 7-day Keto week and the 30-day
 * Balanced 30, against the D1 floor in the same interleaved runs, and the D1 statements and round
 * trips one Place Order runs.
 *
 * The store is one of its own, generated inside SQLite: the demo meals data (scripts/meals-demo.ts:
 * Green Bowl, its menu and both plans), a delivery zone of Green Bowl over central Riyadh, and
 * customers each with a home inside it and cashback enough for hundreds of orders. Every order is
 * paid from the wallet: that is the payment that completes in the request (the order paid, the
 * meal subscription active with one suborder per delivery date), where a card only leaves a
 * pending order with a payment URL and cash on delivery one that starts nothing until captured.
 */
import { randomUUID } from "node:crypto";
import { executeLocal, lit, queryLocal } from "../d1";
import { CENTRAL_RIYADH_POLYGON, insertSql, mealsDemo } from "../meals-demo";
import {
  API,
  againstFloor,
  count,
  customerTokens,
  FLOOR_COLUMNS,
  floor,
  floorCells,
  fmt,
  log,
  registerBenchStore,
  type Scenario,
  sendFresh,
  sleep,
  startApi,
  startBare,
} from "./harness";
import { CONNECTIONS, load, median, type Result } from "./load";

export const APP = 31;
/** The demo's ids start here, clear of app 1's (base 0). */
const BASE = 31_000;
const NOW = "2026-11-01T09:00:00.000Z";
/** Customers seeded: requests take them in turn, so that no two running at once share a wallet. */
const CUSTOMERS = Number(process.env.BENCH_MEAL_CUSTOMERS ?? 1_000);
/** Each customer's cashback (halalas): hundreds of 30-day orders (2,249.10 SAR each). */
const WALLET_MINOR = 100_000_000;
const WARMUP = 20;
/** Place Orders counted one at a time before the load, per plan. */
const COUNTED = 5;
export const PATH = "/api/v1/orders/";

/** The plans measured, as the demo numbers them: plan 2 (version 3) and plan 1 (version 1). */
export const PLANS = [
  { name: "Keto week (7 days x 3 courses)", planId: BASE + 2, versionId: BASE + 3 },
  { name: "Balanced 30 (30 days x 5 courses)", planId: BASE + 1, versionId: BASE + 1 },
] as const;
export type Plan = (typeof PLANS)[number];

/** What a placement writes in the store; each run's rows are deleted after it (children first). */
const WRITTEN = [
  "suborders",
  "meal_orders",
  "meal_subscriptions",
  "wallet_entries",
  "transactions",
  "invoice_items",
  "invoices",
  "order_items",
  "orders",
  "idempotency_keys",
] as const;

function storeSql(): string {
  const A = APP;
  const firstCustomer = `(SELECT min(id) FROM customers WHERE app_id = ${A})`;
  const zone = {
    table: "delivery_zones",
    row: {
      id: BASE + 900,
      app_id: A,
      created_at: NOW,
      modified_at: NOW,
      ordering: 0,
      restaurant_id: BASE + 1,
      city_id: 1,
      name_en: "Central Riyadh",
      polygon: CENTRAL_RIYADH_POLYGON,
    },
  };
  return `
INSERT INTO apps (id, org_id, name_en, name_ar, created_at) VALUES (${A}, 1, 'Meal orders bench', 'متجر قياس طلبات الوجبات', '${NOW}');
INSERT INTO store_settings (app_id, name_en, name_ar, modified_at) VALUES (${A}, 'Meal orders bench', 'متجر قياس طلبات الوجبات', '${NOW}');
${[...mealsDemo(A, BASE), zone].map((r) => insertSql(r, (v) => lit(v as Parameters<typeof lit>[0]))).join("\n")}
INSERT INTO customers (app_id, created_at, modified_at, country_code, mobile_number, username, name, email, joined_at, is_mobile_verified)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CUSTOMERS - 1})
  SELECT ${A}, '${NOW}', '${NOW}', '966', '96657' || printf('%07d', k), '057' || printf('%07d', k), 'Diner ' || k,
    'diner' || k || '@example.com', '${NOW}', 1 FROM n;
-- Homes spread over a grid inside the zone (and Green Bowl's 12 km around Olaya).
INSERT INTO customer_locations (app_id, created_at, modified_at, customer_id, type, name_en, name_ar, latitude, longitude,
    city_id, address1)
  SELECT ${A}, '${NOW}', '${NOW}', id, 'home', 'Home', 'المنزل', 24.65 + ((id - ${firstCustomer}) % 40) * 0.002,
    46.64 + ((id - ${firstCustomer}) / 40 % 40) * 0.002, 1, 'Street ' || (id - ${firstCustomer})
  FROM customers WHERE app_id = ${A} ORDER BY id;
INSERT INTO wallet_entries (app_id, customer_id, kind, type, amount, balance_after, reason, created_at)
  SELECT ${A}, id, 'cashback', 'deposit', ${WALLET_MINOR}, ${WALLET_MINOR}, 'Bench', '${NOW}'
  FROM customers WHERE app_id = ${A} ORDER BY id;`;
}

export type Customer = { id: number; location_id: number };
type MealStore = { customers: Customer[]; last: Record<string, number> };

const lastIds = () =>
  queryLocal<Record<string, number>>(
    `SELECT ${WRITTEN.map((t) => `(SELECT coalesce(max(id), 0) FROM ${t} WHERE app_id = ${APP}) AS ${t}`).join(", ")}`,
  )[0]!;

/** Writes the store to local D1; its customers (with their homes) and the last row of each table a placement writes. */
export function seedMealStore(): MealStore {
  const started = Date.now();
  registerBenchStore(APP, "Meal orders bench");
  executeLocal(storeSql());
  const customers = queryLocal<Customer>(
    `SELECT c.id, l.id AS location_id FROM customers c JOIN customer_locations l ON l.customer_id = c.id
      WHERE c.app_id = ${APP} ORDER BY c.id`,
  );
  const [plans] = queryLocal<{ n: number }>(`SELECT count(*) AS n FROM plan_options WHERE app_id = ${APP}`);
  if (customers.length !== CUSTOMERS || !plans?.n)
    throw new Error(`store ${APP}: ${customers.length} customers and ${plans?.n} plan options seeded`);
  log(
    `store ${APP}: the demo meals data and ${customers.length} customers with a home and a wallet, in ${Date.now() - started} ms`,
  );
  return { customers, last: lastIds() };
}

/** What the store's placements wrote, for the counts: orders paid, subscriptions, suborders. */
function placed(s: MealStore) {
  const after = (t: string) => `app_id = ${APP} AND id > ${s.last[t] ?? 0}`;
  return queryLocal<{ orders: number; paid: number; subscriptions: number; suborders: number }>(
    `SELECT (SELECT count(*) FROM orders WHERE ${after("orders")}) AS orders,
      (SELECT count(*) FROM orders WHERE ${after("orders")} AND payment_status = 'paid' AND status = 'completed') AS paid,
      (SELECT count(*) FROM meal_subscriptions WHERE ${after("meal_subscriptions")} AND status = 'active') AS subscriptions,
      (SELECT count(*) FROM suborders WHERE ${after("suborders")}) AS suborders`,
  )[0]!;
}

/** The rows the placements wrote, deleted: every run starts at the store's size (and each wallet at its deposit). */
function trim(s: MealStore) {
  executeLocal(
    `${WRITTEN.map((t) => `DELETE FROM ${t} WHERE app_id = ${APP} AND id > ${s.last[t] ?? 0};`).join("\n")}
    DELETE FROM invoice_counters WHERE app_id = ${APP};`,
  );
}

/** The Place Order body of `plan`, as a client builds it from Plan Details: every date, the first option of each course. */
export async function bodyOf(api: string, plan: Plan) {
  const res = await sendFresh(`${api}/public-api/v1/plans/${plan.planId}/?plan_version_id=${plan.versionId}`, {
    headers: { "app-id": String(APP) },
  });
  if (res.status !== 200) throw new Error(`Plan Details ${plan.planId}: ${res.status} ${res.text}`);
  type Details = {
    start_date: string;
    dates: string[];
    repetition: number;
    masters: { repetition_counter: number; plan_categories: { id: number; options: { id: number }[] }[] }[];
  };
  const p = res.json() as Details;
  const days = [...p.masters].sort((x, y) => x.repetition_counter - y.repetition_counter);
  const dates = p.dates.map((date, n) => ({
    date,
    options: days[n % p.repetition]!.plan_categories.map((c) => ({
      plan_category_id: c.id,
      option_ids: [c.options[0]!.id],
    })),
  }));
  const base = { plan_version_id: plan.versionId, start_date: p.start_date, dates, delivery_window_id: BASE + 1 };
  return {
    deliveries: p.dates.length,
    of: (c: Customer) => JSON.stringify({ ...base, primary_location_id: c.location_id, payment_provider: "wallet" }),
  };
}

type Counts = { statements: number; roundTrips: number };

type MealPlacement = {
  plan: Plan;
  deliveries: number;
  bodyBytes: number;
  /** The counts of each of the COUNTED requests. */
  counts: Counts[];
  /** Of every load run and its warm-up: the answers by status, and what the database holds after. */
  answers: Record<number, number>;
  orders: number;
  paid: number;
  subscriptions: number;
  suborders: number;
};

/** One Place Order with `x-bench-count`: its counts from the bench entry's headers (bench/entry.ts). */
async function countOne(api: string, req: { headers: Record<string, string>; body: string }): Promise<Counts> {
  const res = await sendFresh(api + PATH, {
    method: "POST",
    headers: { ...req.headers, "x-bench-count": "1" },
    body: req.body,
  });
  if (res.status !== 201) throw new Error(`Place Order answered ${res.status}: ${res.text}`);
  const { order } = res.json() as { order: { payment_status: string } };
  if (order.payment_status !== "paid") throw new Error(`Place Order left the order ${order.payment_status}`);
  return { statements: res.header("x-bench-statements"), roundTrips: res.header("x-bench-round-trips") };
}

/**
 * The Place Order measures, one per plan, to be interleaved with the floor's: each request by the
 * next customer in turn, with its own token and Idempotency-Key. Before them, COUNTED requests of
 * each plan one at a time, their statements and round trips counted. After each run, its orders
 * are counted against its answers, then deleted.
 */
async function mealOrderRuns(api: string, s: MealStore) {
  const tokens = await customerTokens(
    APP,
    s.customers.map((c) => c.id),
  );
  let turn = 0;
  const request = (body: (c: Customer) => string) => {
    const c = s.customers[turn++ % s.customers.length]!;
    return {
      headers: {
        "app-id": String(APP),
        authorization: `Bearer ${tokens.get(c.id)}`,
        "content-type": "application/json",
        "idempotency-key": `bench-${randomUUID()}`,
      },
      body: body(c),
    };
  };
  const placements: MealPlacement[] = [];
  const runs: (() => Promise<Result>)[] = [];
  for (const plan of PLANS) {
    const body = await bodyOf(api, plan);
    const counts: Counts[] = [];
    for (let i = 0; i < COUNTED; i++) counts.push(await countOne(api, request(body.of)));
    const p = placed(s);
    if (p.paid !== COUNTED || p.subscriptions !== COUNTED || p.suborders !== COUNTED * body.deliveries)
      throw new Error(`${plan.name}: ${JSON.stringify(p)} after ${COUNTED} orders of ${body.deliveries} deliveries`);
    trim(s);
    const c = counts[0]!;
    log(`${plan.name}: ${c.statements} statements in ${c.roundTrips} round trips`);
    const m: MealPlacement = {
      plan,
      deliveries: body.deliveries,
      bodyBytes: Buffer.byteLength(body.of(s.customers[0]!)),
      counts,
      answers: {},
      orders: 0,
      paid: 0,
      subscriptions: 0,
      suborders: 0,
    };
    placements.push(m);
    runs.push(async () => {
      const r = await load(api, {
        setup: (req) => ({ ...req, method: "POST", path: PATH, ...request(body.of) }),
        warmup: WARMUP,
        onStatus: (status) => {
          m.answers[status] = (m.answers[status] ?? 0) + 1;
        },
      });
      // Requests cut off at the end of the run may still land: counted once the API has had a moment.
      await sleep(1_000);
      const after = placed(s);
      m.orders += after.orders;
      m.paid += after.paid;
      m.subscriptions += after.subscriptions;
      m.suborders += after.suborders;
      trim(s);
      return r;
    });
  }
  return { placements, runs };
}

type MealOrderRow = MealPlacement & { r: Result; floor: Result };

/** The counts of a row: the median of its counted requests, and their range when they differ. */
function counted(row: MealOrderRow, key: keyof Counts): string {
  const xs = row.counts.map((c) => c[key]);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? String(lo) : `${median(xs)} (${lo}-${hi})`;
}

function mealOrdersSection(rows: MealOrderRow[]): string[] {
  const answered = (r: MealOrderRow) => r.answers[201] ?? 0;
  const others = (r: MealOrderRow) =>
    Object.entries(r.answers)
      .filter(([status]) => status !== "201")
      .map(([status, n]) => `${n} x ${status}`)
      .join(", ") || "none";
  return [
    "`POST /api/v1/orders/` (Place Order), paid from the customer's wallet: the payment that completes in the request, so " +
      "that each one places the order, pays it and starts the meal subscription, active, with one suborder per delivery date " +
      "(a card leaves a pending order with a payment URL; cash on delivery one that starts nothing until captured). " +
      `A store of its own, generated inside SQLite: the demo meals data (Green Bowl, its plans), a delivery zone over central ` +
      `Riyadh, ${count(CUSTOMERS)} customers each with a home inside it and cashback for hundreds of orders. Each request is the next ` +
      "customer's in turn, with their access token and an Idempotency-Key of its own, its body as a client builds it from " +
      "Plan Details (every delivery date from the first start date, the first option of each course), " +
      `after ${WARMUP} orders of warm-up. The orders a run placed are deleted after it (with their invoices, wallet entries, ` +
      "subscription and suborders; their events' outbox rows stay, as in Checkout): every run starts at the store's size.",
    "",
    `| plan | deliveries | body bytes | ${FLOOR_COLUMNS.head}`,
    `|---|---:|---:|${FLOOR_COLUMNS.rule}`,
    ...rows.map(
      (row) => `| ${row.plan.name} | ${row.deliveries} | ${count(row.bodyBytes)} | ${floorCells(row.r, row.floor)}`,
    ),
    "",
    `D1 per Place Order, counted by the bench's entry around the Worker on ${COUNTED} requests of each plan sent one at a time ` +
      "before the load (header `x-bench-count`): the request's binding counts every statement prepared (each one in a batch " +
      "included) and every round trip (a batch, or a statement run alone), the work it leaves to run after the response " +
      "(the events' send to the queue, which marks their outbox rows) included.",
    "",
    "| plan | statements | round trips |",
    "|---|---:|---:|",
    ...rows.map((row) => `| ${row.plan.name} | ${counted(row, "statements")} | ${counted(row, "roundTrips")} |`),
    "",
    "What the runs placed (warm-ups included), against their answers. The load stops with a request in flight on each " +
      `connection (at most ${CONNECTIONS} a run, unanswered to the bench), which the API still completes: those are ` +
      "the orders beyond the answers.",
    ...rows.map(
      (row) =>
        `- ${row.plan.name}: ${count(answered(row))} answered 201 (other answers: ${others(row)}); ` +
        `${count(row.orders)} orders placed (${row.orders - answered(row)} beyond the answers), ` +
        `${count(row.paid)} of them paid, ${count(row.subscriptions)} subscriptions active with ` +
        `${count(row.suborders)} suborders (${fmt(row.suborders / Math.max(row.subscriptions, 1))} each)`,
    ),
  ];
}

export const mealOrders: Scenario = {
  name: "meal-orders",
  heading: "## Meals: Place Order",
  goal:
    "every order placed, paid and its subscription started as answered; the D1 statements and round trips of one Place " +
    "Order (what it waits for in sequence); req/s and p50 beside the D1 floor of the same runs (no threshold set).",
  async run() {
    const store = seedMealStore();
    await startApi();
    await startBare();
    const m = await mealOrderRuns(API, store);
    log("measuring meals Place Order");
    const { floor: f, results } = await againstFloor(floor.d1, m.runs);
    return mealOrdersSection(m.placements.map((p, j) => ({ ...p, r: results[j]!, floor: f })));
  },
};
