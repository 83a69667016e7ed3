/**
 * Wall-clock dates and times in an IANA zone, turned into UTC instants with Intl alone (no library),
 * so it runs in Node for the seed and in workerd for tests. Correct across daylight-saving changes.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at an instant, read back as if it were UTC (milliseconds). */
function wallClockMs(instantMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  return wallClockMs(wholeSecond, timeZone) - wholeSecond;
}

function parseDate(date: string): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`Not a yyyy-MM-dd date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function parseTime(time: string): [number, number] {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) throw new Error(`Not an HH:MM time: ${time}`);
  return [Number(match[1]), Number(match[2])];
}

/**
 * The UTC instant of a local date and time in `timeZone`. A time skipped by a spring-forward change
 * moves forward by the gap; a time that happens twice in the autumn takes its first occurrence.
 */
export function zonedTimeToInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = parseDate(date);
  const [hour, minute] = parseTime(time);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Offsets change at most once around a given day: try the ones in force a day before, at and after.
  const offsetBefore = zoneOffsetMs(wall - DAY_MS, timeZone);
  const candidates = [offsetBefore, zoneOffsetMs(wall, timeZone), zoneOffsetMs(wall + DAY_MS, timeZone)]
    .map((offset) => wall - offset)
    .filter((instant) => wallClockMs(instant, timeZone) === wall);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // In a gap: keep the offset from before the change, which lands the same distance past the gap.
  return new Date(wall - offsetBefore);
}

/** The local calendar date (yyyy-MM-dd) in `timeZone` at an instant. */
export function dateInZone(instant: Date, timeZone: string): string {
  return new Date(wallClockMs(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** A yyyy-MM-dd date moved by whole days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday, as in the availability table. */
export function dayOfWeek(date: string): number {
  const [year, month, day] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** An HH:MM time moved by minutes (within the same day). */
export function addMinutesToTime(time: string, minutes: number): string {
  const [hour, minute] = parseTime(time);
  const total = hour * 60 + minute + minutes;
  if (total < 0 || total > 24 * 60) throw new Error(`${time} + ${minutes} min leaves the day`);
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

export const WEEKDAYS: readonly number[] = [1, 2, 3, 4, 5];

/**
 * The `count`-th date after (count > 0) or before (count < 0) `date` whose day of the week is in `days`.
 * `count` 0 is `date` itself.
 */
export function nthMatchingDay(date: string, count: number, days: readonly number[] = WEEKDAYS): string {
  if (days.length === 0) throw new Error("No days to match");
  const step = count < 0 ? -1 : 1;
  let current = date;
  for (let found = 0; found < Math.abs(count); ) {
    current = addDays(current, step);
    if (days.includes(dayOfWeek(current))) found += 1;
  }
  return current;
}
