import { beforeAll, describe, expect, it } from "vitest";
import { formatPhoneInternational, type PhoneRules, phoneRules } from "../../src/modules/customers/phone";
import { testAssets } from "../helpers/request";

// The numbering plans as the Worker reads them, from the static assets.
let rules: PhoneRules;
beforeAll(async () => {
  rules = await phoneRules({ assets: testAssets() });
});

describe("formatPhoneInternational (shipping labels)", () => {
  it("gives a Saudi mobile as +966 5X XXX XXXX from every form an address may hold", () => {
    for (const stored of [
      "+966534501056",
      "966534501056",
      "00966534501056",
      "0534501056",
      "534501056",
      "05 3450 1056",
      " +966 53 450 1056 ",
    ]) {
      expect(formatPhoneInternational(rules, stored), stored).toBe("+966 53 450 1056");
    }
  });

  it("keeps another country's code, formats a Saudi landline, and leaves what is no number as stored", () => {
    expect(formatPhoneInternational(rules, "+971501234567")).toBe("+971 50 123 4567");
    expect(formatPhoneInternational(rules, "0112345678")).toBe("+966 11 234 5678");
    expect(formatPhoneInternational(rules, "12345")).toBe("12345");
    expect(formatPhoneInternational(rules, " ask at the gate ")).toBe("ask at the gate");
  });
});
