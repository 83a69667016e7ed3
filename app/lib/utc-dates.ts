/**
 * The fixed English date texts the screens show, in UTC, written without Intl.
 *
 * A page's first `Intl.DateTimeFormat` makes Chrome load ICU's locale data: about 20 ms of main
 * thread on a laptop and four times that on a phone, in one task, in the middle of hydration (it was
 * the profile page's longest task). Every text here is exactly what `Intl.DateTimeFormat("en-US",
 * { …, timeZone: "UTC" })` writes for the same instant (tests/unit/utc-dates.test.ts compares them
 * over two centuries of days), so server and browser render the same text. Dates in another zone
 * still go through Intl (~/lib/dates, ~/lib/slots).
 */

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

export const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

/** "Jan" for "January", "Mon" for "Monday": en-US's short names are the first three letters. */
export const shortName = (name: string) => name.slice(0, 3);

function utcDate(instant: Date | number | string): Date {
  const date = new Date(instant);
  // As Intl does: an invalid instant is an error, never "undefined NaN, NaN".
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  return date;
}

/** "Jun 9, 2025" (Intl's dateStyle "medium"). */
export function formatUtcDate(instant: Date | number | string): string {
  const date = utcDate(instant);
  return `${shortName(MONTH_NAMES[date.getUTCMonth()])} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** "Mon, Jun 9, 2025". */
export function formatUtcWeekdayDate(instant: Date | number | string): string {
  const date = utcDate(instant);
  return `${shortName(WEEKDAY_NAMES[date.getUTCDay()])}, ${formatUtcDate(date)}`;
}

/** "Monday, June 9, 2025": the spoken form. */
export function formatUtcLongDate(instant: Date | number | string): string {
  const date = utcDate(instant);
  const month = MONTH_NAMES[date.getUTCMonth()];
  return `${WEEKDAY_NAMES[date.getUTCDay()]}, ${month} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** "June 2025". */
export function formatUtcMonthYear(instant: Date | number | string): string {
  const date = utcDate(instant);
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
