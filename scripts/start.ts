/**
 * `npm start`: applies the local D1 migrations, seeds the demo data, mints a token, starts
 * `wrangler dev` on port 8787 (the API, and the webhooks' consumer beside it; PORT=… for another) and,
 * once it answers, prints ready-to-paste curl commands. SIGINT (Ctrl+C) and SIGTERM stop everything
 * it started, wrangler and workerd included (scripts/processes.ts).
 * No Cloudflare account is needed: D1, KV and Queues are wrangler's local ones.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PERMISSIONS } from "../src/core/permissions";
import { holdersOf, localStateDir } from "./d1";
import { writeLocalWebhooksConfig } from "./local-webhooks-config";
import { onOrphaned, ROOT, run, start, stopAll, WRANGLER } from "./processes";

const PORT = Number(process.env.PORT ?? 8787);
const BASE = `http://127.0.0.1:${PORT}`;
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

let stopping = false;
/** Stops what this run started (a second signal while it does so changes nothing), then exits. */
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping what npm start started (wrangler dev, workerd)\n`);
  await stopAll();
  process.exit(signal === "SIGINT" ? 130 : 143);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
process.on("SIGHUP", stop);
onOrphaned(() => void stop("SIGTERM"));

function fail(message: string): never {
  process.stderr.write(`\nnpm start: ${message}\n`);
  process.exit(1);
}

const step = async (what: string, cmd: string, args: string[]) => {
  process.stdout.write(`> ${what}\n`);
  try {
    return await run(what, cmd, args);
  } catch (error) {
    // The step printed its own cause above (the seed and the token name theirs).
    return fail((error as Error).message);
  }
};

const answers = async () => {
  try {
    return (await fetch(`${BASE}/health`)).ok;
  } catch {
    return false;
  }
};
// Before anything touches the local D1 files: a server still running here would hold them too.
if (await answers())
  fail(`${BASE} already answers: another npm start or wrangler dev is running on port ${PORT}. Stop it, or
start this one on another port: PORT=${PORT + 1} npm start`);
const holders = holdersOf(localStateDir());
if (holders.length)
  fail(`other processes have this folder's local D1 files open (a wrangler dev or npm start left running?).
Two processes writing the same SQLite files is what a seed must not race with. Stop them, then npm start again:
${holders.map((h) => `  kill ${h.pid}    # ${h.command}`).join("\n")}`);

await step("copying the /docs assets from node_modules, building /openapi.json", TSX, ["scripts/docs-assets.ts"]);
await step("writing local secrets to .dev.vars (once)", TSX, ["scripts/dev-vars.ts"]);
// The directory and every shard (docs/shards.md), each with its own migrations.
await step("applying local D1 migrations", TSX, ["scripts/migrate.ts", "--local"]);
await step("seeding demo data (idempotent)", TSX, ["scripts/seed.ts"]);
const token = (
  await step("minting a merchant token for app 1", TSX, [
    "scripts/token.ts",
    "--app-id",
    "1",
    "--name",
    "npm-start",
    "--permissions",
    // Every permission, API keys and the audit log included: the demo store's owner at the keyboard.
    PERMISSIONS.join(","),
  ])
).trim();
const ticketQuery = await run("reading a ticket", WRANGLER, [
  "d1",
  "execute",
  // Store 1's shard (scripts/seed.ts places it).
  "SHARD_1",
  "--local",
  "--json",
  "--command",
  "SELECT token FROM tickets WHERE app_id = 1 AND status = 'pending' AND is_deleted = 0 ORDER BY id LIMIT 1",
]);
const ticket = (JSON.parse(ticketQuery) as { results: { token: string }[] }[])[0]?.results[0];

// The demo customer Sara's number as a development test number: its login code is always 123456.
const TEST_MOBILE = "0534501056";
const TEST_NUMBER = "966534501056:123456";

// The API and the webhooks' consumer in one process, sharing the local queues and D1. Webhooks may
// target a receiver on this machine (http://localhost) in local development only: both Workers check.
// --test-scheduled: `npm run cron` runs the cron's tasks through /__scheduled, a route wrangler adds to
// the development bundle only (README, "Scheduled work").
const consumer = writeLocalWebhooksConfig({ WEBHOOKS_ALLOW_LOCALHOST: "true" });
const dev = start(WRANGLER, [
  "dev",
  "-c",
  "wrangler.toml",
  "-c",
  consumer,
  "--port",
  String(PORT),
  "--ip",
  "127.0.0.1",
  "--test-scheduled",
  "--var",
  "WEBHOOKS_ALLOW_LOCALHOST:true",
  "--var",
  `OTP_TEST_NUMBERS:${TEST_NUMBER}`,
]);
dev.on("exit", (code, signal) => {
  if (!stopping) fail(`wrangler dev stopped (${signal ?? `exit code ${code}`}); its output above says why`);
});

const deadline = Date.now() + 180_000;
while (!(await answers())) {
  if (Date.now() > deadline) {
    await stopAll();
    fail(`wrangler dev did not answer on ${BASE}/health within 3 minutes`);
  }
  await new Promise((r) => setTimeout(r, 500));
}

const h = `-H 'app-id: 1' -H 'Authorization: Bearer ${token}'`;
const platformKey =
  /^PLATFORM_API_KEY=(.*)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1] ?? "<PLATFORM_API_KEY of .dev.vars>";
process.stdout.write(`
The Commerce and Meals API is running at ${BASE}
  Interactive reference: ${BASE}/docs    OpenAPI: ${BASE}/openapi.json

