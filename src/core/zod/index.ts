/**
 * What the Worker's bundle gets for `import ... from "zod"` (wrangler.toml's `alias`): zod's own
 * namespace, less its 60-odd translations of the error messages.
 *
 * @hono/zod-openapi passes zod's namespace object to a function, so the bundler has to keep every
 * member of it, `locales` (260 KB of code, a third of zod's) included, though only the English
 * messages are ever used. The namespace built here has every other member, the very same values.
 * test/core/zod-bundle.test.ts checks that against zod's.
 */
import * as z from "./classic";

export * from "./classic";
export { z, z as default };
