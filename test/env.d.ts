import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** How many subscriptions test/subscriptions/year.test.ts plays (the bench's `--only year`: 1,000). */
      SIM_SUBSCRIPTIONS?: string;
    }
  }
}
