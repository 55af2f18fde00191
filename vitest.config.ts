import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from "vitest/config";
import { ASSETS_DIR, buildDocsAssets } from "./scripts/docs-assets.js";

/**
 * The Worker tests that need a database of their own: a file that says so (a comment "needs a
 * database of its own", with why), or that names store 1 or 2 by number. Every other file works in
 * stores of its own (APP_1 and APP_2 are new stores for each of them), so those files share one
 * runtime and one database per worker: a runtime of its own, the migrations and the seed cost a
 * file more than most files' tests (about 8 s a file on 2 cores).
 */
const SEEDED_STORES = /needs a database of its own|appId: [12]\b/;
const workerFiles = readdirSync("test", { recursive: true, encoding: "utf8" })
  .map((f) => `test/${f.replaceAll(path.sep, "/")}`)
  .filter((f) => f.endsWith(".test.ts") && !f.startsWith("test/node/"))
  .map((f) => ({ f, text: readFileSync(f, "utf8") }));
const ownDatabase = workerFiles
  .filter(({ text }) => SEEDED_STORES.test(text))
  .map(({ f }) => f)
  .sort();
/**
 * The files that share a database, dealt into two halves by size (a project whose files share a
 * runtime runs them in one worker: two halves keep both cores busy).
 */
const sharing = workerFiles
  .filter(({ f }) => !ownDatabase.includes(f))
  .sort((a, b) => b.text.length - a.text.length || a.f.localeCompare(b.f))
  .map(({ f }) => f);
const halves = [0, 1].map((h) => sharing.filter((_, i) => i % 2 === h));

export default defineConfig(async (): Promise<ViteUserConfig> => {
  // The directory's and the shards' (docs/shards.md): test/setup applies them to each binding.
  const directoryMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations/directory"));
  const shardMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations/shard"));
  // wrangler.toml's [assets] directory (the /docs files) must exist before the pool reads it.
  buildDocsAssets();
  // Everything that runs the Worker: inside workerd, with local D1, KV and Queues.
  const inWorkerd = (name: string, files: { include: string[]; exclude: string[]; isolate: boolean }) =>
    ({
      plugins: [
        cloudflareTest({
          wrangler: { configPath: "./wrangler.toml" },
          // Migrations reach the setup file through a test-only binding. So do the static assets:
          // calls to the Worker in this pool skip the assets router, so test/core/docs.test.ts asks it.
          miniflare: {
            // A fixed secret for customer access tokens, as `.dev.vars` gives `wrangler dev` one.
            bindings: {
              TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
              TEST_SHARD_MIGRATIONS: shardMigrations,
              CUSTOMER_JWT_SECRET: "test-only-customer-jwt-secret-0123456789",
              LINK_SIGNING_SECRET: "test-only-link-signing-secret-0123456789",
              // The platform operator's key (README, Secrets): test/helpers/platform.ts sends it.
              PLATFORM_API_KEY: "test-only-platform-key-0123456789abcdef",
              // Seals the e-invoicing units' keys (docs/zatca.md); the signer's tests open them with it.
              EINVOICE_KEY_SECRET: "test-only-einvoice-key-secret-0123456789",
              ...(!files.isolate && { TEST_SHARED_DATABASE: "1" }),
              // The year of subscriptions' size: the suite's own unless the bench asks for more.
              ...(process.env.SIM_SUBSCRIPTIONS && { SIM_SUBSCRIPTIONS: process.env.SIM_SUBSCRIPTIONS }),
              // `npm run test:deep` (test/helpers/depth.ts): the random fuzz and the full-size scenarios.
              ...(process.env.TEST_DEEP && { TEST_DEEP: process.env.TEST_DEEP }),
              ...(process.env.TEST_SEED && { TEST_SEED: process.env.TEST_SEED }),
              // `npm run bench -- --only waits` (scripts/bench/waits.ts): each request's D1 waits.
              ...(process.env.TEST_D1_WAITS && { TEST_D1_WAITS: "1" }),
            },
            assets: { binding: "TEST_ASSETS", directory: ASSETS_DIR },
          },
        }),
      ],
      // The bundle's zod (wrangler.toml's alias), so that the tests run on what is deployed.
      resolve: { alias: [{ find: /^zod$/, replacement: path.join(import.meta.dirname, "src/core/zod/index.ts") }] },
      test: {
        name,
        ...files,
        setupFiles: ["./test/setup/apply-migrations.ts"],
        // The deep run's full-size scenarios take minutes each.
        testTimeout: process.env.TEST_DEEP ? 900_000 : 60_000,
      },
    }) satisfies TestProjectInlineConfiguration;
  return {
    test: {
      // The JSON report lets .ci/run print the plain "N passed, N failed" line.
      reporters: ["default", ["json", { outputFile: "node_modules/.cache/vitest/results.json" }]],
      // One worker more than the machine's 2 cores: a worker waits on its workerd runtime much of the
      // time, and with 2 the second core stood idle (npm test: 6 min 14 s with 2, 4 min 24 s with 3,
      // the same with 4).
      maxWorkers: 3,
      // The D1 waits each request printed (TEST_D1_WAITS names the file) go to the file, not the terminal.
      onConsoleLog(log) {
        const file = process.env.TEST_D1_WAITS;
        if (!file || !log.startsWith("d1-waits ")) return;
        // Lines printed close together may come as one log.
        const lines = log.split("\n").filter((l) => l.startsWith("d1-waits "));
        appendFileSync(file, lines.map((l) => `${l.slice("d1-waits ".length).trim()}\n`).join(""));
        return false;
      },
      projects: [
        // Files in stores of their own: one runtime and database per worker, files one after another.
        ...halves.map((include, h) => inWorkerd(`worker-${h + 1}`, { include, exclude: [], isolate: false })),
        // Files on the seeded stores: a fresh runtime and database each.
        inWorkerd("worker-own-db", { include: ownDatabase, exclude: [], isolate: true }),
        {
          // Tools that only run on Node, and the end-to-end test against `wrangler dev`.
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            environment: "node",
            // One at a time: the end-to-end test times real deliveries under `wrangler dev`, and the
            // others (type generation, Spectral, a local platform proxy) would starve it on 2 cores.
            fileParallelism: false,
            // Hang limits, not speed checks: a setup that migrates and seeds a local database takes
            // about a minute quiet and four at a load of 14 (seen while other suites ran).
            testTimeout: 600_000,
            hookTimeout: 600_000,
          },
        },
      ],
    },
  };
});
