import { Hono } from "hono";

// The floors: a bare Hono JSON route, the same route reading one small value from KV, and the same
// route doing one D1 round trip that returns a page of 20 rows assembled as JSON by SQLite, in the
// same runtime (workerd, served by bench/serve.ts) as the API.
// (The scripts are typed for Node: the few binding methods used are declared here.)
type Kv = {
  get(key: string, type: "json" | "arrayBuffer"): Promise<unknown>;
  put(key: string, value: string | Uint8Array): Promise<void>;
};
type Stmt = { first<T>(): Promise<T | null>; run(): Promise<unknown> };
type D1 = { prepare(q: string): Stmt; batch(s: Stmt[]): Promise<unknown> };
const app = new Hono<{ Bindings: { KV: Kv; DB: D1 } }>();
const body = { count: 0, next: null, previous: null, results: [] };
app.get("/bare", (c) => c.json(body));
app.get("/bare-kv", async (c) => {
  const value = await c.env.KV.get("bare", "json");
  if (value === null) await c.env.KV.put("bare", JSON.stringify(body));
  return c.json(value ?? body);
});

/**
 * The KV floor of a large cached read: one KV value of as many bytes as the read sends (random, so
 * as incompressible as the read's gzipped body), written on the first request.
 */
app.get("/bare-kv/:bytes{[0-9]+}", async (c) => {
  const size = Number(c.req.param("bytes"));
  const key = `bytes:${size}`;
  let value = (await c.env.KV.get(key, "arrayBuffer")) as ArrayBuffer | null;
  if (value === null) {
    const bytes = new Uint8Array(size);
    // getRandomValues fills at most 65,536 bytes a call.
    for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65_536)));
    await c.env.KV.put(key, bytes);
    value = bytes.buffer;
  }
  return c.body(value, 200, { "content-type": "application/octet-stream" });
});

/** 1,000 rows shaped like a list's (names in two scripts, a status, an amount, dates), made once. */
let ready: Promise<unknown> | undefined;
const prepareFloor = (db: D1) =>
  db.batch([
    db.prepare(`CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, name_en TEXT NOT NULL, name_ar TEXT NOT NULL,
      status TEXT NOT NULL, total_minor INTEGER NOT NULL, date TEXT NOT NULL, customer_name TEXT, created_at TEXT NOT NULL)`),
    db.prepare(`INSERT INTO floor_rows (id, name_en, name_ar, status, total_minor, date, customer_name, created_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
      SELECT i, 'Row ' || i, 'صف ' || i, CASE i % 3 WHEN 0 THEN 'pending' WHEN 1 THEN 'confirmed' ELSE 'cancelled' END,
        1000 + i, date('2026-12-01', '+' || (i % 30) || ' days'), 'Guest ' || i, '2026-11-01T00:00:00.000Z'
      FROM n WHERE NOT EXISTS (SELECT 1 FROM floor_rows)`),
  ]);

/** The D1 floor: the count and a page of 20 rows, as the list envelope, built by SQLite in one statement. */
app.get("/bare-d1", async (c) => {
  ready ??= prepareFloor(c.env.DB);
  await ready;
  const row = await c.env.DB.prepare(
    `SELECT json_object('count', (SELECT count(*) FROM floor_rows), 'next', NULL, 'previous', NULL,
      'results', (SELECT json_group_array(json_object('id', id, 'name_en', name_en, 'name_ar', name_ar, 'status', status,
        'total_amount', total_minor / 100.0, 'date', date, 'customer_name', customer_name, 'created_at', created_at))
        FROM (SELECT * FROM floor_rows ORDER BY id DESC LIMIT 20))) AS body`,
  ).first<{ body: string }>();
  return c.body(row!.body, 200, { "content-type": "application/json" });
});

export default app;
