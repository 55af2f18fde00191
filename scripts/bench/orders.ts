/**
 * `--only orders`: List Orders (the
 * default page, filtered by status, searched by a customer's mobile number) and Checkout, in a store
 * of 1,000 orders and in one of 100,000, against the bare route in the same interleaved runs.
 *
 * Each size is a store (app) of its own, generated inside SQLite: its customers (25 orders each, so
 * that a search for one customer finds the same orders at any size), its products, its orders of 1
 * to 3 lines with their invoices and invoice lines, and open carts for the checkouts to place.
 */
import type autocannon from "autocannon";
import { executeLocal, queryLocal } from "../d1";
import {
  againstFloor,
  atD1Floor,
  count,
  customerTokens,
  FLOOR_COLUMNS,
  floor,
  floorCells,
  fmt,
  GROWTH,
  growth,
  log,
  merchantHeaders,
  met,
  registerBenchStore,
  type Scenario,
  type Served,
  startApi,
  startBare,
} from "./harness";
import { CONNECTIONS, load, type Result } from "./load";
import { FULL_ITEMS_WHY } from "./merchant-lists";

type OrderStore = { appId: number; orders: number };

/** The two sizes, each in its own store, so that they never mix. */
const ORDER_STORES: readonly OrderStore[] = [
  { appId: 11, orders: 1_000 },
  { appId: 12, orders: 100_000 },
];
const ORDERS_PER_CUSTOMER = 25;
const PRODUCTS = 5;
/** Open carts seeded per store: every checkout of every run (and its warm-up) takes one. */
const CARTS = Number(process.env.BENCH_CARTS ?? 5_000);
const CHECKOUT_WARMUP = 50;
const NOW = "2026-11-01T09:00:00.000Z";
/** A fragment of customer 17's mobile number (966550000017), found in no other customer's. */
const SEARCH_TERM = "50000017";

const base = "/order/v1/merchant/orders/";
const ORDER_LISTS = [
  { name: "List Orders: default page (newest first)", query: "" },
  { name: "List Orders: filtered, status=completed", query: "status=completed" },
  { name: "List Orders: searched, a customer's mobile number fragment", query: `search=${SEARCH_TERM}` },
] as const;
const CHECKOUT = "Checkout (cash on delivery, one line)";

/**
 * The store's rows, generated in SQLite: `n` is the row's number, the statuses cycle in twenties
 * (12 completed, 2 pending, 3 cancelled, 1 expired, 2 refunded), the providers in eighties, and
 * the orders are spread over the year before NOW, oldest first.
 */
