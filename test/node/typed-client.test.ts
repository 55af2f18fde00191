/**
 * The typed client of examples/typed-client: client.ts type-checked against the types generated from
 * the app's OpenAPI document (the SDK's sdk/src/schema.ts, which test/node/clients-generated.test.ts
 * keeps current), strict and with no diagnostics, then run against the app's own fetch handler on local D1
 * and KV (wrangler's getPlatformProxy, seeded like `npm start`), with `app-id` set once.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getPlatformProxy, type PlatformProxy } from "wrangler";

const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(ROOT, "examples/typed-client");
const SCHEMA = join(ROOT, "sdk/src/schema.ts");

// Not literal paths, so that the Node type check pulls in neither the Worker's sources nor the example.
const appModule = "../../src/app";
const clientModule = "../../examples/typed-client/client";
const { createApp } = (await import(appModule)) as {
  createApp: () => { fetch: (req: Request, env: object, ctx: object) => Promise<Response> };
};
type Client = { GET: (path: string, init?: object) => Promise<{ data?: any; error?: any; response: Response }> };
const { createStoreClient, pendingTicketsAndRestaurant } = (await import(clientModule)) as {
  createStoreClient: (o: {
    baseUrl: string;
    appId: number;
    token?: string;
    fetch?: (r: Request) => Promise<Response>;
  }) => Client;
  pendingTicketsAndRestaurant: (
    c: Client,
    restaurantId: number,
  ) => Promise<{ count: number; tickets: string[]; restaurant: string }>;
};

const state = mkdtempSync(join(tmpdir(), "typed-client-"));
let platform: PlatformProxy;
let token = "";

beforeAll(async () => {
  // Local D1 and KV of their own, migrated and seeded as `npm start` does, and a token for app 1.
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", D1_PERSIST_TO: state };
  const run = (args: string[]) => execFileSync("npx", args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  run(["tsx", "scripts/migrate.ts", "--local", "--persist-to", state]);
  run(["tsx", "scripts/seed.ts"]);
  token = run(["tsx", "scripts/token.ts", "--app-id", "1", "--permissions", "can_read_order"]).toString().trim();
  platform = await getPlatformProxy({ configPath: join(ROOT, "wrangler.toml"), persist: { path: join(state, "v3") } });
});

/**
 * The work a response defers (a cache write, an event's publish): the proxy's own context drops it,
 * so it would still be talking to the proxy when the proxy is disposed. Kept here and awaited.
 */
const deferred: Promise<unknown>[] = [];
const ctx = {
  waitUntil: (p: Promise<unknown>) => void deferred.push(p.catch(() => undefined)),
  passThroughOnException: () => undefined,
  props: {},
};

afterAll(async () => {
  await Promise.all(deferred);
  await platform?.dispose();
  rmSync(state, { recursive: true, force: true });
});

it("client.ts type-checks against the generated types, strict, with no diagnostics", () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "examples/tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  expect(config.options.strict).toBe(true);
  const program = ts.createProgram([join(EXAMPLE, "client.ts")], { ...config.options, noEmit: true });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(ROOT.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  expect(diagnostics).toEqual([]);
  // The types it was checked against are the SDK's generated ones.
  expect(program.getSourceFile(SCHEMA)).toBeDefined();
});

it("sends app-id (and the token) set once at createClient on every call, against the app's fetch handler", async () => {
  const app = createApp();
  const sent: Request[] = [];
  const client = createStoreClient({
    baseUrl: "https://api.test",
    appId: 1,
    token,
    fetch: async (req) => {
      sent.push(req.clone());
      return app.fetch(req, platform.env, ctx);
    },
  });

  const result = await pendingTicketsAndRestaurant(client, 1);
  expect(result.count).toBeGreaterThan(0);
  expect(result.tickets.length).toBeGreaterThan(0);
  expect(result.tickets.every((t) => t.includes(" pending "))).toBe(true);
  expect(result.restaurant).toBeTruthy();

  expect(sent.map((r) => new URL(r.url).pathname)).toEqual([
    "/order/v1/merchant/fulfillments/tickets/",
    "/api/v1/restaurants/1/",
  ]);
  for (const req of sent) {
    expect(req.headers.get("app-id")).toBe("1");
    expect(req.headers.get("authorization")).toBe(`Bearer ${token}`);
  }
  expect(new URL(sent[0]!.url).searchParams.get("status")).toBe("pending");
});

it("without app-id the app refuses the call, so the client's header is what names the store", async () => {
  const app = createApp();
  const res = await app.fetch(new Request("https://api.test/api/v1/restaurants/1/"), platform.env, ctx);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { code: string }).code).toBe("missing_app_id");
});
