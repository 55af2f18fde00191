/**
 * Applies the migrations to every D1 database wrangler.toml declares (docs/shards.md):
 * migrations/directory/ to DIRECTORY, migrations/shard/ to each SHARD_* binding.
 *
 *   tsx scripts/migrate.ts --local | --remote [wrangler's further arguments, e.g. --persist-to DIR]
 */
import { execFileSync } from "node:child_process";
import { migrationCommands } from "./d1";
import { ROOT, WRANGLER, WRANGLER_ENV } from "./processes";

const [where, ...extra] = process.argv.slice(2);
if (where !== "--local" && where !== "--remote") {
  process.stderr.write("usage: tsx scripts/migrate.ts --local | --remote [wrangler arguments]\n");
  process.exit(2);
}
for (const args of migrationCommands(where, extra)) {
  execFileSync(WRANGLER, args, { cwd: ROOT, stdio: "inherit", env: WRANGLER_ENV });
}
