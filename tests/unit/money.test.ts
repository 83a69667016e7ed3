import { describe, expect, it } from "vitest";
import { formatCents } from "~/lib/money";

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
  });
});
