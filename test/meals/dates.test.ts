import { describe, expect, it } from "vitest";
import {
  addDays,
  type Closures,
  nextMidnight,
  nextOpenDate,
  openDates,
  todayIn,
  weekdayOf,
} from "../../src/modules/meals/dates";
import { distanceKm, insidePolygon } from "../../src/modules/meals/geometry";

describe("calendar arithmetic", () => {
  it("adds days across months, leap days and years, and names weekdays", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(weekdayOf("2026-11-22")).toBe("sunday");
    expect(weekdayOf("2026-11-27")).toBe("friday");
  });

  it("counts today where the restaurant is", () => {
    // 21:30 UTC is 00:30 the next day in Riyadh (UTC+3).
    expect(todayIn("Asia/Riyadh", new Date("2026-11-22T21:30:00Z"))).toBe("2026-11-23");
    expect(todayIn("America/New_York", new Date("2026-11-22T03:00:00Z"))).toBe("2026-11-21");
  });

  it("finds the next local midnight, on days of 24, 23 and 25 hours", () => {
    expect(new Date(nextMidnight("Asia/Riyadh", new Date("2026-11-22T12:00:00Z"))).toISOString()).toBe(
      "2026-11-22T21:00:00.000Z",
    );
    // Berlin: summer time starts on 2026-03-29 (23 h) and ends on 2026-10-25 (25 h).
    expect(new Date(nextMidnight("Europe/Berlin", new Date("2026-03-29T10:00:00Z"))).toISOString()).toBe(
      "2026-03-29T22:00:00.000Z",
    );
    expect(new Date(nextMidnight("Europe/Berlin", new Date("2026-10-25T00:30:00Z"))).toISOString()).toBe(
      "2026-10-25T23:00:00.000Z",
    );
    expect(new Date(nextMidnight("Europe/Berlin", new Date("2026-10-25T11:00:00Z"))).toISOString()).toBe(
      "2026-10-25T23:00:00.000Z",
    );
  });

  it("skips off days and closed dates", () => {
    const closures: Closures = { offDays: ["friday", "saturday"], closedDates: ["2026-11-23"] };
    // 2026-11-27 is a Friday.
    expect(nextOpenDate("2026-11-27", closures)).toBe("2026-11-29");
    expect(nextOpenDate("2026-11-23", closures)).toBe("2026-11-24");
    expect(openDates("2026-11-22", 6, closures)).toEqual([
      "2026-11-22",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-29",
      "2026-11-30",
    ]);
    expect(
      nextOpenDate("2026-11-22", {
        offDays: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
        closedDates: [],
      }),
    ).toBeNull();
  });
});

describe("delivery geometry", () => {
  it("measures great-circle distances and tests points against polygons", () => {
    // Riyadh to Jeddah is about 850 km.
    expect(distanceKm([24.7136, 46.6753], [21.5433, 39.1728])).toBeGreaterThan(840);
    expect(distanceKm([24.7136, 46.6753], [21.5433, 39.1728])).toBeLessThan(860);
    expect(distanceKm([24.7, 46.7], [24.7, 46.7])).toBe(0);
    const square: [number, number][] = [
      [0, 0],
      [0, 2],
      [2, 2],
      [2, 0],
    ];
    expect(insidePolygon([1, 1], square)).toBe(true);
    expect(insidePolygon([3, 1], square)).toBe(false);
    // A concave L shape: its notch is outside.
    const l: [number, number][] = [
      [0, 0],
      [0, 3],
      [1, 3],
      [1, 1],
      [3, 1],
      [3, 0],
    ];
    expect(insidePolygon([0.5, 2], l)).toBe(true);
    expect(insidePolygon([2, 2], l)).toBe(false);
  });
});
