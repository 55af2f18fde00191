/**
 * zod's namespace (`z`) as src/core/zod/index.ts builds it. An export here hides the one of the same
 * name that `export *` would bring, and with it the code behind it:
 * - `locales` and `core.locales` hold English only;
 * - `compile`, `withParser` and their errors (ahead-of-time compiled parsers, 32 KB) and
 *   `fromJSONSchema` (zod schemas from JSON Schema, 13 KB) are undefined: the Worker uses neither;
 * - `z`: "zod/v4" exports its namespace also under that name, which is no member of the namespace
 *   itself, and it would bring all of the above back.
 */
import en from "zod/v4/locales/en.js";
import * as core from "./core";

export * from "zod/v4";
export { core };
export const locales = { en };
export const compile = undefined;
export const withParser = undefined;
export const ZodCompileAsyncError = undefined;
export const ZodCompileUnsupportedError = undefined;
export const fromJSONSchema = undefined;
export const z = undefined;
