import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PricedItem } from "../../src/modules/items/catalogue-items/pricing";
import { lineProblem } from "../../src/modules/orders/pricing/quote";
import { vatSplit } from "../../src/modules/orders/pricing/vat";
import { percentOfBp } from "../../src/modules/orders/shared";
import { FUZZ_SEED, scaled } from "../helpers/depth";

/*
 * SIZE: the random property below checks 200 totals and rates on every run, from the fixed FUZZ_SEED
 * (the same cases each run; TEST_SEED picks others); `npm run test:deep` checks the full 2,000. The
 * rounding's edges (exact halves, exact quotients, 0, 1, 0%, 100%) are fixed cases of their own.
 */

/** The exact half-up split, computed with BigInt rationals: excl = round(total × 10000 / (10000 + bp)). */
function reference(total: number, bp: number) {
  const num = BigInt(total) * 10_000n;
  const den = BigInt(10_000 + bp);
  const q = num / den;
  const r = num % den;
  const excl = Number(2n * r >= den ? q + 1n : q);
  return { excludingTaxMinor: excl, taxMinor: total - excl };
}

describe("vatSplit (prices include VAT; split per line, half up)", () => {
  it("10.33 at 15% is 8.98 + 1.35", () => {
    expect(vatSplit(1033, 1500)).toEqual({ excludingTaxMinor: 898, taxMinor: 135 });
  });

  it("the FOUND-style amounts", () => {
    expect(vatSplit(11_500, 1500)).toEqual({ excludingTaxMinor: 10_000, taxMinor: 1500 });
    expect(vatSplit(100, 1500)).toEqual({ excludingTaxMinor: 87, taxMinor: 13 }); // 86.956… → 87
    expect(vatSplit(1, 1500)).toEqual({ excludingTaxMinor: 1, taxMinor: 0 }); // 0.869… → 1
    expect(vatSplit(9000, 1500)).toEqual({ excludingTaxMinor: 7826, taxMinor: 1174 }); // 7826.08…
  });

  it("an exact half rounds the excluding part up; an exact quotient is kept", () => {
    // At 100% VAT the excluding part is total / 2: 3 → 1.5 → 2, 5 → 2.5 → 3.
    expect(vatSplit(3, 10_000)).toEqual({ excludingTaxMinor: 2, taxMinor: 1 });
    expect(vatSplit(5, 10_000)).toEqual({ excludingTaxMinor: 3, taxMinor: 2 });
    expect(vatSplit(115, 1500)).toEqual({ excludingTaxMinor: 100, taxMinor: 15 });
    expect(vatSplit(23, 1500)).toEqual({ excludingTaxMinor: 20, taxMinor: 3 });
  });

  it("a zero total has no tax", () => {
    expect(vatSplit(0, 1500)).toEqual({ excludingTaxMinor: 0, taxMinor: 0 });
  });

  it("0% VAT (or none) leaves the total untaxed", () => {
    expect(vatSplit(1033, 0)).toEqual({ excludingTaxMinor: 1033, taxMinor: 0 });
    expect(vatSplit(99_999_999_999, 0)).toEqual({ excludingTaxMinor: 99_999_999_999, taxMinor: 0 });
  });

  it("percentOfBp shows basis points as a percentage", () => {
    expect(percentOfBp(1500)).toBe(15);
    expect(percentOfBp(525)).toBe(5.25);
    expect(percentOfBp(0)).toBe(0);
  });

  it("many random totals and rates: excl + tax == total, both integers ≥ 0, excl the half-up quotient", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999_999 }),
        fc.oneof(fc.constant(1500), fc.constant(500), fc.integer({ min: 1, max: 10_000 })),
        (total, bp) => {
          const split = vatSplit(total, bp);
          expect(Number.isInteger(split.excludingTaxMinor) && Number.isInteger(split.taxMinor)).toBe(true);
          expect(split.excludingTaxMinor + split.taxMinor).toBe(total);
          expect(split.taxMinor).toBeGreaterThanOrEqual(0);
          expect(split).toEqual(reference(total, bp));
        },
      ),
      { seed: FUZZ_SEED, numRuns: scaled(200, 2000) },
    );
  });

  it("summed per line, the tax of a cart may differ from the tax of its total (rounded per line)", () => {
    const lines = [1033, 1033, 1033];
    const perLine = lines.map((l) => vatSplit(l, 1500).taxMinor).reduce((a, b) => a + b, 0);
    expect(perLine).toBe(405);
    expect(vatSplit(3099, 1500).taxMinor).toBe(404);
  });
});

