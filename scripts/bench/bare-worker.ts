import { Hono } from "hono";

// The baseline: a bare Hono JSON route in the same runtime (workerd under wrangler dev).
const app = new Hono();
app.get("/bare", (c) => c.json({ count: 0, next: null, previous: null, results: [] }));

export default app;
