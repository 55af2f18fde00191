/** zod's namespace (`z`) as src/core/zod/index.ts builds it: `locales` holds English only. */
import en from "zod/v4/locales/en.js";
import * as core from "./core";

export * from "zod/v4";
export { core };
export const locales = { en };
/**
 * "zod/v4" exports its namespace also as `z`, which is no member of the namespace itself: re-exported,
 * it would bring back the whole namespace and every locale with it.
 */
export const z = undefined;
