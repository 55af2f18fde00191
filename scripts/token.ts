/**
 * Mints a merchant API token in the local D1 database and prints it, alone, on stdout:
 *   npm run -s token -- --app-id 1 --permissions can_read_order,can_write_item [--name cli] [--expires-in-days 30]
 */
import { parseArgs } from "node:util";
import { randomToken, sha256Hex } from "../src/core/crypto";
import { PERMISSIONS, type Permission, TOKEN_PREFIX } from "../src/core/permissions";
import { executeLocal, lit } from "./d1";

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    "app-id": { type: "string" },
    permissions: { type: "string" },
    name: { type: "string", default: "cli" },
    "expires-in-days": { type: "string" },
  },
});

const appId = Number(values["app-id"]);
if (!Number.isSafeInteger(appId) || appId < 1) fail("--app-id must be a positive integer");
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

const token = randomToken(TOKEN_PREFIX);
executeLocal(
  `INSERT INTO merchant_api_tokens (app_id, name, token_hash, token_prefix, permissions, expires_at, created_at)
   SELECT ${lit(appId)}, ${lit(values.name!)}, ${lit(await sha256Hex(token))}, ${lit(token.slice(0, 10))},
          ${lit(JSON.stringify(permissions as Permission[]))}, ${lit(expiresAt)}, ${lit(new Date().toISOString())}
   WHERE EXISTS (SELECT 1 FROM apps WHERE id = ${lit(appId)});`,
);
process.stdout.write(`${token}\n`);
