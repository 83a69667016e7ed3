/**
 * Dates shown on screens. Server and browser must render the same text (hydration), so everything
 * here formats in an explicit time zone, never the machine's.
 */

import { formatUtcDate, formatUtcWeekdayDate } from "./utc-dates";

/** "Jun 9, 2025" for an instant, in `timeZone` (UTC unless given). */
export function formatDate(epochMs: number, timeZone = "UTC"): string {
  if (timeZone === "UTC") return formatUtcDate(epochMs);
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }).format(epochMs);
}

/** "Mon, Jun 9, 2025" for a calendar date written yyyy-MM-dd (no zone: it is a wall-clock date). */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return formatUtcWeekdayDate(Date.UTC(year, month - 1, day));
}

/** The short name of a zone at an instant ("EDT", "GMT+8"). */
export function zoneAbbreviation(epochMs: number, timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(
      epochMs,
    );
    return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/**
 * "Mon, Jun 9, 2025, 10:00 AM EDT" for an instant in `timeZone`, by default the browser's own (then
 * only call it after hydration). With the year, as the UTC form has it: a notification can be old.
 */
export function formatLocalDateTime(epochMs: number, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(epochMs);
}

/**
 * When a subscriber's next daily question opens (midnight UTC), for "Your next question is
 * available …": on the viewer's clock once it is known, so nobody has to work out what midnight UTC
 * is where they live.
 */
export function nextDailyQuestionText(nextQuestionAt: number | null, timeZone: string): string {
  if (nextQuestionAt === null || timeZone === "UTC") return "tomorrow (from midnight UTC)";
  return `from ${formatLocalDateTime(nextQuestionAt, timeZone)} (midnight UTC)`;
}
