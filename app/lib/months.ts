/**
 * Calendar months as "yyyy-MM" keys, in UTC (instants are stored in UTC; a month's totals group by the
 * UTC month the money was earned in). Pure: used by the earnings model and the charts.
 */

import { MONTH_NAMES, shortName } from "./utc-dates";

export function monthKey(instant: Date | number): string {
  const date = new Date(instant);
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The first instant of the month `monthsBack` months before the month of `now`. */
export function startOfMonth(now: Date | number, monthsBack = 0): Date {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - monthsBack, 1));
}

/** The keys of the last `count` months, oldest first, ending with the month of `now`. */
export function lastMonthKeys(now: Date | number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => monthKey(startOfMonth(now, count - 1 - index)));
}

/** "2025-03" as "Mar 2025" (or "Mar" with `short`). */
export function formatMonth(key: string, { short = false }: { short?: boolean } = {}): string {
  const [year, month] = key.split("-");
  const fullName = MONTH_NAMES[Number(month) - 1];
  const name = fullName ? shortName(fullName) : key;
  return short ? name : `${name} ${year}`;
}
