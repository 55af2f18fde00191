import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      /** migrations/directory/ and migrations/shard/ (test/setup applies them to each binding). */
      TEST_DIRECTORY_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
      /** The platform operator's key (an optional secret of the Worker; vitest.config.ts sets one). */
      PLATFORM_API_KEY?: string;
      /** Set in the project whose files share one database. */
      TEST_SHARED_DATABASE?: string;
      /** How many subscriptions test/subscriptions/year.test.ts plays (the bench's `--only year`: 1,000). */
      SIM_SUBSCRIPTIONS?: string;
      /** `npm run test:deep`: the random fuzz and the scale scenarios at full size (test/helpers/depth.ts). */
      TEST_DEEP?: string;
      /** `npm run bench -- --only waits`: every `call()` prints the D1 round trips it waited for. */
      TEST_D1_WAITS?: string;
      /** The random fuzz's seed under `npm run test:deep` (test/helpers/depth.ts). */
      TEST_SEED?: string;
    }
  }
}
