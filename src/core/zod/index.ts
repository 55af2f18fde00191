/**
 * What the Worker's bundle gets for `import ... from "zod"` (wrangler.toml's `alias`; the tests get it
 * too, from vitest.config.ts): zod's own namespace, less what the Worker never uses.
 *
 * @hono/zod-openapi passes zod's namespace object to a function, so the bundler has to keep every
 * member of it and all the code behind them, though the Worker uses a part: 60-odd translations of
 * the error messages (260 KB) where only English is used, a compiler of parsers, a reader of JSON
 * Schema (see ./classic). The namespace built here leaves those out and has every other member of
 * zod's, the very same values: test/core/zod-bundle.test.ts checks it member by member.
 */
import * as z from "./classic";

export * from "./classic";
export { z, z as default };