function storeSql(s: OrderStore): string {
  const A = s.appId;
  const N = s.orders;
  const C = Math.max(1, Math.round(N / ORDERS_PER_CUSTOMER));
  const firstCustomer = `(SELECT min(id) FROM customers WHERE app_id = ${A})`;
  const firstOrder = `(SELECT min(id) FROM orders WHERE app_id = ${A})`;
  const lines = "(SELECT 0 AS j UNION ALL SELECT 1 UNION ALL SELECT 2)";
  // Line j of order number i: product (i + j) % 5, quantity 1 + (i + j) % 2; order i has 1 + i % 3 lines.
  const price = (k: string) => `(2500 + 1500 * (${k}))`;
  return `
INSERT INTO apps (id, org_id, name_en, name_ar, created_at)
  VALUES (${A}, 1, 'Orders bench, ${N.toLocaleString("en")} orders', 'متجر قياس الطلبات', '${NOW}');
INSERT INTO items (app_id, type, service_type, sku, price_minor, name_en, name_ar, stock_qty, ordering)
  WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < ${PRODUCTS - 1})
  SELECT ${A}, 'product', 'pickup', 'ORDERS-BENCH-' || k, ${price("k")}, 'Bench product ' || k, 'منتج ' || k, 100000000, k FROM k;
INSERT INTO customers (app_id, created_at, modified_at, country_code, mobile_number, username, name, email, joined_at, is_mobile_verified)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${C - 1})
  SELECT ${A}, '${NOW}', '${NOW}', '966', '96655' || printf('%07d', k), '055' || printf('%07d', k), 'Customer ' || k,
    'customer' || k || '@example.com', '${NOW}', 1 FROM n;
INSERT INTO orders (app_id, created_at, modified_at, kind, customer_id, reference, status, payment_status, fulfillment_status,
    payment_provider, payment_method, cart_provider, currency, sub_total_minor, total_minor, captured_minor, refunded_minor,
    paid_at, cancelled_at)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${N}),
  o AS (
    SELECT i,
      CASE WHEN i % 20 < 12 THEN 'completed' WHEN i % 20 < 14 THEN 'pending' WHEN i % 20 < 17 THEN 'cancelled'
        WHEN i % 20 < 18 THEN 'expired' ELSE 'refunded' END AS status,
      CASE (i / 20) % 4 WHEN 0 THEN 'card' WHEN 1 THEN 'cash_on_delivery' WHEN 2 THEN 'wallet' ELSE 'bank_transfer' END AS provider,
      strftime('%Y-%m-%dT%H:%M:%fZ', '${NOW}', '-' || ((${N} - i) * 525600 / ${N}) || ' minutes') AS at,
      (SELECT sum(${price("(i + j) % 5")} * (1 + (i + j) % 2)) FROM ${lines} WHERE j <= i % 3) AS total
    FROM n)
  SELECT ${A}, at, at, 'purchase', ${firstCustomer} + i % ${C}, CASE WHEN i % 10 = 0 THEN 'POS-' || printf('%06d', i) END,
    status,
    CASE status WHEN 'completed' THEN 'paid' WHEN 'refunded' THEN 'refunded'
      WHEN 'pending' THEN CASE provider WHEN 'bank_transfer' THEN 'pending_review' ELSE 'unpaid' END ELSE 'failed' END,
    CASE status WHEN 'completed' THEN 'delivered' WHEN 'refunded' THEN 'returned' ELSE 'unfulfilled' END,
    provider, CASE provider WHEN 'card' THEN 'mada' ELSE provider END, CASE WHEN i % 10 = 0 THEN 'pos' ELSE 'app' END, 'SAR',
    total, total, CASE status WHEN 'completed' THEN total ELSE 0 END, CASE status WHEN 'refunded' THEN total ELSE 0 END,
    CASE WHEN status IN ('completed', 'refunded') THEN at END, CASE status WHEN 'cancelled' THEN at END
  FROM o;
INSERT INTO order_items (app_id, order_id, item_id, name_en, name_ar, sku, qty, unit_price_minor, amount_minor, total_minor,
    tax_percentage_bp, tax_minor, total_excluding_tax_minor, created_at)
  SELECT ${A}, l.order_id, it.id, it.name_en, it.name_ar, it.sku, l.qty, it.price_minor, it.price_minor * l.qty,
    it.price_minor * l.qty, 1500, it.price_minor * l.qty * 1500 / 11500,
    it.price_minor * l.qty - it.price_minor * l.qty * 1500 / 11500, l.created_at
  FROM (SELECT o.id AS order_id, o.created_at, j, 'ORDERS-BENCH-' || ((o.i + j) % ${PRODUCTS}) AS sku, 1 + (o.i + j) % 2 AS qty
      FROM (SELECT id, created_at, id - ${firstOrder} + 1 AS i FROM orders WHERE app_id = ${A}) o
      JOIN ${lines} ON j <= o.i % 3) l
    JOIN items it ON it.app_id = ${A} AND it.sku = l.sku
  ORDER BY l.order_id, l.j;
INSERT INTO invoices (app_id, created_at, modified_at, order_id, customer_id, type, status, serial, issued_at, currency,
    sub_total_minor, total_minor, total_excluding_tax_minor, tax_minor, tax_percentage_bp, payment_provider, payment_method)
  SELECT ${A}, o.created_at, o.created_at, o.id, o.customer_id, 'invoice',
    CASE WHEN o.status IN ('completed', 'refunded') THEN 'paid' WHEN o.status = 'pending' THEN 'unpaid' ELSE 'void' END,
    CASE WHEN o.status IN ('completed', 'refunded') THEN 'INV-' || (o.id - ${firstOrder} + 1) END, o.created_at, o.currency,
    o.sub_total_minor, o.total_minor, o.total_minor - t.tax, t.tax, 1500, o.payment_provider, o.payment_method
  FROM orders o JOIN (SELECT order_id, sum(tax_minor) AS tax FROM order_items WHERE app_id = ${A} GROUP BY order_id) t
    ON t.order_id = o.id
  WHERE o.app_id = ${A} ORDER BY o.id;
INSERT INTO invoice_items (app_id, invoice_id, order_item_id, item_id, name_en, name_ar, qty, amount_minor, total_minor,
    tax_percentage_bp, tax_minor, total_excluding_tax_minor, created_at)
  SELECT ${A}, inv.id, oi.id, oi.item_id, oi.name_en, oi.name_ar, oi.qty, oi.amount_minor, oi.total_minor,
    oi.tax_percentage_bp, oi.tax_minor, oi.total_excluding_tax_minor, oi.created_at
  FROM order_items oi JOIN invoices inv ON inv.order_id = oi.order_id
  WHERE oi.app_id = ${A} ORDER BY oi.id;
INSERT INTO invoice_counters (app_id, last_number) VALUES (${A}, ${N});
INSERT INTO carts (app_id, created_at, modified_at, customer_id, status, cart_provider, quoted_total_minor)
  WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CARTS - 1})
  SELECT ${A}, '${NOW}', '${NOW}', ${firstCustomer} + k % ${C}, 'open', 'app', ${price(`k % ${PRODUCTS}`)} FROM n;
INSERT INTO cart_items (app_id, cart_id, item_id, qty, unit_price_minor, created_at)
  SELECT ${A}, c.id, it.id, 1, it.price_minor, c.created_at
  FROM (SELECT id, created_at, 'ORDERS-BENCH-' || ((id - (SELECT min(id) FROM carts WHERE app_id = ${A})) % ${PRODUCTS}) AS sku
      FROM carts WHERE app_id = ${A}) c
    JOIN items it ON it.app_id = ${A} AND it.sku = c.sku
  ORDER BY c.id;`;
}

