/**
 * Dates shown in the portal, formatted the same on the server and in the browser (a fixed locale and
 * zone, so hydration never disagrees). Instants show in UTC; a booking's own local date and time
 * (stored in the expert's zone) show as stored.
 */

import { formatUtcWeekdayDate } from "./utc-dates";

/** "Mon, Jan 6, 2025" for an instant (UTC). */
export function formatDay(instant: Date | number | string): string {
  return formatUtcWeekdayDate(instant);
}

/** "Mon, Jan 6, 2025" for a stored local date "2025-01-06". */
export function formatLocalDate(isoDate: string): string {
  return formatUtcWeekdayDate(`${isoDate}T00:00:00Z`);
}

/** "2 hours", "35 minutes", "3 days": the rough length of a span, for "due in ...". */
export function formatSpan(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60000));
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** A mean response time as the dashboard shows it: "6.3 hours" (SPEC.md), or minutes under an hour. */
export function formatResponseTime(hours: number): string {
  if (hours >= 1) return `${hours.toFixed(1)} hours`;
  const minutes = Math.max(1, Math.round(hours * 60));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
