/**
 * Issues a merchant API key of a store in the local D1 database (the one `npm start` and `npm run
 * dev` serve) and prints its secret, alone, on stdout. The same service as the platform's Issue Store
 * API Key (modules/account, `issueApiKey`), over wrangler's local bindings (getPlatformProxy): it works
 * before `npm start` has run (once the migrations are applied) and while it runs.
 *   npm run -s token -- --app-id 1 --permissions can_read_order,can_write_item [--name cli] [--expires-in-days 30]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PERMISSIONS } from "../src/core/permissions";

const USAGE = `Usage: npm run -s token -- --app-id <store id> --permissions <p1,p2,...> [--name <name>] [--expires-in-days <n>]

Issues a merchant API key of a store in the local D1 database and prints it alone on stdout.
  --app-id           the store (it must exist: see the README, "Deploying", to create one)
  --permissions      comma-separated, any of: ${PERMISSIONS.join(", ")}
  --name             the key's name (default: cli)
  --expires-in-days  a positive number of days; without it the key never expires
`;

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
}

let values: { "app-id"?: string; permissions?: string; name?: string; "expires-in-days"?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      "app-id": { type: "string" },
      permissions: { type: "string" },
      name: { type: "string", default: "cli" },
      "expires-in-days": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const appId = Number(values["app-id"]);
if (!Number.isSafeInteger(appId) || appId < 1) fail(`--app-id must be a positive integer\n\n${USAGE}`);
const permissions = (values.permissions ?? "")
  .split(",")
  .map((p) => p.trim())
  .filter(Boolean);
if (permissions.length === 0) fail(`--permissions is required: a comma-separated list of ${PERMISSIONS.join(", ")}`);
const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
if (unknown.length) fail(`unknown permission(s) ${unknown.join(", ")}; allowed: ${PERMISSIONS.join(", ")}`);
let expiresAt: string | null = null;
if (values["expires-in-days"] !== undefined) {
  const days = Number(values["expires-in-days"]);
  if (!Number.isFinite(days) || days <= 0) fail("--expires-in-days must be a positive number");
  expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
}

// wrangler's own lines would mix with the key on stdout.
process.env.WRANGLER_LOG ??= "error";
process.env.WRANGLER_SEND_METRICS = "false";
const { getPlatformProxy } = await import("wrangler");
// Not literal paths, so that the scripts' Node type check does not pull in the Worker's sources.
const accountModule = "../src/modules/account";
const shardsModule = "../src/db/shards";
type Issue = (
  db: unknown,
  sink: { queue: unknown; defer: (p: Promise<unknown>) => void },
  appId: number,
  issuer: null,
  input: { name: string; permissions: string[]; expires_at: string | null },
  audit: { actor: { type: "platform"; id: null }; requestId: string },
  keys: unknown,
) => Promise<{ secret: string }>;
const { issueApiKey } = (await import(accountModule)) as { issueApiKey: Issue };
const { storeShard } = (await import(shardsModule)) as {
  storeShard: (env: unknown, appId: number) => Promise<{ db: unknown } | null>;
};
const directoryModule = "../src/db/directory";
const { tokenDirectory } = (await import(directoryModule)) as { tokenDirectory: (env: unknown) => unknown };

const persist = process.env.D1_PERSIST_TO ? { path: join(process.env.D1_PERSIST_TO, "v3") } : true;
const platform = await getPlatformProxy<Record<string, unknown>>({ configPath: "wrangler.toml", persist });
let code = 0;
try {
  // The key's `api_key.created` is left in the outbox for the API's cron (`resendStale`), which records
  // the webhook deliveries before it sends: this process has neither that hook nor the queue's consumer.
  const unsent = { sendBatch: () => new Promise<never>(() => undefined) };
  // The local CLI acts as the platform operator: the audit trail records the key as the platform's.
  const audit = { actor: { type: "platform" as const, id: null }, requestId: `cli-${crypto.randomUUID()}` };
  const sink = { queue: unsent, defer: () => undefined };
  const input = { name: values.name!, permissions, expires_at: expiresAt };
  // The store's shard, through the directory (src/db/shards.ts); a store it lacks is refused with 404.
  const db = (await storeShard(platform.env, appId))?.db;
  if (!db) throw Object.assign(new Error("no such store"), { code: "store_not_found" });
  const key = await issueApiKey(db, sink, appId, null, input, audit, tokenDirectory(platform.env));
  process.stdout.write(`${key.secret}\n`);
} catch (error) {
  code = 2;
  const e = error as { code?: string; message?: string };
  if (e.code === "store_not_found") {
    process.stderr.write(
      `token: no store has the id ${appId} in the local database. Create one with the platform routes ` +
        '(README, "Deploying"), or run `npm run seed` for the demo stores 1 and 2.\n',
    );
  } else if (/no such table/i.test(String(e.message))) {
    process.stderr.write("token: the local database has no tables yet: run `npm run db:migrate:local` first.\n");
  } else {
    process.stderr.write(`token: ${e.message ?? String(error)}\n`);
  }
} finally {
  await platform.dispose();
}
process.exit(code);