type Cart = { id: number; customer_id: number };
type SeededStore = OrderStore & {
  headers: Record<string, string>;
  carts: Cart[];
  lastOrderId: number;
  matching: Record<string, number>;
  /** The lists measured by one request only (see `orderRuns`). */
  unloaded: Record<string, { ms: number; timedOut: boolean }>;
};

/** Writes each store to local D1 (run before the API serves); its merchant token and open carts. */
async function seedOrderStores(): Promise<SeededStore[]> {
  const out: SeededStore[] = [];
  for (const s of ORDER_STORES) {
    const started = Date.now();
    registerBenchStore(s.appId, "Orders bench");
    executeLocal(storeSql(s));
    const [last] = queryLocal<{ id: number; n: number }>(
      `SELECT max(id) AS id, count(*) AS n FROM orders WHERE app_id = ${s.appId}`,
    );
    if (last?.n !== s.orders) throw new Error(`store ${s.appId}: ${last?.n} orders seeded, ${s.orders} expected`);
    const carts = queryLocal<Cart>(
      `SELECT id, customer_id FROM carts WHERE app_id = ${s.appId} AND status = 'open' ORDER BY id`,
    );
    log(
      `store ${s.appId}: ${s.orders} orders with their lines and invoices, ${carts.length} open carts, in ${Date.now() - started} ms`,
    );
    out.push({
      ...s,
      headers: await merchantHeaders(s.appId, ["can_read_order"]),
      carts,
      lastOrderId: last.id,
      matching: {},
      unloaded: {},
    });
  }
  return out;
}

/** The orders a checkout run placed, with their lines, invoices and transactions: each run starts at the store's size. */
function trimCheckouts(s: SeededStore) {
  const A = s.appId;
  const L = s.lastOrderId;
  executeLocal(`DELETE FROM invoice_items WHERE invoice_id IN (SELECT id FROM invoices WHERE app_id = ${A} AND order_id > ${L});
    DELETE FROM invoices WHERE app_id = ${A} AND order_id > ${L};
    DELETE FROM transactions WHERE app_id = ${A} AND order_id > ${L};
    DELETE FROM order_items WHERE app_id = ${A} AND order_id > ${L};
    DELETE FROM orders WHERE app_id = ${A} AND id > ${L};`);
}

