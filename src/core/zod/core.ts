/** zod's `z.core` as src/core/zod/index.ts builds it: its `locales` too hold English only. */
import en from "zod/v4/locales/en.js";

export * from "zod/v4/core";
export const locales = { en };