Try it (a token for app 1 was just minted; mint others with npm run -s token -- --app-id 1 --permissions can_read_order):

  curl -s ${h} '${BASE}/order/v1/merchant/fulfillments/tickets/?status=pending&search=kabsa&order_by=-date&page_size=5'

  curl -s ${h} -H 'Content-Type: application/json' -X POST '${BASE}/order/v1/merchant/fulfillments/tickets/check-in/' \\
       -d '{"token": "${ticket?.token ?? "tkt_…"}", "validate_only": true}'

  curl -s ${h} -H 'org-id: 1' '${BASE}/api/v1/dashboard/admin/integrations/webhooks/logs/'

  curl -s ${h} '${BASE}/order/v1/merchant/customers/?search=%2B966%2053%20450&page_size=5'

A customer login (the demo customer's number is a test number here: no SMS, its code is always 123456;
other numbers get theirs printed by wrangler dev as {"msg":"sms",…}):

  curl -s -H 'app-id: 1' -H 'Content-Type: application/json' -X POST '${BASE}/api/v1/customer/auth/otp/' \\
       -d '{"country_code": "966", "mobile_number": "${TEST_MOBILE}"}'
  ACCESS=$(curl -s -H 'app-id: 1' -H 'Content-Type: application/json' -X POST '${BASE}/api/v1/customer/auth/token/' \\
       -d '{"country_code": "966", "mobile_number": "${TEST_MOBILE}", "otp": "123456"}' | sed -n 's/.*"access_token":"\\([^"]*\\)".*/\\1/p')
  curl -s -H 'app-id: 1' -H "Authorization: Bearer $ACCESS" '${BASE}/api/v1/customer/profile/'

The meals reads are public (only app-id) and cached in local KV; send the ETag back to get a 304:

  curl -si -H 'app-id: 1' '${BASE}/public-api/v1/plans/1/?plan_version_id=1' | head -20
  curl -s  -H 'app-id: 1' '${BASE}/api/v1/restaurants/menus/2/'
  curl -s  -H 'app-id: 1' -H 'Content-Type: application/json' -X POST '${BASE}/api/v1/sales-channels/providers/' \\
       -d '{"lat": "24.7136", "lng": "46.6753", "city_id": 1}'

  curl -s ${h} -H 'Content-Type: application/json' -X PATCH '${BASE}/order/v1/merchant/meals/restaurants/2/' \\
       -d '{"subtitle_en": "Open late"}'

The customer app's catalogue is public too, and a whole purchase (cart, checkout, the development card
page with its Pay button, the paid order, a refund) is in the README, "A purchase":

  curl -s -H 'app-id: 1' '${BASE}/order/v1/items/?page_size=3'
  curl -s ${h} '${BASE}/order/v1/merchant/orders/?page_size=5'

The platform operator's key of this clone (PLATFORM_API_KEY in .dev.vars) creates organizations,
stores and their first keys (README, "Deploying", step 6):

  curl -s -H 'Authorization: Bearer ${platformKey}' '${BASE}/platform/v1/stores/'

The cron's tasks (unpaid orders' expiry, renewals, the outbox's re-send, …) run when you ask, once:

  ${PORT === 8787 ? "" : `PORT=${PORT} `}npm run cron -- expire-unpaid-orders    # no task: all of them (README, "Scheduled work")

Press Ctrl+C to stop.
`);
