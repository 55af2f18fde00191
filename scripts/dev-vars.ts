/**
 * Local secrets for `wrangler dev`: writes `.dev.vars` (git-ignored) with a random
 * CUSTOMER_JWT_SECRET when it has none, and leaves every other line as it is. Deployed Workers
 * get theirs from `wrangler secret put CUSTOMER_JWT_SECRET` (README, "Deploying").
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const FILE = ".dev.vars";
const current = existsSync(FILE) ? readFileSync(FILE, "utf8") : "";
if (!/^CUSTOMER_JWT_SECRET=/m.test(current)) {
  const line = `CUSTOMER_JWT_SECRET=${randomBytes(32).toString("base64url")}\n`;
  writeFileSync(FILE, current && !current.endsWith("\n") ? `${current}\n${line}` : current + line);
  process.stdout.write(`wrote a local CUSTOMER_JWT_SECRET to ${FILE}\n`);
}
