import { describe, expect, it } from "vitest";
import * as bundled from "zod";
// "zod/v4" is zod as installed: only the bare "zod" is the bundle's (vitest.config.ts, wrangler.toml).
import * as zod from "zod/v4";

/** The members the bundle's zod leaves out (src/core/zod/classic.ts), undefined there. */
const LEFT_OUT = ["compile", "withParser", "ZodCompileAsyncError", "ZodCompileUnsupportedError"];

/** The bundle's "zod" (src/core/zod) is zod less what the Worker never uses. */
describe("the bundle's zod", () => {
  /** Every member of `theirs` but `skipped` is one of `ours`, the same value; `ours` has no other. */
  const sameMembers = (ours: object, theirs: object, skipped: string[]) => {
    const theirKeys = Object.keys(theirs).filter((k) => !skipped.includes(k));
    expect(
      Object.keys(ours)
        .filter((k) => !skipped.includes(k))
        .sort(),
    ).toEqual(theirKeys.sort());
    for (const k of theirKeys) expect(ours[k as keyof typeof ours], k).toBe(theirs[k as keyof typeof theirs]);
  };
  const leftOut = (ours: object, names: string[]) => {
    for (const k of names) expect(ours[k as keyof typeof ours], k).toBeUndefined();
  };

  it("is what the tests run on", () => {
    expect(bundled.z).not.toBe(zod.z);
    expect(Object.keys(bundled.z.locales)).toEqual(["en"]);
  });

  it("has every other member of zod's namespace, the same values", () => {
    sameMembers(bundled.z, zod.z, ["locales", "core", "z", "fromJSONSchema", ...LEFT_OUT]);
    leftOut(bundled.z, ["fromJSONSchema", ...LEFT_OUT]);
    sameMembers(bundled.z.core, zod.z.core, ["locales", "compileFn", ...LEFT_OUT]);
    leftOut(bundled.z.core, ["compileFn", ...LEFT_OUT]);
    expect(bundled.default).toBe(bundled.z);
  });

  it("exports by name what zod exports, as the same values", () => {
    sameMembers(bundled, zod, ["locales", "core", "z", "default", "fromJSONSchema", ...LEFT_OUT]);
    leftOut(bundled, ["fromJSONSchema", ...LEFT_OUT]);
  });

  it("keeps English, the messages the Worker words its errors from", () => {
    expect(bundled.z.locales).toEqual({ en: zod.z.locales.en });
    expect(bundled.z.core.locales).toEqual({ en: zod.z.core.locales.en });
    expect(bundled.z.string().safeParse(1).error?.issues[0]?.message).toBe(
      zod.z.string().safeParse(1).error?.issues[0]?.message,
    );
  });
});
