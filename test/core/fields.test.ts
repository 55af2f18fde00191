import { describe, expect, it } from "vitest";
import { humanText, humanTextProblem, isoDate, isoDateTime, nameText } from "../../src/core/fields";
import { isIsoDate, isIsoDateTime } from "../../src/core/time";

/** The shared date, date-time and human-text checks every request field goes through (issue 27). */
describe("dates and date-times", () => {
  it.each(["2026-12-01", "2024-02-29", "2000-02-29", "1900-01-01", "9999-12-31"])("%s is a date", (d) => {
    expect(isIsoDate(d)).toBe(true);
    expect(isoDate.safeParse(d).success).toBe(true);
  });

  it.each([
    ["February 30", "2026-02-30"],
    ["February 29 of a common year", "2026-02-29"],
    ["February 29 of 1900 (not a leap year)", "1900-02-29"],
    ["April 31", "2026-04-31"],
    ["month 13", "2026-13-01"],
    ["month 00", "2026-00-10"],
    ["day 00", "2026-01-00"],
    ["year 0000", "0000-01-01"],
    ["a year before 1900", "1899-12-31"],
    ["no leading zeros", "2026-1-1"],
  ])("%s is no date", (_n, d) => {
    expect(isIsoDate(d)).toBe(false);
    const r = isoDate.safeParse(d);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join(" ")).toMatch(/^Must be (a date|a real calendar date)/);
  });

  it.each([
    "2026-03-01T00:00:00Z",
    "2026-03-01T09:30:00+03:00",
    "2026-03-01T09:30Z",
    "2026-03-01T23:59:59.123456789-05:30",
    "2024-02-29T12:00:00Z",
    "9999-12-31T23:59:59Z",
  ])("%s is a date-time", (t) => {
    expect(isIsoDateTime(t)).toBe(true);
    expect(isoDateTime.safeParse(t).success).toBe(true);
  });

  it.each([
    ["February 30 (Date.parse rolls it over to March 2)", "2026-02-30T00:00:00Z"],
    ["April 31", "2026-04-31T10:00:00+03:00"],
    ["month 13", "2026-13-01T00:00:00Z"],
    ["hour 25", "2026-03-01T25:00:00Z"],
    ["hour 24", "2026-03-01T24:00:00Z"],
    ["minute 60", "2026-03-01T10:60:00Z"],
    ["second 60", "2026-03-01T10:00:60Z"],
    ["an offset of 24 hours", "2026-03-01T10:00:00+24:00"],
    ["year 0000", "0000-01-01T00:00:00Z"],
    ["an instant past year 9999 in UTC", "9999-12-31T23:00:00-05:00"],
    ["no offset", "2026-03-01T10:00:00"],
    ["a date alone", "2026-03-01"],
  ])("%s is no date-time", (_n, t) => {
    expect(isIsoDateTime(t)).toBe(false);
    const r = isoDateTime.safeParse(t);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(
      "Must be an ISO 8601 date-time with offset, of a real day and time, in the years 1900 to 9999.",
    );
  });
});

describe("human text", () => {
  it.each([
    ["Latin", "Green Kitchen"],
    ["Arabic with RLM and LRM marks between words", "مطبخ\u200f Green\u200e ٢٤"],
    ["a zero-width joiner inside an emoji", "Chef 👩\u200d🍳"],
    ["empty (left to .min where required)", ""],
  ])("a line of %s is text", (_n, s) => {
    expect(humanTextProblem(s, "line")).toBeNull();
  });

  it.each([
    ["direction marks alone", "\u200e\u200f"],
    ["embeddings and isolates alone", "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"],
    ["zero-width characters and a BOM alone", "\u200b\u200c\u200d\ufeff"],
    ["marks between spaces", " \u200f \u00a0 \u200e "],
  ])("%s show nothing: refused as though empty", (_n, s) => {
    expect(humanTextProblem(s, "line")).toMatch(/^Must contain a visible character/);
    expect(humanTextProblem(s, "lines")).toMatch(/^Must contain a visible character/);
  });

  it.each([
    ["NUL", "a\u0000b"],
    ["ESC", "a\u001bb"],
    ["DEL", "a\u007fb"],
    ["a C1 control (NEL)", "a\u0085b"],
  ])("%s is refused in every kind of text", (_n, s) => {
    expect(humanTextProblem(s, "line")).toMatch(/control characters/);
    expect(humanTextProblem(s, "lines")).toMatch(/control characters/);
  });

  it("tab and line breaks are refused in a line, kept in text of several lines", () => {
    for (const s of ["a\tb", "a\nb", "a\r\nb"]) {
      expect(humanTextProblem(s, "line"), JSON.stringify(s)).toMatch(/^Must be one line of text/);
      expect(humanTextProblem(s, "lines"), JSON.stringify(s)).toBeNull();
    }
  });

  it("the schemas trim, then refuse in plain words; nameText requires a visible name", () => {
    expect(humanText(10).parse("  Tea  ")).toBe("Tea");
    expect(humanText(100, "lines").parse("Line 1\nLine 2")).toBe("Line 1\nLine 2");
    expect(nameText.parse("قهوة\u200f 24")).toBe("قهوة\u200f 24");
    const blank = nameText.safeParse("\u200f\u200e");
    expect(blank.error?.issues.map((i) => i.message)).toEqual([
      "Must contain a visible character, not only spaces, direction marks or zero-width characters.",
    ]);
    expect(nameText.safeParse("   ").error?.issues.map((i) => i.message)).toEqual(["Required; must not be empty."]);
    expect(nameText.safeParse("a\u0000").error?.issues.map((i) => i.message)).toEqual([
      "Must be one line of text, without control characters (NUL, tab, line breaks).",
    ]);
  });
});
