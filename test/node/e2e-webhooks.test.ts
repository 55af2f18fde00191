/**
 * End to end: the Worker under `wrangler dev` (local D1 and Queues) delivers webhooks to a real
 * HTTP receiver on this machine, which verifies every delivery with the `standardwebhooks`
 * library and fails the first attempts. Every event must end delivered exactly once per
 * webhook-id, or dead-lettered: none lost.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomToken, sha256Hex } from "../../src/core/crypto";
import { TOKEN_PREFIX } from "../../src/core/permissions";

const state = mkdtempSync(join(tmpdir(), "e2e-webhooks-"));
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", D1_PERSIST_TO: state };
let wrangler: ChildProcess | undefined;
let receiver: Server;
let api = "";
let token = "";

type Seen = { path: string; id: string; status: number; verified: boolean };
const seen: Seen[] = [];
const secrets = new Map<string, string>(); // receiver path → webhook secret
const attemptsById = new Map<string, number>();
const HOOKS = "/api/v1/dashboard/admin/integrations/webhooks/";
let receiverBase = "";
let restarted = false;
const webhookIds: number[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function request(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(api + path, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "app-id": "1", "org-id": "1", "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

/**
 * The project's wrangler.toml without its static assets: with them, wrangler dev sends the
 * scheduled trigger (`/cdn-cgi/handler/scheduled`) to the assets router, which has no scheduled
 * handler, instead of the Worker.
 */
function configWithoutAssets(): string {
  const file = join(state, "wrangler.toml");
  const text = readFileSync("wrangler.toml", "utf8")
    .replace(/^main = "(.*)"$/m, (_, m: string) => `main = ${JSON.stringify(resolve(m))}`)
    .replace(/^migrations_dir = "(.*)"$/m, (_, m: string) => `migrations_dir = ${JSON.stringify(resolve(m))}`)
    // The bundle's zod (src/core/zod): wrangler resolves the alias from the config's folder.
    .replace(/^alias = \{ "zod" = "(.*)" \}$/m, (_, m: string) => `alias = { "zod" = ${JSON.stringify(resolve(m))} }`)
    .replace(/^\[assets\]\ndirectory = .*\n/m, "");
  writeFileSync(file, text);
  // wrangler dev reads local secrets beside its configuration.
  if (existsSync(".dev.vars")) copyFileSync(".dev.vars", join(state, ".dev.vars"));
  return file;
}

/** Starts the Worker under `wrangler dev` on the test's own state (again, after a crash). */
async function startWrangler() {
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  wrangler = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "-c",
      configWithoutAssets(),
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      state,
      "--var",
      "WEBHOOKS_ALLOW_LOCALHOST:true",
      "--var",
      "WEBHOOK_RETRY_DELAYS:1,1,1",
    ],
    { env, stdio: "ignore", detached: true },
  );
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${api}/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
    env,
    stdio: "ignore",
  });
  execFileSync("npx", ["tsx", "scripts/seed.ts"], { env, stdio: "ignore" });
  token = randomToken(TOKEN_PREFIX);
  execFileSync(
    "npx",
    [
      "tsx",
      "-e",
      `
    import { executeLocal } from "./scripts/d1.ts";
    executeLocal("INSERT INTO merchant_api_tokens (app_id, name, token_hash, token_prefix, permissions, " +
      "created_at) VALUES (1, 'e2e', '${await sha256Hex(token)}', 'e2e', '[\\"can_read_order\\",\\"can_write_order\\",\\"can_update_app_config\\",\\"can_retrieve_app_config\\"]', '2026-01-01T00:00:00Z')");
  `,
    ],
    { env, stdio: "ignore" },
  );

  // The receiver: /flaky fails the first two attempts of each delivery, /dead always fails.
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const path = req.url ?? "";
      const id = String(req.headers["webhook-id"]);
      let verified = false;
      try {
        new Webhook(secrets.get(path)!).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const n = (attemptsById.get(`${path} ${id}`) ?? 0) + 1;
      attemptsById.set(`${path} ${id}`, n);
      // /crash never answers until the runtime has crashed and come back.
      if (path === "/crash" && !restarted) return void seen.push({ path, id, status: 0, verified });
      const status = !verified ? 400 : (path === "/flaky" && n > 2) || path === "/crash" ? 200 : 500;
      seen.push({ path, id, status, verified });
      res.writeHead(status).end(status === 200 ? "ok" : "try again");
    });
  });
  const receiverPort = await freePort();
  receiverBase = `http://127.0.0.1:${receiverPort}`;
  await new Promise<void>((r) => receiver.listen(receiverPort, "127.0.0.1", r));

  await startWrangler();

  for (const path of ["/flaky", "/dead"]) {
    const created = await request("/api/v1/dashboard/admin/integrations/webhooks/", {
      method: "POST",
      body: { url: `http://127.0.0.1:${receiverPort}${path}`, events: ["ticket.updated"] },
    });
    expect(created.status).toBe(201);
    secrets.set(path, created.body.secret_key);
    webhookIds.push(created.body.id);
  }
}, 180_000);

