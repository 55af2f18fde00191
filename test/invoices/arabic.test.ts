import { describe, expect, it } from "vitest";
import { directionOf, shapeArabic, visualOrder } from "../../src/core/pdf/arabic";

const cps = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16));

describe("Arabic shaping", () => {
  it("gives each letter its form by its neighbours: initial, medial, final, isolated", () => {
    // بيت: beh initial, yeh medial, teh final.
    expect(shapeArabic("بيت").map((c) => c[0]!.toString(16))).toEqual(["fe91", "fef4", "fe96"]);
    // دار: dal, alef and reh join no letter on their left: each stands alone.
    expect(shapeArabic("دار").map((c) => c[0]!.toString(16))).toEqual(["fea9", "fe8d", "fead"]);
    // A letter after a space starts a new word.
    expect(shapeArabic("ب ب").map((c) => c[0]!.toString(16))).toEqual(["fe8f", "20", "fe8f"]);
  });

  it("joins lam and alef into one ligature, isolated or final", () => {
    expect(shapeArabic("لا").map((c) => c[0]!.toString(16))).toEqual(["fefb"]);
    expect(shapeArabic("سلام").map((c) => c[0]!.toString(16))).toEqual(["feb3", "fefc", "fee1"]);
    expect(shapeArabic("الإصدار")[1]![0]!.toString(16)).toBe("fef9");
    expect(shapeArabic("لأن")[0]![0]!.toString(16)).toBe("fef7");
  });

  it("keeps marks on their letter without breaking the joining", () => {
    // شُكْرًا: the marks ride on their letters, and sheen still joins kaf.
    const shaped = shapeArabic("شُكْر");
    expect(shaped.map((c) => c.map((x) => x.toString(16)))).toEqual([["feb7", "64f"], ["fedc", "652"], ["feae"]]);
  });

  it("shapes the letters of Persian and Urdu names", () => {
    expect(cps(visualOrder("پژ"))).toEqual(["fb8b", "fb58"]);
  });
});

describe("visual order", () => {
  it("reverses Arabic, keeps numbers and Latin left to right inside it", () => {
    expect(visualOrder("الإجمالي 115.00 SAR", "rtl")).toBe(`SAR 115.00 ${visualOrder("الإجمالي")}`);
    expect(visualOrder("ضريبة 15%")).toBe(`15% ${visualOrder("ضريبة")}`);
    expect(visualOrder("Invoice 12")).toBe("Invoice 12");
    expect(visualOrder("INV-000042", "rtl")).toBe("INV-000042");
    expect(visualOrder("2026-01-05", "rtl")).toBe("2026-01-05");
  });

  it("puts an Arabic name inside English text in its place, reversed", () => {
    expect(visualOrder("Seller: سلة Ltd")).toBe(`Seller: ${visualOrder("سلة")} Ltd`);
  });

  it("mirrors brackets in right-to-left text", () => {
    expect(visualOrder("قهوة (كبير)")).toBe(`(${visualOrder("كبير")}) ${visualOrder("قهوة")}`);
  });

  it("takes the direction of the first letter", () => {
    expect(directionOf("123 سلة", "ltr")).toBe("rtl");
    expect(directionOf("Shop سلة", "rtl")).toBe("ltr");
    expect(directionOf("123", "rtl")).toBe("rtl");
  });
});
