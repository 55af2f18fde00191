/**
 * `npm start`: applies the local D1 migrations, seeds the demo data, mints a token, starts
 * `wrangler dev` on port 8787 (the API, and the webhooks' consumer beside it) and, once it answers,
 * prints ready-to-paste curl commands.
 * No Cloudflare account is needed: D1, KV and Queues are wrangler's local ones.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { queryLocal } from "./d1";
import { writeLocalWebhooksConfig } from "./local-webhooks-config";

const PORT = Number(process.env.PORT ?? 8787);
const BASE = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const step = (what: string, cmd: string, args: string[]) => {
  process.stdout.write(`> ${what}\n`);
  return execFileSync(cmd, args, { stdio: ["ignore", "pipe", "inherit"], env }).toString();
};

step("copying the /docs assets from node_modules", "npx", ["tsx", "scripts/docs-assets.ts"]);
step("writing local secrets to .dev.vars (once)", "npx", ["tsx", "scripts/dev-vars.ts"]);
step("applying local D1 migrations", "npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"]);
step("seeding demo data (idempotent)", "npm", ["run", "-s", "seed"]);
const token = step("minting a merchant token for app 1", "npm", [
  "run",
  "-s",
  "token",
  "--",
  "--app-id",
  "1",
  "--name",
  "npm-start",
  "--permissions",
  "can_read_order,can_write_order,can_read_item,can_write_item,can_retrieve_app_config,can_update_app_config",
]).trim();
const [ticket] = queryLocal<{ token: string }>(
  "SELECT token FROM tickets WHERE app_id = 1 AND status = 'pending' AND is_deleted = 0 ORDER BY id LIMIT 1",
);

// The demo customer Sara's number as a development test number: its login code is always 123456.
const TEST_MOBILE = "0534501056";
const TEST_NUMBER = "966534501056:123456";

// The API and the webhooks' consumer in one process, sharing the local queues and D1. Webhooks may
// target a receiver on this machine (http://localhost) in local development only: both Workers check.
const consumer = writeLocalWebhooksConfig({ WEBHOOKS_ALLOW_LOCALHOST: "true" });
const dev = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "-c",
    "wrangler.toml",
    "-c",
    consumer,
    "--port",
    String(PORT),
    "--ip",
    "127.0.0.1",
    "--var",
    "WEBHOOKS_ALLOW_LOCALHOST:true",
    "--var",
    `OTP_TEST_NUMBERS:${TEST_NUMBER}`,
  ],
  { stdio: "inherit", env },
);
const stop = () => dev.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => process.exit(code ?? 0));

const deadline = Date.now() + 120_000;
while (Date.now() < deadline) {
  try {
    if ((await fetch(`${BASE}/health`)).ok) break;
  } catch {
    // not listening yet
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
  curl -s  -H 'app-id: 1' -H 'Content-Type: application/json' -X POST '${BASE}/api/v1/sales-channels/providers/' \
       -d '{"lat": "24.7136", "lng": "46.6753", "city_id": 1}'

  curl -s ${h} -H 'Content-Type: application/json' -X PATCH '${BASE}/order/v1/merchant/meals/restaurants/2/' \
       -d '{"subtitle_en": "Open late"}'

The customer app's catalogue is public too, and a whole purchase (cart, checkout, the development card
page with its Pay button, the paid order, a refund) is in the README, "A purchase":

  curl -s -H 'app-id: 1' '${BASE}/order/v1/items/?page_size=3'
  curl -s ${h} '${BASE}/order/v1/merchant/orders/?page_size=5'

The platform operator's key of this clone (PLATFORM_API_KEY in .dev.vars) creates organizations,
stores and their first keys (README, "Deploying", step 6):

  curl -s -H 'Authorization: Bearer ${platformKey}' '${BASE}/platform/v1/stores/'

Press Ctrl+C to stop.
`);
