import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatDate } from "~/lib/dates";
import { formatDay, formatLocalDate, formatResponseTime } from "~/lib/format-date";
import { formatMonth } from "~/lib/months";
import { formatLongDate, formatMonthTitle } from "~/lib/slots";
import { formatUtcDate, formatUtcLongDate, formatUtcMonthYear, formatUtcWeekdayDate } from "~/lib/utc-dates";

const intl = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every day from 1970 to 2100, each at a different time of day, and both ends of some days. */
function* instants() {
  const start = Date.UTC(1970, 0, 1);
  const end = Date.UTC(2100, 11, 31);
  for (let day = start, step = 0; day <= end; day += DAY_MS, step++) {
    yield day + ((step * 7_919_357) % DAY_MS);
  }
  for (const day of [Date.UTC(2024, 1, 29), Date.UTC(2025, 11, 31), Date.UTC(2026, 0, 1)]) {
    yield day;
    yield day + DAY_MS - 1;
  }
}

describe("dates written without Intl", () => {
  it("write exactly what Intl writes in en-US and UTC, for every day of two centuries", () => {
    const medium = intl({ dateStyle: "medium" });
    const weekday = intl({ weekday: "short", month: "short", day: "numeric", year: "numeric" });
    const long = intl({ weekday: "long", month: "long", day: "numeric", year: "numeric" });
    const monthYear = intl({ month: "long", year: "numeric" });
    let compared = 0;
    for (const instant of instants()) {
      // One assertion per instant and format would be ~200,000 expects; compare, then report the first miss.
      const pairs = [
        [formatUtcDate(instant), medium.format(instant)],
        [formatUtcWeekdayDate(instant), weekday.format(instant)],
        [formatUtcLongDate(instant), long.format(instant)],
        [formatUtcMonthYear(instant), monthYear.format(instant)],
      ];
      for (const [ours, theirs] of pairs) {
        if (ours !== theirs) expect(ours, new Date(instant).toISOString()).toBe(theirs);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(47_000);
  });

  it("take dates, milliseconds and ISO strings alike", () => {
    expect(formatUtcDate(new Date("2025-06-09T23:59:59Z"))).toBe("Jun 9, 2025");
    expect(formatUtcDate("2025-06-10T00:00:00Z")).toBe("Jun 10, 2025");
    expect(formatUtcWeekdayDate(Date.UTC(2026, 2, 10))).toBe("Tue, Mar 10, 2026");
    expect(formatUtcLongDate("2026-11-25T00:00:00Z")).toBe("Wednesday, November 25, 2026");
    expect(formatUtcMonthYear(Date.UTC(2026, 5, 1))).toBe("June 2026");
  });

  it("refuse an invalid instant as Intl does, rather than print NaN", () => {
    for (const format of [formatUtcDate, formatUtcWeekdayDate, formatUtcLongDate, formatUtcMonthYear]) {
      expect(() => format("not a date")).toThrow(RangeError);
      expect(() => format(Number.NaN)).toThrow(RangeError);
    }
  });

  it("are what the screens' date helpers write", () => {
    expect(formatDate(Date.UTC(2025, 5, 9, 23, 30))).toBe("Jun 9, 2025");
    // Another zone still goes through Intl: 23:30 UTC is already the next day in Tokyo.
    expect(formatDate(Date.UTC(2025, 5, 9, 23, 30), "Asia/Tokyo")).toBe("Jun 10, 2025");
    expect(formatCalendarDate("2025-06-09")).toBe("Mon, Jun 9, 2025");
    expect(formatDay(Date.UTC(2025, 0, 6, 12))).toBe("Mon, Jan 6, 2025");
    expect(formatLocalDate("2025-01-06")).toBe("Mon, Jan 6, 2025");
    expect(formatLongDate("2026-03-10")).toBe("Tue, Mar 10, 2026");
    expect(formatMonthTitle("2026-06")).toBe("June 2026");
    expect(formatMonth("2025-03")).toBe("Mar 2025");
    expect(formatMonth("2025-03", { short: true })).toBe("Mar");
  });
});

describe("the dashboard's mean response time", () => {
  it("reads in hours to one decimal (SPEC.md's 6.3 hours), and in minutes under an hour", () => {
    expect(formatResponseTime(6.3)).toBe("6.3 hours");
    expect(formatResponseTime(1)).toBe("1.0 hours");
    expect(formatResponseTime(0.5)).toBe("30 minutes");
    expect(formatResponseTime(1 / 60)).toBe("1 minute");
    expect(formatResponseTime(0.001)).toBe("1 minute");
  });
});
