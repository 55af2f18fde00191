/**
 * End to end: the API and the webhooks' consumer Worker under one `wrangler dev` (local D1 and
 * Queues, shared by both), as deployed side by side, deliver webhooks to a real
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
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { writeLocalWebhooksConfig } from "../../scripts/local-webhooks-config";
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
/** Resolved when the third delivery to /crash has arrived: the three attempts are then in flight. */
let allInFlight: () => void = () => {};

/**
 * How long a wait for `wrangler dev` may take: a start, a queue's batch, the retries. The waits are on
 * what the test expects to see (a served request, a delivery's state), never a fixed pause; this bound
 * only turns a wait that would never end into a failure, and is large enough for a machine under heavy
 * load (several `wrangler dev` and test runs at once on 2 cores start in about a minute).
 */
const WAIT = { timeout: 150_000, interval: 500 };

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
    // The bundle's aliases (src/core/zod, src/core/openapi-runtime.ts): wrangler resolves them from the config's folder.
    .replace(/^alias = \{.*\}$/m, (table) =>
      table.replace(/= "(\.[^"]*)"/g, (_, m: string) => `= ${JSON.stringify(resolve(m))}`),
    )
    // The whole table: every line up to the next table's.
    .replace(/^\[assets\]\n(?:[^[\n].*\n|\n)*/m, "");
  writeFileSync(file, text);
  // wrangler dev reads local secrets beside its configuration.
  if (existsSync(".dev.vars")) copyFileSync(".dev.vars", join(state, ".dev.vars"));
  return file;
}

/** The consumer's configuration with the test's variables (`wrangler dev` gives `--var` to the first Worker only). */
const consumerConfig = () =>
  writeLocalWebhooksConfig(
    { WEBHOOKS_ALLOW_LOCALHOST: "true", WEBHOOK_RETRY_DELAYS: "1,1,1" },
    join(state, "wrangler.webhooks.toml"),
  );

/**
 * Starts both Workers under `wrangler dev` on the test's own state (again, after a crash), and waits
 * until the first one answers. The API comes first, serving requests; with `consumerFirst` the
 * consumer does, so that `/cdn-cgi/handler/scheduled` (the only way to run a cron locally, and only
 * the first Worker's) runs its reconciler: the wait then ends on the run.
 */
async function startWrangler({ consumerFirst = false } = {}) {
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  const configs = consumerFirst ? [consumerConfig(), configWithoutAssets()] : [configWithoutAssets(), consumerConfig()];
  wrangler = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      ...configs.flatMap((c) => ["-c", c]),
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
  const started = wrangler;
  await vi.waitUntil(async () => {
    if (started.exitCode !== null || started.signalCode !== null)
      throw new Error("wrangler dev exited before it served");
    return fetch(`${api}${consumerFirst ? "/cdn-cgi/handler/scheduled" : "/health"}`).then(
      (res) => res.ok,
      () => false, // not up yet
    );
  }, WAIT);
}

beforeAll(async () => {
  execFileSync("npx", ["tsx", "scripts/migrate.ts", "--local", "--persist-to", state], {
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
    // The directory's row (the token check's) and store 1's shard's copy, under the same id.
    const sql = "INSERT INTO merchant_api_tokens (id, app_id, name, token_hash, token_prefix, permissions, " +
      "created_at) VALUES (9001, 1, 'e2e', '${await sha256Hex(token)}', 'e2e', '[\\"can_read_order\\",\\"can_write_order\\",\\"can_update_app_config\\",\\"can_retrieve_app_config\\"]', '2026-01-01T00:00:00Z')";
    executeLocal(sql, "DIRECTORY");
    executeLocal(sql, "SHARD_1");
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
      if (path === "/crash" && !restarted) {
        seen.push({ path, id, status: 0, verified });
        if (new Set(seen.filter((s) => s.path === "/crash").map((s) => s.id)).size === 3) allInFlight();
        return;
      }
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
}, 300_000);

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
  type Log = { status: string; event: string; attempt: number; webhook: number };
  const logs: Log[] = await vi.waitUntil(async () => {
    const all: Log[] = (await request("/api/v1/dashboard/admin/integrations/webhooks/logs/?page_size=100")).body
      .results;
    return all.filter((l) => l.status === "delivered" || l.status === "failed").length >= 6 && all;
  }, WAIT);

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
}, 300_000);

/** The webhook's deliveries as the ledger has them (local D1, read beside the running Workers). */
function ledger(webhookId: number): { status: string }[] {
  const out = execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      // Store 1's shard (scripts/seed.ts).
      "SHARD_1",
      "--local",
      "--persist-to",
      state,
      "--json",
      "--command",
      `SELECT status FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY id`,
    ],
    { env, stdio: ["ignore", "pipe", "ignore"] },
  );
  return (JSON.parse(out.toString()) as { results: { status: string }[] }[])[0]!.results;
}

it("a cached public read is gzipped once by the runtime: a client that takes gzip reads its JSON", async () => {
  // The catalogue is served from KV as gzip bytes with encodeBody "manual" (core/cache.ts); a copy of
  // that response that lost it (core/lazy-router.ts) had the runtime gzip them a second time.
  for (const expected of ["MISS", "HIT"]) {
    const res = await fetch(`${api}/order/v1/items/?page_size=1&search=sdk-e2e`, { headers: { "app-id": "1" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe(expected);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(await res.json()).toMatchObject({ count: 0, results: [] });
  }
});

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
  const inFlight = new Promise<void>((r) => (allInFlight = r));
  const write = await request("/order/v1/merchant/fulfillments/tickets/bulk-update/", {
    method: "POST",
    body: { ids, date: "2026-12-30" },
  });
  expect(write.status).toBe(200);
  // The runtime dies the moment the third attempt has arrived (the test's timeout bounds the wait):
  // the three attempts in flight, their queue messages die with it. The three are made at once by one
  // consumer run; should one have timed out first (1 s) on a starved machine, it is open for a retry
  // instead, which the checks below allow: an open delivery is what must survive the crash.
  await inFlight;
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
      // Store 1's shard (scripts/seed.ts).
      "SHARD_1",
      "--local",
      "--persist-to",
      state,
      "--command",
      `UPDATE webhook_deliveries SET next_attempt_at = '${past}', leased_until = '${past}' WHERE webhook_id = ${hook}`,
    ],
    { env, stdio: "ignore" },
  );
  const open = ledger(hook).filter((d) => ["pending", "retrying"].includes(d.status));
  expect(open).toHaveLength(3); // open, not lost
  // The consumer's cron runs as the restart's first request; the API is not served on the port meanwhile.
  await startWrangler({ consumerFirst: true });

  const deliveries = await vi.waitUntil(() => {
    const all = ledger(hook);
    return all.filter((d) => d.status === "delivered").length === 3 && all;
  }, WAIT);
  expect(deliveries.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
  const answered = seen.filter((s) => s.path === "/crash" && s.status === 200);
  expect(new Set(answered.map((s) => s.id)).size).toBe(3);
  expect(answered.every((s) => s.verified)).toBe(true);
}, 400_000);
