import { describe, expect, it } from "vitest";
import * as zod from "zod";
import * as bundled from "../../src/core/zod";

/**
 * The bundle's "zod" (src/core/zod, wrangler.toml's alias) must be zod less its translations: the tests
 * run on zod itself, so this is what says that the deployed Worker sees the same library.
 */
describe("the bundle's zod", () => {
  const sameMembers = (ours: object, theirs: object, left: string[]) => {
    const theirKeys = Object.keys(theirs).filter((k) => !left.includes(k));
    expect(
      Object.keys(ours)
        .filter((k) => !left.includes(k))
        .sort(),
    ).toEqual(theirKeys.sort());
    for (const k of theirKeys) expect(ours[k as keyof typeof ours], k).toBe(theirs[k as keyof typeof theirs]);
  };

  it("has every member of zod's namespace, the same values, but the locales", () => {
    sameMembers(bundled.z, zod.z, ["locales", "core", "z"]);
    sameMembers(bundled.z.core, zod.z.core, ["locales"]);
    expect(bundled.default).toBe(bundled.z);
    expect(bundled.z.z).toBeUndefined();
  });

  it("keeps English, the messages the Worker words its errors from", () => {
    expect(bundled.z.locales).toEqual({ en: zod.z.locales.en });
    expect(bundled.z.core.locales).toEqual({ en: zod.z.core.locales.en });
    const result = bundled.z.string().safeParse(1);
    expect(result.success).toBe(false);
  });

  it("exports by name what zod exports, as the same values", () => {
    sameMembers(bundled, zod, ["locales", "core", "z", "default"]);
  });
});
