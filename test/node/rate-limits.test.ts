import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// Not a literal, so that the Node type check leaves the Worker's sources out.
const rateLimitModule = "../../src/core/rate-limit";
const { RATE_LIMITS } = (await import(rateLimitModule)) as {
  RATE_LIMITS: Record<string, { name: string; limit: number; windowSeconds: number; binding: string }>;
};

it("the documented limits (core/rate-limit.ts) are wrangler.toml's [[ratelimits]], binding for binding", () => {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const declared = [
    ...toml.matchAll(
      /\[\[ratelimits\]\]\s*\nname = "(\w+)"\s*\nnamespace_id = "\d+"\s*\nsimple = \{ limit = (\d+), period = (\d+) \}/g,
    ),
  ].map((m) => ({ binding: m[1]!, limit: Number(m[2]), windowSeconds: Number(m[3]) }));
  expect(declared.length).toBeGreaterThan(0);
  const documented = Object.values(RATE_LIMITS).map(({ binding, limit, windowSeconds }) => ({
    binding,
    limit,
    windowSeconds,
  }));
  const byBinding = (a: { binding: string }, b: { binding: string }) => (a.binding < b.binding ? -1 : 1);
  expect(documented.sort(byBinding)).toEqual(declared.sort(byBinding));
});
