import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** Set in the project whose files share one database. */
      TEST_SHARED_DATABASE?: string;
      /** How many subscriptions test/subscriptions/year.test.ts plays (the bench's `--only year`: 1,000). */
      SIM_SUBSCRIPTIONS?: string;
    }
  }
}
