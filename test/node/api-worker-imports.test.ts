import { createRequire } from "node:module";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { expect, it } from "vitest";

/**
 * The API Worker's bundle has about 6 KiB of room and the e-invoice core (docs/zatca.md, "Where the
 * signing runs") is about 19 KiB gzipped: it runs in the consumer Worker only. Every module the API
 * Worker's entry reaches, dynamic imports (the lazy routers) included, is outside the core and its
 * fake, so neither can slip into the bundle through an import added later.
 */
it("the API Worker reaches no module of the e-invoice core or its fake", async () => {
  const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs");
  const { tsConfig: _projectOnly, ...options } = config.options;
  const reported = await cruise(["src/index.ts"], options, options.enhancedResolveOptions);
  const modules = (reported.output as ICruiseResult).modules.map((m) => m.source);
  // The walk followed the app's imports (the routers, the gateways' fake among them).
  expect(modules).toContain("src/modules/orders/payments/gateways/fake.ts");
  expect(modules.filter((m) => m.startsWith("src/modules/orders/invoices/e-invoice/"))).toEqual([]);
  // Packages are listed, not followed: hono is there, secp256k1's curves are not.
  expect(modules.some((m) => m.includes("node_modules/hono/"))).toBe(true);
  expect(modules.filter((m) => m.includes("@noble/curves"))).toEqual([]);
});
