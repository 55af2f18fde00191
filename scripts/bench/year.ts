/**
 * `--only year`: the suite's year of monthly subscriptions (test/subscriptions/year.test.ts) played
 * at its full size (SIM_SUBSCRIPTIONS reaches the Worker's tests through vitest.config.ts).
 */
import { execFileSync } from "node:child_process";
import { count, env, log, type Scenario } from "./harness";

const SUBSCRIPTIONS = Number(process.env.BENCH_YEAR_SUBSCRIPTIONS ?? 1_000);

export const year: Scenario = {
  name: "year",
  heading: "## A year of subscriptions",
  goal:
    "the year test passes at its full size: the store holds exactly the renewals a model of the rules predicts, each " +
    "period charged once, one event per change, each sent to the events queue once.",
  // A run of the test suite (about 7 minutes here), not a measure of the served Worker.
  alone: true,
  async run() {
    log(`playing a year of ${SUBSCRIPTIONS} subscriptions (test/subscriptions/year.test.ts)`);
    const t = performance.now();
    let passed = true;
    try {
      execFileSync("npx", ["vitest", "run", "test/subscriptions/year.test.ts"], {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...env, SIM_SUBSCRIPTIONS: String(SUBSCRIPTIONS) },
      });
    } catch {
      passed = false;
    }
    const s = Math.round((performance.now() - t) / 1000);
    const body = [
      `test/subscriptions/year.test.ts with ${count(SUBSCRIPTIONS)} monthly subscriptions (the suite plays 60): a year played ` +
        "day by day on the one clock, with random pauses and resumes, usage, price changes for the next period, the cron run " +
        "twice a day and a crash injected between the claim of a period and its order (the test's queues keep what is sent: " +
        "the local Queues broker holds about 10,000 messages in flight, fewer than the year's events).",
      "",
      `Result: **${passed ? "passed" : "failed"}**, in ${s} s (vitest in workerd, local D1, this machine).`,
    ];
    if (!passed) process.exitCode = 1;
    return body;
  },
};
