import { env } from "cloudflare:workers";

/**
 * How deep this run goes. `npm test` (every push) runs each scale scenario at a small size and the
 * fixed, exhaustive single-fault cases; `npm run test:deep` (TEST_DEEP, given to the Worker's tests by
 * vitest.config.ts) adds the random fuzz and plays the scale scenarios at their full size.
 */
export const DEEP = env.TEST_DEEP === "1";

/** A scenario's size: `small` on every run, `full` under `npm run test:deep`. */
export function scaled(small: number, full: number): number {
  return DEEP ? full : small;
}

/**
 * The random fuzz's seed: fixed, so that a failure seen once is seen again; TEST_SEED picks another
 * (the failing case's message names the seed and path, as fast-check reports them).
 */
export const FUZZ_SEED = Number(env.TEST_SEED ?? 20261127);