afterAll(async () => {
  if (wrangler?.pid) process.kill(-wrangler.pid, "SIGTERM");
  await new Promise((r) => receiver?.close(r));
  rmSync(state, { recursive: true, force: true });
});

it("delivers every event once per webhook-id after failures, or dead-letters it; none is lost", async () => {
  const pending = await request("/order/v1/merchant/fulfillments/tickets/?status=pending&page_size=3&order_by=id");
  const ids = pending.body.results.map((t: { id: number }) => t.id);
  expect(ids).toHaveLength(3);
  expect(
    (
      await request("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
        method: "POST",
        body: { ids, status: "confirmed" },
      })
    ).status,
  ).toBe(200);

  // 3 events x 2 webhooks. /flaky: 2 failures then delivered; /dead: 4 attempts (1 + 3 retries), then dead-lettered.
  let logs: { status: string; event: string; attempt: number; webhook: number }[] = [];
  for (let i = 0; i < 150; i++) {
    logs = (await request("/api/v1/dashboard/admin/integrations/webhooks/logs/?page_size=100")).body.results;
    const settled = logs.filter((l) => l.status === "delivered" || l.status === "failed");
    if (settled.length >= 6) break;
    await new Promise((r) => setTimeout(r, 1000));
  }

  expect(
    seen.every((s) => s.verified),
    "every delivery verifies with standardwebhooks",
  ).toBe(true);
  const delivered = seen.filter((s) => s.path === "/flaky" && s.status === 200);
  expect(new Set(delivered.map((s) => s.id)).size).toBe(3);
  expect(delivered).toHaveLength(3); // once per webhook-id
  for (const id of new Set(delivered.map((s) => s.id)))
    expect(seen.filter((s) => s.path === "/flaky" && s.id === id)).toHaveLength(3);
  const dead = seen.filter((s) => s.path === "/dead");
  expect(new Set(dead.map((s) => s.id)).size).toBe(3);
  expect(dead).toHaveLength(12);
  expect(logs.filter((l) => l.status === "delivered")).toHaveLength(3);
  expect(logs.filter((l) => l.status === "failed").map((l) => l.attempt)).toEqual([4, 4, 4]);
}, 200_000);

it("a crash with deliveries in flight delays them: after the restart the reconciler sends them again", async () => {
  // From here on only this test's webhook takes events.
  for (const id of webhookIds) expect((await request(`${HOOKS}${id}/`, { method: "DELETE" })).status).toBe(204);
  const created = await request(HOOKS, {
    method: "POST",
    body: { url: `${receiverBase}/crash`, events: ["ticket.updated"] },
  });
  secrets.set("/crash", created.body.secret_key);
  const hook = created.body.id as number;
  const pending = await request("/order/v1/merchant/fulfillments/tickets/?status=pending&page_size=3&order_by=-id");
  const ids = pending.body.results.map((t: { id: number }) => t.id);
  const write = await request("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
    method: "POST",
    body: { ids, date: "2026-12-30" },
  });
  expect(write.status).toBe(200);
  const arrived = () => new Set(seen.filter((s) => s.path === "/crash").map((s) => s.id)).size;
  for (let i = 0; i < 40 && arrived() < 3; i++) await new Promise((r) => setTimeout(r, 250));
  expect(arrived()).toBe(3);

  // The runtime dies with the three attempts in flight: their queue messages die with it.
  const dead = new Promise((r) => wrangler!.once("exit", r));
  process.kill(-wrangler!.pid!, "SIGKILL");
  await dead;
  restarted = true;
  // Minutes later, as far as the ledger can tell: the attempts' hold has expired, the deliveries are overdue.
  const past = new Date(Date.now() - 5 * 60_000).toISOString();
  execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      state,
      "--command",
      `UPDATE webhook_deliveries SET next_attempt_at = '${past}', leased_until = '${past}' WHERE webhook_id = ${hook}`,
    ],
    { env, stdio: "ignore" },
  );
  const before = await startWrangler().then(() => request(`${HOOKS}deliveries/?webhook=${hook}&status=pending`));
  expect(before.body.count).toBe(3); // open, not lost
  expect((await fetch(`${api}/cdn-cgi/handler/scheduled`)).status).toBeLessThan(300);

  let deliveries: { status: string; attempts: number }[] = [];
  for (let i = 0; i < 60; i++) {
    deliveries = (await request(`${HOOKS}deliveries/?webhook=${hook}`)).body.results;
    if (deliveries.filter((d) => d.status === "delivered").length === 3) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(deliveries.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
  const answered = seen.filter((s) => s.path === "/crash" && s.status === 200);
  expect(new Set(answered.map((s) => s.id)).size).toBe(3);
  expect(answered.every((s) => s.verified)).toBe(true);
}, 200_000);
