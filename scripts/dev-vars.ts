/**
 * Local secrets for `wrangler dev`: writes `.dev.vars` (git-ignored) with a random value for each
 * required secret it lacks, and leaves every other line as it is. Deployed Workers get theirs from
 * `wrangler secret put <NAME>` (README, "Deploying").
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const FILE = ".dev.vars";
/**
 * wrangler.toml's `[secrets] required` (customer access tokens, signed links and callbacks), and the
 * platform operator's key: optional deployed (the platform routes answer 503 without it), one per clone here;
 * the e-invoice units' sealing key, which the webhooks' Worker reads too (scripts/local-webhooks-config.ts).
 */
const SECRETS = ["CUSTOMER_JWT_SECRET", "LINK_SIGNING_SECRET", "PLATFORM_API_KEY", "EINVOICE_KEY_SECRET"];
for (const name of SECRETS) {
  const current = existsSync(FILE) ? readFileSync(FILE, "utf8") : "";
  if (new RegExp(`^${name}=`, "m").test(current)) continue;
  const line = `${name}=${randomBytes(32).toString("base64url")}\n`;
  writeFileSync(FILE, current && !current.endsWith("\n") ? `${current}\n${line}` : current + line);
  process.stdout.write(`wrote a local ${name} to ${FILE}\n`);
}