/** A list whose first request takes longer is not loaded (see `orderRuns`); one that takes this long is abandoned. */
const SLOW_MS = 1_000;
const TIMEOUT_MS = 10_000;

/** One timed request: its time and count, or null when it was abandoned after TIMEOUT_MS. */
async function probe(url: string, headers: Record<string, string>) {
  const t = performance.now();
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    const { count } = (await res.json()) as { count: number };
    return { ms: Math.round(performance.now() - t), count };
  } catch (error) {
    if ((error as Error).name === "TimeoutError") return null;
    throw error;
  }
}

/**
 * The measures of one store, to be interleaved with the bare route's: its three lists, then
 * checkouts, each request on an open cart of its own with its customer's access token.
 *
 * Each list is first requested alone. One that takes over SLOW_MS is not loaded: local D1 runs one
 * statement at a time, so ten connections of it would queue behind each other (and hold up every
 * other measure) for minutes; its row shows that one request. One that takes over TIMEOUT_MS is
 * abandoned, and the API restarted: a statement cannot be interrupted, and this one would keep
 * local D1 busy after the answer is no longer awaited.
 */
async function orderRuns(server: Served, s: SeededStore) {
  const api = server.url;
  for (const l of ORDER_LISTS) {
    const url = `${api}${base}?${l.query}`;
    // Twice when slow: the first request after the API starts pays for its start.
    let p = await probe(url, s.headers);
    if (p && p.ms > SLOW_MS) p = await probe(url, s.headers);
    if (!p) {
      log(`${l.name} at ${s.orders} orders: no answer in ${TIMEOUT_MS} ms; restarting the API`);
      await server.restart();
      s.unloaded[l.name] = { ms: TIMEOUT_MS, timedOut: true };
      continue;
    }
    s.matching[l.name] = p.count;
    if (p.ms > SLOW_MS) {
      log(`${l.name} at ${s.orders} orders: one request took ${p.ms} ms; not loaded`);
      s.unloaded[l.name] = { ms: p.ms, timedOut: false };
    }
  }
  const tokens = await customerTokens(
    s.appId,
    s.carts.map((c) => c.customer_id),
  );
  const body = JSON.stringify({ payment_provider: "cash_on_delivery" });
  const request = (cart: Cart) => ({
    path: `/order/v1/carts/${cart.id}/checkout/`,
    headers: {
      "app-id": String(s.appId),
      authorization: `Bearer ${tokens.get(cart.customer_id)}`,
      "content-type": "application/json",
    },
  });
  // One checkout first, checked: it takes a cart, and its order goes with the runs' ones.
  const first = request(s.carts[0]!);
  const res = await fetch(api + first.path, { method: "POST", headers: first.headers, body });
  if (res.status !== 201) throw new Error(`Checkout answered ${res.status}: ${await res.text()}`);
  let next = 1;
  // Past the last open cart, cart 0: a 404 that the errors column shows (seed more with BENCH_CARTS).
  const checkout = (req: autocannon.Request): autocannon.Request => ({
    ...req,
    method: "POST",
    ...request(s.carts[next++] ?? { id: 0, customer_id: s.carts[0]!.customer_id }),
    body,
  });
  trimCheckouts(s);
  const notLoaded: Result = {
    rps: Number.NaN,
    p50: Number.NaN,
    p95: Number.NaN,
    p99: Number.NaN,
    non2xx: 0,
    cpu: null,
  };
  return [
    ...ORDER_LISTS.map(
      (l) => async () => (s.unloaded[l.name] ? notLoaded : load(`${api}${base}?${l.query}`, { headers: s.headers })),
    ),
    async () => {
      const r = await load(api, { setup: checkout, warmup: CHECKOUT_WARMUP });
      trimCheckouts(s);
      return r;
    },
  ];
}

type OrderRow = { operation: string; store: SeededStore; r: Result; floor: Result };

