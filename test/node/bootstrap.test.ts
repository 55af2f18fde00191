/**
 * The README's "Deploying", step 6, on an empty database: the platform key set, the first
 * organization, its store and the store's first key, then the first catalogue item with that key;
 * the same requests in the same order, each taking the ids of the answers before it. The app's own
 * fetch handler over local D1 of its own (wrangler's getPlatformProxy), migrated and nothing else.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getPlatformProxy, type PlatformProxy } from "wrangler";

const ROOT = resolve(import.meta.dirname, "../..");
// Not a literal path, so that the Node type check does not pull in the Worker's sources.
const appModule = "../../src/app";
const { createApp } = (await import(appModule)) as {
  createApp: () => { fetch: (req: Request, env: object, ctx: object) => Promise<Response> };
};

const state = mkdtempSync(join(tmpdir(), "bootstrap-"));
const PLATFORM_KEY = "bootstrap-test-platform-key-0123456789abcdef";
let platform: PlatformProxy<{ DIRECTORY: D1DatabaseLike }>;
type D1DatabaseLike = { prepare: (q: string) => { first: <T>() => Promise<T | null> } };

const deferred: Promise<unknown>[] = [];
const ctx = {
  waitUntil: (p: Promise<unknown>) => void deferred.push(p.catch(() => undefined)),
  passThroughOnException: () => undefined,
  props: {},
};

beforeAll(async () => {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
  execFileSync("npx", ["tsx", "scripts/migrate.ts", "--local", "--persist-to", state], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  platform = await getPlatformProxy({ configPath: join(ROOT, "wrangler.toml"), persist: { path: join(state, "v3") } });
});

afterAll(async () => {
  await Promise.all(deferred);
  await platform?.dispose();
  rmSync(state, { recursive: true, force: true });
});

async function send(path: string, init: { token: string; appId?: number; body: unknown }) {
  const app = createApp();
  // `wrangler secret put PLATFORM_API_KEY`: the deployed Worker's env has it.
  const bindings = { ...platform.env, PLATFORM_API_KEY: PLATFORM_KEY };
  const headers: Record<string, string> = {
    authorization: `Bearer ${init.token}`,
    "content-type": "application/json",
    ...(init.appId !== undefined && { "app-id": String(init.appId) }),
  };
  const res = await app.fetch(
    new Request(`https://api.test${path}`, { method: "POST", headers, body: JSON.stringify(init.body) }),
    bindings,
    ctx,
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

it("starts from a database with no store", async () => {
  const stores = await platform.env.DIRECTORY.prepare("SELECT count(*) AS n FROM apps").first<{ n: number }>();
  expect(stores!.n).toBe(0);
});

it("runs the README's bootstrap: organization, store, first key, first catalogue item", async () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const deploying = readme.slice(readme.indexOf("## Deploying"), readme.indexOf("## Layout"));
  const paths = [
    "/platform/v1/organizations/",
    "/platform/v1/stores/",
    "/platform/v1/stores/$STORE/api-keys/",
    "/order/v1/merchant/items/",
  ];
  // The README's requests, in this order.
  const at = paths.map((p) => deploying.indexOf(p));
  expect(at.every((i) => i > 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(deploying).toContain("wrangler secret put PLATFORM_API_KEY");

  const org = await send("/platform/v1/organizations/", { token: PLATFORM_KEY, body: { name: "Acme Trading" } });
  expect(org.status).toBe(201);
  expect(org.body).toMatchObject({ id: expect.any(Number), name: "Acme Trading" });

  const store = await send("/platform/v1/stores/", {
    token: PLATFORM_KEY,
    body: {
      organization_id: org.body.id,
      name_en: "Acme Coffee",
      name_ar: "قهوة أكمي",
      settings: { currency: "SAR", vat_number: "300000000000003", vat_percentage: 15, timezone: "Asia/Riyadh" },
    },
  });
  expect(store.status).toBe(201);
  expect(store.body).toMatchObject({
    organization_id: org.body.id,
    status: "active",
    settings: { currency: "SAR", vat_number: "300000000000003", vat_percentage: 15, timezone: "Asia/Riyadh" },
  });

  const key = await send(`/platform/v1/stores/${store.body.id}/api-keys/`, {
    token: PLATFORM_KEY,
    body: { name: "First key" },
  });
  expect(key.status).toBe(201);
  expect(key.body).toMatchObject({ name: "First key", created_by: null, status: "active" });
  expect(key.body.secret).toMatch(/^cmk_/);

  const item = await send("/order/v1/merchant/items/", {
    token: key.body.secret,
    appId: store.body.id,
    body: { type: "product", service_type: "pickup", sku: "COFFEE-1", price: 12.5, name_en: "Coffee", name_ar: "قهوة" },
  });
  expect(item.status).toBe(201);
  expect(item.body).toMatchObject({ id: expect.any(Number), name_en: "Coffee", price: 12.5 });
});
