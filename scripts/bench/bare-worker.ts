import { Hono } from "hono";

// The baselines: a bare Hono JSON route, and the same route reading one small value from KV, in
// the same runtime (workerd under wrangler dev) as the API.
// (The scripts are typed for Node: the one KV method pair used is declared here.)
type Kv = { get(key: string, type: "json"): Promise<unknown>; put(key: string, value: string): Promise<void> };
const app = new Hono<{ Bindings: { KV: Kv } }>();
const body = { count: 0, next: null, previous: null, results: [] };
app.get("/bare", (c) => c.json(body));
app.get("/bare-kv", async (c) => {
  const value = await c.env.KV.get("bare", "json");
  if (value === null) await c.env.KV.put("bare", JSON.stringify(body));
  return c.json(value ?? body);
});

export default app;
