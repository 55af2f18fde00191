import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig, type ViteUserConfig } from "vitest/config";

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    test: {
      // The JSON report lets .ci/run print the plain "N passed, N failed" line.
      reporters: ["default", ["json", { outputFile: "node_modules/.cache/vitest/results.json" }]],
      projects: [
        {
          // Everything that runs the Worker: inside workerd, with local D1, KV and Queues.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              // Migrations reach the setup file through a test-only binding.
              miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
            }),
          ],
          test: {
            name: "worker",
            include: ["test/**/*.test.ts"],
            exclude: ["test/node/**"],
            setupFiles: ["./test/setup/apply-migrations.ts"],
            testTimeout: 60_000,
          },
        },
        {
          // Tools that only run on Node, and the end-to-end test against `wrangler dev`.
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            environment: "node",
            testTimeout: 200_000,
            hookTimeout: 200_000,
          },
        },
      ],
    },
  };
});
