import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { directoryOf, shardNames, shardOf } from "../../src/db/shards";
import { wireModules } from "../../src/wiring";
import { seedTenants, useStoresOfThisFile } from "../helpers/factories";

// What the Worker registers between modules before its first request, batch or cron run; tests
// that call services directly get it too.
wireModules();

// Setup files run before each test file; applying migrations is idempotent.
// The directory and the two shards (docs/shards.md).
await applyD1Migrations(directoryOf(env), env.TEST_DIRECTORY_MIGRATIONS);
for (const name of shardNames(env)) await applyD1Migrations(shardOf(env, name), env.TEST_SHARD_MIGRATIONS);
await seedTenants();
// Files that share a database (vitest.config.ts) each take stores of their own as APP_1 and APP_2.
if (env.TEST_SHARED_DATABASE) await useStoresOfThisFile();

// One request line per request (core/logging.ts) would drown the suite's output in thousands of
// lines; the tests that check those lines spy on console.log, which still sees every call.
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].startsWith('{"msg":"request"')) return;
  print(...args);
};
