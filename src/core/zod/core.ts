/** zod's `z.core` as src/core/zod/index.ts builds it, less the same members as `z` (see ./classic). */
import en from "zod/v4/locales/en.js";

export * from "zod/v4/core";
export const locales = { en };
export const compile = undefined;
export const compileFn = undefined;
export const withParser = undefined;
export const ZodCompileAsyncError = undefined;
export const ZodCompileUnsupportedError = undefined;