function ordersSection(rows: OrderRow[]): string[] {
  const operations = [...ORDER_LISTS.map((l) => l.name), CHECKOUT];
  /** The p50 of a row, or the time of its one request when it was not loaded. */
  const p50 = (row: OrderRow) => row.store.unloaded[row.operation]?.ms ?? row.r.p50;
  const growths = operations.map((op) => {
    const [small, large] = ORDER_STORES.map((s) => rows.find((r) => r.operation === op && r.store.appId === s.appId)!);
    const g = growth(p50(small!), small!.floor, p50(large!), large!.floor);
    const alone = [small!, large!].flatMap((r) => {
      const u = r.store.unloaded[op];
      if (!u) return [];
      const at = `at ${count(r.store.orders)}`;
      return [u.timedOut ? `${at}, one request had no answer in ${u.ms} ms` : `${at}, one request took ${u.ms} ms`];
    });
    const ratio = alone.some((a) => a.includes("no answer")) ? `> ${fmt(g)}x` : `${fmt(g)}x`;
    const why = alone.length ? `; not loaded: ${alone.join(", ")}` : "";
    return `- ${op}: **${ratio}** (${met(g <= 1.5 && !why)}${why})`;
  });
  const cells = ({ operation, store, r, floor }: OrderRow) => {
    const u = store.unloaded[operation];
    if (!u) return floorCells(r, floor);
    return `- | ${u.timedOut ? `> ${u.ms}` : u.ms} (one request) | - | - | ${fmt(floor.rps)} | ${floor.p50} | - | - | - |`;
  };
  return [
    `Each size is a store of its own (${ORDER_STORES.map((s) => count(s.orders)).join(" and ")} orders of 1 to 3 lines, ` +
      `each with its invoice and invoice lines; customers of ${ORDERS_PER_CUSTOMER} orders each), generated inside SQLite. ` +
      "Merchant token with `can_read_order`; the default page size (20).",
    "",
    ...ORDER_LISTS.map((l) => `- ${l.name}: \`GET ${base}${l.query ? `?${l.query}` : ""}\``),
    `- ${CHECKOUT}: \`POST /order/v1/carts/{cart_id}/checkout/\` with \`{"payment_provider":"cash_on_delivery"}\`, ` +
      "each request on an open cart of its own (one line, a product with plenty of stock) with its customer's access token, " +
      `after ${CHECKOUT_WARMUP} checkouts of warm-up. The orders a run placed are deleted after it: every run starts at the store's size.`,
    "",
    `A list whose first request takes over ${SLOW_MS} ms is not loaded (local D1 runs one statement at a time: ${CONNECTIONS} ` +
      "connections of it would queue for minutes and hold up the other measures); its row shows that one request. " +
      `Without an answer in ${TIMEOUT_MS} ms the request is abandoned and the API restarted (the statement cannot be interrupted).`,
    "A list is its token's lookup, then one statement: the count, the page and every order's lines, invoices, customer and full items.",
    "",
    `| operation | orders in store | matching | ${FLOOR_COLUMNS.head}`,
    `|---|---:|---:|${FLOOR_COLUMNS.rule}`,
    ...rows.map(
      (row) =>
        `| ${row.operation} | ${count(row.store.orders)} | ${row.store.matching[row.operation] ?? "-"} | ${cells(row)}`,
    ),
    "",
    "Measured, growth from 1,000 to 100,000 orders:",
    ...growths,
    "",
    "The lists against the D1 floor (the goal of uncached lists: p50 within 1.5x, req/s at least 0.6):",
    ...rows
      .filter((row) => row.operation !== CHECKOUT && !row.store.unloaded[row.operation])
      .map((row) => `- ${row.operation}, ${count(row.store.orders)}: ${atD1Floor(row.r, row.floor)}`),
    ...FULL_ITEMS_WHY,
  ];
}

export const orders: Scenario = {
  name: "orders",
  heading: "## List Orders and Checkout",
  goal: `${GROWTH}, for each list and for Checkout.`,
  async run() {
    const stores = await seedOrderStores();
    const api = await startApi();
    await startBare();
    const rows: OrderRow[] = [];
    for (const s of stores) {
      const runs = await orderRuns(api, s);
      log(`measuring at ${count(s.orders)} orders`);
      const m = await againstFloor(floor.d1, runs);
      const operations = [...ORDER_LISTS.map((l) => l.name), CHECKOUT];
      rows.push(...operations.map((operation, j) => ({ operation, store: s, r: m.results[j]!, floor: m.floor })));
    }
    return ordersSection(rows);
  },
};
