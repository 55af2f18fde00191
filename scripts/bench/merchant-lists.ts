/**
 * `--only tickets` (List Tickets, filtered, searched and ordered, at 1,000 and at 100,000 tickets)
 * and `--only items` (List Items in a catalogue of 10,000): merchant lists against the D1 floor of
 * the same runs. A merchant list is two round trips: its token's lookup (at most once a second per
 * isolate), then one statement for the count, the page and every nested level.
 */
import { executeLocal } from "../d1";
import {
  API,
  AT_D1_FLOOR,
  againstFloor,
  atD1Floor,
  count,
  FLOOR_COLUMNS,
  floor,
  floorCells,
  fmt,
  GROWTH,
  growth,
  log,
  merchantHeaders,
  met,
  type Scenario,
  startApi,
  startBare,
} from "./harness";
import { load, type Result } from "./load";

const PERMISSIONS = ["can_read_order", "can_read_item"];

const TICKET_LISTS = [
  {
    name: "filtered, searched, ordered: pending from a date on, one customer family, newest date first",
    query: "status=pending&date__gte=2026-12-10&search=Family0017&order_by=-date&page_size=20",
  },
  {
    name: "door list (no search): one day, pending, by time",
    query: "date=2026-12-15&status=pending&order_by=time&page_size=20",
  },
];
const TICKETS = "/order/v1/merchant/fulfillments/tickets/";

/** Why the lists of full Items (List Tickets, List Items, List Orders' lines) stay under the D1 floor, and the next step. */
export const FULL_ITEMS_WHY = [
  "",
  "Why not at the floor, and the next step: each result carries the full Item (variants, modifiers, images, " +
    "discount, stock), which the list's one statement builds as nested JSON, eleven levels deep. SQLite compiles " +
    "that statement anew on each request (local D1 keeps no prepared statements across requests): about 1.6 ms of " +
    "CPU here, against about 1.7 ms for the whole floor request, which reads 20 plain rows. Folding the nested sets " +
    "into one WITH clause took about 30% off the compile. Next: keep each item's full JSON in a column written in " +
    "the item's own batch (and refreshed by each change to what it nests), so that a list reads one level; and " +
    "measure whether deployed D1 reuses prepared statements, which would make this a local cost only.",
];
const SIZES = [1_000, 100_000];
/** Tickets of app 1 in the demo seed. */
const SEEDED_TICKETS = 24;

/**
 * Adds tickets `from`..`to` for app 1, generated inside SQLite. Customers are families of about 25
 * tickets each, as in a store where a customer's tickets do not grow with the store: a search for
 * one family finds a few dozen tickets at any size.
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

type Row = { name: string; size: number; matched: number; r: Result; floor: Result };

export const tickets: Scenario = {
  name: "tickets",
  heading: "## List Tickets",
  goal: `${GROWTH}; at both sizes, ${AT_D1_FLOOR}.`,
  async run() {
    const headers = await merchantHeaders(1, PERMISSIONS);
    await startApi();
    await startBare();
    const rows: Row[] = [];
    let current = SEEDED_TICKETS;
    for (const size of SIZES) {
      log(`growing app 1 to ${count(size)} tickets`);
      growTickets(current + 1, size);
      current = size;
      const urls = TICKET_LISTS.map((l) => `${API}${TICKETS}?${l.query}`);
      const matched: number[] = [];
      for (const url of urls) {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`List Tickets answered ${res.status}: ${await res.text()}`);
        matched.push(((await res.json()) as { count: number }).count);
      }
      const m = await againstFloor(
        floor.d1,
        urls.map((url) => () => load(url, { headers })),
      );
      for (const [j, l] of TICKET_LISTS.entries())
        rows.push({ name: l.name, size, matched: matched[j]!, r: m.results[j]!, floor: m.floor });
    }
    return [
      ...TICKET_LISTS.map((l) => `- ${l.name}: \`GET ${TICKETS}?${l.query}\``),
      "",
      `| scenario | tickets in store | matching | ${FLOOR_COLUMNS.head}`,
      `|---|---:|---:|${FLOOR_COLUMNS.rule}`,
      ...rows.map((r) => `| ${r.name} | ${count(r.size)} | ${r.matched} | ${floorCells(r.r, r.floor)}`),
      "",
      "Measured, growth from 1,000 to 100,000 tickets:",
      ...TICKET_LISTS.map((l) => {
        const [small, large] = rows.filter((r) => r.name === l.name) as [Row, Row];
        const g = growth(small.r.p50, small.floor, large.r.p50, large.floor);
        return `- ${l.name}: **${fmt(g)}x** (${met(g <= 1.5)})`;
      }),
      "",
      "Against the D1 floor:",
      ...rows.map((r) => `- ${r.name}, ${count(r.size)}: ${atD1Floor(r.r, r.floor)}`),
      ...FULL_ITEMS_WHY,
    ];
  },
};

const ITEMS = "/order/v1/merchant/items/?type=product&order_by=-price&page_size=20";

export const items: Scenario = {
  name: "items",
  heading: "## List Items",
  goal: `${AT_D1_FLOOR}, with 10,000 items in the store.`,
  async run() {
    const headers = await merchantHeaders(1, PERMISSIONS);
    executeLocal(`INSERT INTO items (app_id, type, service_type, sku, price_minor, name_en, name_ar, stock_qty, ordering)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
      SELECT 1, CASE i % 3 WHEN 0 THEN 'product' WHEN 1 THEN 'service' ELSE 'ticket' END, 'pickup', 'BENCH-' || i, 1000 + i % 500,
        'Bench item ' || i, 'صنف ' || i, i % 50, i FROM n;
      INSERT INTO item_modifier_categories (app_id, item_id, category_id) SELECT 1, id, 1 FROM items WHERE sku LIKE 'BENCH-%' AND id % 2 = 0;
      INSERT INTO item_category_links (app_id, item_id, category_id) SELECT 1, id, 1 FROM items WHERE sku LIKE 'BENCH-%';`);
    await startApi();
    await startBare();
    const res = await fetch(API + ITEMS, { headers });
    if (!res.ok) throw new Error(`List Items answered ${res.status}: ${await res.text()}`);
    const m = await againstFloor(floor.d1, [() => load(API + ITEMS, { headers })]);
    const r = m.results[0]!;
    return [
      "10,000 items in the store (half offering a modifier category, all in a category): " +
        `\`GET ${ITEMS}\`, each result the full Item object (variants, modifiers, images, discount, stock).`,
      "",
      `| scenario | ${FLOOR_COLUMNS.head}`,
      `|---|${FLOOR_COLUMNS.rule}`,
      `| List Items, 10,000 items | ${floorCells(r, m.floor)}`,
      "",
      `Measured: ${atD1Floor(r, m.floor)}.`,
      ...FULL_ITEMS_WHY,
    ];
  },
};