const item = (over: Partial<PricedItem> = {}): PricedItem => ({
  id: 1,
  parentId: null,
  isLive: true,
  type: "product",
  isPlanOnly: false,
  nameEn: "Coffee",
  nameAr: "قهوة",
  sku: "C-1",
  unitPriceMinor: 1000,
  available: 5,
  servedFromDate: "0001-01-01",
  servedToDate: "9999-12-31",
  categoryIds: [],
  modifierValueIds: new Set([10, 11]),
  bundleCategories: [{ id: 7, isOptional: false, min: 1, max: 2, memberIds: new Set([20, 21, 22]) }],
  ...over,
});
const line = (over = {}) => ({
  key: 0,
  itemId: 1,
  qty: 1,
  modifierValueIds: [] as number[],
  bundleSelections: [{ bundle_category_id: 7, item_ids: [20] }],
  ...over,
});

describe("lineProblem (why a line cannot be ordered)", () => {
  const today = "2026-06-01";

  it("null for an orderable line", () => {
    expect(lineProblem(line({ modifierValueIds: [10] }), item(), today)).toBeNull();
  });

  it("names an unknown, deleted, plan-only or out-of-dates item", () => {
    expect(lineProblem(line(), undefined, today)).toMatch(/not in the store's catalogue/);
    expect(lineProblem(line(), item({ isLive: false }), today)).toMatch(/not in the store's catalogue/);
    expect(lineProblem(line(), item({ isPlanOnly: true }), today)).toMatch(/only in meal plans/);
    expect(lineProblem(line(), item({ servedToDate: "2026-05-31" }), today)).toMatch(/served from/);
    expect(lineProblem(line(), item({ servedFromDate: "2026-06-02" }), today)).toMatch(/served from/);
    expect(lineProblem(line(), item({ servedFromDate: today, servedToDate: today }), today)).toBeNull();
  });

  it("refuses a modifier value of another item", () => {
    expect(lineProblem(line({ modifierValueIds: [10, 99] }), item(), today)).toBe(
      "Modifier value 99 is not one of item 1's modifiers.",
    );
  });

  it("checks bundle selections: known category, min and max, members only", () => {
    expect(lineProblem(line({ bundleSelections: [] }), item(), today)).toMatch(/takes 1 to 2 selections; 0 given/);
    expect(
      lineProblem(line({ bundleSelections: [{ bundle_category_id: 7, item_ids: [20, 21, 22] }] }), item(), today),
    ).toMatch(/takes 1 to 2 selections; 3 given/);
    expect(lineProblem(line({ bundleSelections: [{ bundle_category_id: 7, item_ids: [99] }] }), item(), today)).toBe(
      "Item 99 is not a choice of bundle category 7.",
    );
    expect(
      lineProblem(
        line({
          bundleSelections: [
            { bundle_category_id: 7, item_ids: [20] },
            { bundle_category_id: 8, item_ids: [20] },
          ],
        }),
        item(),
        today,
      ),
    ).toBe("Bundle category 8 is not one of item 1's bundle categories.");
    // An optional category may be left empty.
    const optional = item({
      bundleCategories: [{ id: 7, isOptional: true, min: 1, max: 2, memberIds: new Set([20]) }],
    });
    expect(lineProblem(line({ bundleSelections: [] }), optional, today)).toBeNull();
  });
});
