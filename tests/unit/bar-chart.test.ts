import { describe, expect, it } from "vitest";
import { chartScale } from "~/components/bar-chart";

describe("chartScale", () => {
  it("steps by round numbers up to a top at or above the tallest bar", () => {
    expect(chartScale(29000)).toEqual({ top: 30000, ticks: [0, 10000, 20000, 30000] });
    expect(chartScale(1)).toEqual({ top: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  });

  it("steps by whole units when given one: counts never read 0.25, cents never $0 twice", () => {
    expect(chartScale(1, 1)).toEqual({ top: 1, ticks: [0, 1] });
    expect(chartScale(3, 1)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    for (const max of [0, 1, 2, 5, 7, 9, 10, 13, 42]) {
      const { top, ticks } = chartScale(max, 1);
      expect(top, String(max)).toBeGreaterThanOrEqual(max);
      expect(ticks.every(Number.isInteger), String(max)).toBe(true);
      expect(new Set(ticks).size, String(max)).toBe(ticks.length);
    }
    // No earnings yet: $0 and $1, not $0 and $0.
    expect(chartScale(0, 100)).toEqual({ top: 100, ticks: [0, 100] });
    for (const cents of [1, 99, 150, 2999, 29000]) {
      expect(
        chartScale(cents, 100).ticks.every((tick) => tick % 100 === 0),
        String(cents),
      ).toBe(true);
    }
  });
});
