import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "~/lib/csv";
import { formatMonth, lastMonthKeys, monthKey, startOfMonth } from "~/lib/months";

describe("CSV export cells", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(12.5)).toBe("12.5");
  });

  it("neutralises text a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell("+1+1")).toBe("'+1+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    // Numbers are data, not formulas.
    expect(csvCell(-5)).toBe("-5");
  });

  it("joins rows with CRLF", () => {
    expect(
      toCsv([
        ["a", "b"],
        [1, null],
      ]),
    ).toBe("a,b\r\n1,\r\n");
  });
});

describe("months", () => {
  it("counts back across a year boundary, oldest first", () => {
    const now = new Date("2025-02-15T12:00:00Z");
    expect(lastMonthKeys(now, 4)).toEqual(["2024-11", "2024-12", "2025-01", "2025-02"]);
    expect(startOfMonth(now, 2).toISOString()).toBe("2024-12-01T00:00:00.000Z");
    expect(monthKey(new Date("2025-03-31T23:59:59Z"))).toBe("2025-03");
    expect(formatMonth("2025-03")).toBe("Mar 2025");
    expect(formatMonth("2025-12", { short: true })).toBe("Dec");
  });
});
