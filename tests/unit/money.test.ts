import { describe, expect, it } from "vitest";
import { dollarsToCents, formatCents } from "~/lib/money";

describe("formatCents", () => {
  it.each([
    [0, "$0.00"],
    [5, "$0.05"],
    [500, "$5.00"],
    [2000, "$20.00"],
    [12345, "$123.45"],
    [123456, "$1,234.56"],
    [100000099, "$1,000,000.99"],
  ])("formats %i cents as %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it("puts the sign before the dollar sign", () => {
    expect(formatCents(-500)).toBe("-$5.00");
    expect(formatCents(-1)).toBe("-$0.01");
    expect(formatCents(-123456)).toBe("-$1,234.56");
  });

  it("never writes a sign on zero", () => {
    expect(formatCents(-0)).toBe("$0.00");
    expect(formatCents(Math.round(-0.4))).toBe("$0.00");
    expect(formatCents(-0.4)).toBe("$0.00");
  });

  it("writes what Intl's en-US dollar format writes, for every whole number of cents", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const differ: number[] = [];
    const compare = (cents: number) => {
      if (formatCents(cents) !== intl.format(cents / 100)) differ.push(cents);
    };
    for (let cents = -100_000; cents <= 400_000; cents++) compare(cents);
    // Every length of dollars up to a trillion, at its edges, and a spread of values between.
    for (let power = 5; power <= 14; power++) {
      const edge = 10 ** power;
      for (const cents of [edge - 1, edge, edge + 1, -edge, -(edge - 1)]) compare(cents);
    }
    for (let cents = 400_001; cents < 10 ** 14; cents = Math.floor(cents * 1.37) + 7) compare(cents);
    expect(differ).toEqual([]);
  });

  it("writes an amount that is not a number as zero", () => {
    expect(formatCents(Number.NaN)).toBe("$0.00");
    expect(formatCents(Number.POSITIVE_INFINITY)).toBe("$0.00");
  });
});

describe("dollarsToCents", () => {
  it.each([
    ["5", 500],
    ["5.00", 500],
    ["12.5", 1250],
    ["0.01", 1],
    ["  7.25 ", 725],
    [20, 2000],
    [0, 0],
  ])("reads %j as %i cents", (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });

  it("turns text that is not a number into 0", () => {
    expect(dollarsToCents("abc")).toBe(0);
    expect(dollarsToCents("")).toBe(0);
    expect(dollarsToCents("$5")).toBe(0);
    expect(dollarsToCents(Number.NaN)).toBe(0);
    expect(dollarsToCents(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("rounds to the nearest whole cent, without floating-point drift", () => {
    // 0.1 * 100, 19.99 * 100 and 0.29 * 100 are not whole numbers in floating point.
    expect(dollarsToCents("0.1")).toBe(10);
    expect(dollarsToCents("19.99")).toBe(1999);
    expect(dollarsToCents("4.994")).toBe(499);
    expect(dollarsToCents("4.996")).toBe(500);
    expect(dollarsToCents(0.29)).toBe(29);
    expect(Number.isInteger(dollarsToCents("33.333333"))).toBe(true);
  });

  it("turns anything but a plain decimal number into 0, never a misread amount", () => {
    // A decimal comma or a thousands separator would otherwise be read as far less.
    expect(dollarsToCents("49,99")).toBe(0);
    expect(dollarsToCents("5,000")).toBe(0);
    expect(dollarsToCents("12.50 USD")).toBe(0);
    expect(dollarsToCents("1e3")).toBe(0);
    expect(dollarsToCents("-5")).toBe(0);
    expect(dollarsToCents("5.")).toBe(500);
    expect(dollarsToCents(".5")).toBe(50);
  });

  it("round-trips with formatCents below $1,000, where it writes no separator", () => {
    for (const cents of [0, 1, 99, 500, 1999, 2000, 99999]) {
      expect(dollarsToCents(formatCents(cents).slice(1))).toBe(cents);
    }
    // Grouped amounts are for reading only: typed, the comma is refused rather than misread.
    expect(dollarsToCents(formatCents(123456).slice(1))).toBe(0);
  });
});
