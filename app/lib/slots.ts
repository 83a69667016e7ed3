/**
 * Sessions, schedules and time zones (DESIGN.md "Bookings and time"). Pure: the booking screen runs
 * it in the browser (the client's own zone), the server runs it again to check every request, and
 * the seed uses it for the demo rows. Only Intl is used, so it behaves the same in Node, workerd and
 * browsers, across daylight-saving changes.
 *
 * The words used here:
 * - a *local* date (yyyy-MM-dd) and time (HH:MM) are a wall clock in some IANA zone;
 * - an *instant* is milliseconds since the epoch (UTC): what the database stores as the truth;
 * - an expert's weekly schedule is a list of windows (day of week, start, end) in the expert's zone,
 *   and a session may start on any whole hour whose 60 minutes fit inside a window.
 */

import { formatUtcMonthYear, formatUtcWeekdayDate } from "./utc-dates";

export const SESSION_MINUTES = 60;
/** An unpaid booking holds its slot this long (DESIGN.md "Money and payments"). */
export const HOLD_MINUTES = 15;
/** Clients may cancel (with a full refund) up to this many hours before the start. */
export const CLIENT_CANCEL_CUTOFF_HOURS = 24;
/** How far ahead a session can be booked. */
export const BOOKING_HORIZON_DAYS = 60;
/** The expert's Upcoming Appointments window (SPEC.md section 9). */
export const UPCOMING_WINDOW_DAYS = 7;
/** The meeting link goes out this long before a session (sent by the scheduled task). */
export const MEETING_LINK_LEAD_MINUTES = 15;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
export const SESSION_MS = SESSION_MINUTES * MINUTE_MS;
export const HOLD_MS = HOLD_MINUTES * MINUTE_MS;
/** Paying again after a declined card renews a hold, but never past this long after it was taken. */
export const HOLD_LIFETIME_MS = 2 * HOLD_MS;
/** A client's unpaid holds at one time, across all experts. */
export const MAX_OPEN_HOLDS = 3;
/** A client whose hold on a start ran out unpaid may not hold that start again for this long. */
export const REHOLD_WAIT_MS = DAY_MS;
export const CLIENT_CANCEL_CUTOFF_MS = CLIENT_CANCEL_CUTOFF_HOURS * HOUR_MS;

/** 0 = Sunday ... 6 = Saturday, as in the availability table and Date#getUTCDay. */
export const DAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;
/** The order the schedule editor lists the days in: Monday first. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
export const WEEKDAYS: readonly number[] = [1, 2, 3, 4, 5];

export type ScheduleWindow = { dayOfWeek: number; startTime: string; endTime: string };

/**
 * With no schedule set: Monday to Friday, sessions starting on the hour from 9:00 AM to 5:00 PM
 * (SPEC.md's nine hourly slots). As working hours that is 9:00 to 18:00: the 5 PM session ends at 6.
 */
export const DEFAULT_SCHEDULE: readonly ScheduleWindow[] = WEEKDAYS.map((dayOfWeek) => ({
  dayOfWeek,
  startTime: "09:00",
  endTime: "18:00",
}));

/** The schedule that applies: the expert's own windows, or the default when they have set none. */
export function effectiveSchedule(rows: readonly ScheduleWindow[]): readonly ScheduleWindow[] {
  return rows.length > 0 ? rows : DEFAULT_SCHEDULE;
}

// ---------------------------------------------------------------------------------------------
// Dates and times as text

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** [year, month, day] of a real calendar date written yyyy-MM-dd, or null ("2026-02-30" is not one). */
export function parseDate(date: string): [number, number, number] | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return [year, month, day];
}

export const isValidDate = (date: string) => parseDate(date) !== null;

/** [hour, minute] of a time written HH:MM (00:00 to 23:59), or null. */
export function parseTime(time: string): [number, number] | null {
  const match = TIME_PATTERN.exec(time);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export const isValidTime = (time: string) => parseTime(time) !== null;

/** Minutes since midnight of HH:MM; "24:00" (the end of the day, for a window's end) is 1440. */
export function minutesOfDay(time: string): number {
  if (time === "24:00") return 24 * 60;
  const parsed = parseTime(time);
  if (!parsed) throw new Error(`Not an HH:MM time: ${time}`);
  return parsed[0] * 60 + parsed[1];
}

/** HH:MM of minutes since midnight (0 to 1440). */
export function timeOfMinutes(minutes: number): string {
  if (minutes < 0 || minutes > 24 * 60) throw new Error(`${minutes} minutes leaves the day`);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

function requireDate(date: string): [number, number, number] {
  const parsed = parseDate(date);
  if (!parsed) throw new Error(`Not a yyyy-MM-dd date: ${date}`);
  return parsed;
}

/** A yyyy-MM-dd date moved by whole days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = requireDate(date);
  return new Date(Date.UTC(year, month - 1, day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: string): number {
  const [year, month, day] = requireDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** An HH:MM time moved by minutes, within the same day ("24:00" is the day's end). */
export function addMinutesToTime(time: string, minutes: number): string {
  return timeOfMinutes(minutesOfDay(time) + minutes);
}

/** Whole days from date `a` to date `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  const [ya, ma, da] = requireDate(a);
  const [yb, mb, db] = requireDate(b);
  return Math.round((Date.UTC(yb, mb - 1, db) - Date.UTC(ya, ma - 1, da)) / DAY_MS);
}

/**
 * The `count`-th date after (count > 0) or before (count < 0) `date` whose day of the week is in
 * `days`; `count` 0 is `date` itself.
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

// ---------------------------------------------------------------------------------------------
// Time zones

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

/**
 * The zone's canonical name ("US/Eastern" is "America/New_York", "utc" is "UTC"), or null for a
 * name that is not an IANA zone. Offsets written as "+05:00" are refused: a schedule needs rules.
 */
export function canonicalTimeZone(timeZone: string): string | null {
  if (typeof timeZone !== "string" || timeZone.length === 0 || timeZone.length > 64) return null;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isValidTimeZone = (timeZone: string) => canonicalTimeZone(timeZone) !== null;

/**
 * The current IANA names of zones that V8's time-zone data still calls by an old one: Intl answers
 * "Asia/Calcutta" for "Asia/Kolkata", and nobody looks for Kolkata under C.
 */
const CURRENT_ZONE_NAMES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** A zone as people look for it in a list: its current name, underscores as spaces ("Asia/Ho Chi Minh"). */
export const timeZoneLabel = (timeZone: string) =>
  (CURRENT_ZONE_NAMES[timeZone] ?? timeZone).replace(/_/g, " ");

/** Every IANA zone this runtime knows, UTC included (Intl's list leaves it out), in order of their labels. */
export function listTimeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported("timeZone") : [];
  return [...new Set([...zones, "UTC"])]
    .map((zone) => ({ zone, label: timeZoneLabel(zone) }))
    .sort((a, b) => (a.label < b.label ? -1 : 1))
    .map(({ zone }) => zone);
}

/** The browser's own zone (or UTC when it cannot say). Only meaningful in the browser. */
export function browserTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
  } catch {
    return "UTC";
  }
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

function wallOf(date: string, time: string): number {
  const [year, month, day] = requireDate(date);
  const minutes = minutesOfDay(time);
  return Date.UTC(year, month - 1, day) + minutes * MINUTE_MS;
}

/**
 * The instant a local date and time happen in `timeZone`, or null when that wall clock never
 * happens there (skipped by a spring-forward change). A time that happens twice (the autumn change)
 * is its first occurrence.
 */
export function localToInstant(date: string, time: string, timeZone: string): number | null {
  const wall = wallOf(date, time);
  // Offsets change at most once around a given day: try the ones in force a day before, at and after.
  const candidates = [wall - DAY_MS, wall, wall + DAY_MS]
    .map((probe) => wall - zoneOffsetMs(probe, timeZone))
    .filter((instant) => wallClockMs(instant, timeZone) === wall);
  return candidates.length > 0 ? Math.min(...candidates) : null;
}

/**
 * The UTC instant of a local date and time in `timeZone`. A time skipped by a spring-forward change
 * moves forward by the gap; a time that happens twice in the autumn takes its first occurrence.
 */
export function zonedTimeToInstant(date: string, time: string, timeZone: string): Date {
  const exact = localToInstant(date, time, timeZone);
  if (exact !== null) return new Date(exact);
  // In a gap: keep the offset from before the change, which lands the same distance past the gap.
  const wall = wallOf(date, time);
  return new Date(wall - zoneOffsetMs(wall - DAY_MS, timeZone));
}

export type LocalDateTime = { date: string; time: string; dayOfWeek: number };

/** The local date, time (HH:MM) and day of the week in `timeZone` at an instant. */
export function instantToLocal(instant: number | Date, timeZone: string): LocalDateTime {
  const wall = new Date(wallClockMs(typeof instant === "number" ? instant : instant.getTime(), timeZone));
  const iso = wall.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16), dayOfWeek: wall.getUTCDay() };
}

/** The local calendar date (yyyy-MM-dd) in `timeZone` at an instant. */
export function dateInZone(instant: number | Date, timeZone: string): string {
  return instantToLocal(instant, timeZone).date;
}

// ---------------------------------------------------------------------------------------------
// Slots

/** One bookable hour: the expert's local date and start, and the instants it begins and ends. */
export type Slot = { date: string; time: string; startsAt: number; endsAt: number };

/** The whole-hour starts (HH:00, sorted) whose session fits inside one of the day's windows. */
export function startsForDay(schedule: readonly ScheduleWindow[], weekday: number): string[] {
  const starts = new Set<number>();
  for (const window of schedule) {
    if (window.dayOfWeek !== weekday) continue;
    const open = minutesOfDay(window.startTime);
    const close = minutesOfDay(window.endTime);
    for (let start = Math.ceil(open / 60) * 60; start + SESSION_MINUTES <= close; start += 60) {
      starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b).map(timeOfMinutes);
}

/**
 * The slots of one of the expert's local dates, in order. A start that a spring-forward change skips
 * does not exist that day; a start the autumn change repeats is offered once (its first occurrence).
 */
export function slotsForDate(schedule: readonly ScheduleWindow[], timeZone: string, date: string): Slot[] {
  const slots: Slot[] = [];
  for (const time of startsForDay(schedule, dayOfWeek(date))) {
    const startsAt = localToInstant(date, time, timeZone);
    if (startsAt === null) continue;
    slots.push({ date, time, startsAt, endsAt: startsAt + SESSION_MS });
  }
  return slots;
}

export type SlotQuery = {
  schedule: readonly ScheduleWindow[];
  timeZone: string;
  /** Now (epoch ms): slots that have started are gone. */
  now: number;
  /** Starts of sessions already booked or held (epoch ms): slots that meet them are taken. */
  busy?: Iterable<number>;
  horizonDays?: number;
};

/**
 * Whether a session starting at `startsAt` would meet one starting at any of `busy`. Every session
 * lasts an hour, so starts less than an hour apart overlap: after an expert moves to a zone with a
 * half-hour offset, the new hours fall across sessions booked on the old ones.
 */
export function overlapsBusy(startsAt: number, busy: readonly number[]): boolean {
  return busy.some((start) => Math.abs(start - startsAt) < SESSION_MS);
}

/**
 * Every slot from now to the booking horizon, in order: the schedule's hours minus the past and
 * minus those that meet a busy session. Without `busy`, every scheduled hour (what the date picker enables).
 */
export function upcomingSlots({
  schedule,
  timeZone,
  now,
  busy = [],
  horizonDays = BOOKING_HORIZON_DAYS,
}: SlotQuery): Slot[] {
  const taken = [...busy];
  const last = now + horizonDays * DAY_MS;
  const today = dateInZone(now, timeZone);
  const slots: Slot[] = [];
  for (let offset = 0; offset <= horizonDays + 1; offset++) {
    for (const slot of slotsForDate(schedule, timeZone, addDays(today, offset))) {
      if (slot.startsAt > now && slot.startsAt <= last && !overlapsBusy(slot.startsAt, taken))
        slots.push(slot);
    }
  }
  return slots;
}

/** The slots whose start falls on `date` in `viewerZone` (the client's own calendar day). */
export function slotsOnViewerDate(slots: readonly Slot[], date: string, viewerZone: string): Slot[] {
  return slots.filter((slot) => dateInZone(slot.startsAt, viewerZone) === date);
}

/** The dates (in `viewerZone`) that have at least one of the slots. */
export function viewerDates(slots: readonly Slot[], viewerZone: string): Set<string> {
  return new Set(slots.map((slot) => dateInZone(slot.startsAt, viewerZone)));
}

export type SlotRefusal =
  | "invalid_date"
  | "invalid_time"
  | "invalid_time_zone"
  | "past"
  | "too_far"
  | "day_off"
  | "not_on_the_hour"
  | "outside_hours";

export type ResolvedSlot = { ok: true; slot: Slot } | { ok: false; reason: SlotRefusal };

/**
 * The slot a client asks for, checked against the expert's schedule: `date` and `time` are a wall
 * clock in `timeZone` (the expert's own when not given). The start must be one of the schedule's
 * whole hours on the expert's calendar, in the future and within the booking horizon. Whether
 * someone else holds it is for the database to say (a unique index), not for this function.
 */
export function resolveSlot(input: {
  schedule: readonly ScheduleWindow[];
  expertTimeZone: string;
  date: string;
  time: string;
  timeZone?: string | null;
  now: number;
  horizonDays?: number;
}): ResolvedSlot {
  const { schedule, expertTimeZone, now } = input;
  if (!isValidDate(input.date)) return { ok: false, reason: "invalid_date" };
  if (!isValidTime(input.time)) return { ok: false, reason: "invalid_time" };
  const zone = input.timeZone ? canonicalTimeZone(input.timeZone) : expertTimeZone;
  if (!zone) return { ok: false, reason: "invalid_time_zone" };
  const startsAt = localToInstant(input.date, input.time, zone);
  // A wall clock that never happens (a spring-forward gap) is no one's slot.
  if (startsAt === null) return { ok: false, reason: "outside_hours" };
  if (startsAt <= now) return { ok: false, reason: "past" };
  if (startsAt > now + (input.horizonDays ?? BOOKING_HORIZON_DAYS) * DAY_MS) {
    return { ok: false, reason: "too_far" };
  }
  const local = instantToLocal(startsAt, expertTimeZone);
  const starts = startsForDay(schedule, local.dayOfWeek);
  if (starts.length === 0) return { ok: false, reason: "day_off" };
  if (!local.time.endsWith(":00")) return { ok: false, reason: "not_on_the_hour" };
  const slot = slotsForDate(schedule, expertTimeZone, local.date).find((item) => item.startsAt === startsAt);
  if (!slot) return { ok: false, reason: "outside_hours" };
  return { ok: true, slot };
}

// ---------------------------------------------------------------------------------------------
// Rules about booked sessions

/** Whether a client may still cancel (for a full refund): up to 24 hours before the start. */
export function clientMayCancel(startsAt: number, now: number): boolean {
  return startsAt - now >= CLIENT_CANCEL_CUTOFF_MS;
}

/** Whether a hold (an unpaid booking) still blocks its slot. */
export function holdIsLive(holdExpiresAt: number | null, now: number): boolean {
  return holdExpiresAt === null || holdExpiresAt > now;
}

// ---------------------------------------------------------------------------------------------
// Showing times

/** "10:00 AM" for HH:MM ("24:00" is midnight). */
export function formatTime12(time: string): string {
  const minutes = minutesOfDay(time) % (24 * 60);
  const hours = Math.floor(minutes / 60);
  const suffix = hours >= 12 ? "PM" : "AM";
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes % 60).padStart(2, "0")} ${suffix}`;
}

/** "Tue, Mar 10, 2026" for a local date. */
export function formatLongDate(date: string): string {
  const [year, month, day] = requireDate(date);
  return formatUtcWeekdayDate(Date.UTC(year, month - 1, day));
}

/** The zone's short name at an instant ("EDT", "GMT+5:30"). */
export function zoneName(instant: number, timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(
      instant,
    );
    return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** "10:00 AM EST" for an instant in `timeZone`. */
export function formatInstantTime(instant: number, timeZone: string): string {
  return `${formatTime12(instantToLocal(instant, timeZone).time)} ${zoneName(instant, timeZone)}`;
}

/** "Tue, Mar 10, 2026, 10:00 AM EDT" for an instant in `timeZone`. */
export function formatInstant(instant: number, timeZone: string): string {
  const local = instantToLocal(instant, timeZone);
  return `${formatLongDate(local.date)}, ${formatTime12(local.time)} ${zoneName(instant, timeZone)}`;
}

/**
 * An instant for a client, in a notice or an e-mail. In the zone they booked from, with the expert's
 * beside it ("Wed, Dec 2, 2026, 12:00 AM GMT (Tue, Dec 1, 2026, 4:00 PM PST, the expert's time)").
 * Where their zone is not known: in the expert's zone, and in UTC beside it so it cannot be misread
 * ("Tue, Dec 1, 2026, 4:00 PM PST (Wed, Dec 2, 2026, 12:00 AM UTC)").
 */
export function formatInstantForClient(
  instant: number,
  expertTimeZone: string,
  clientTimeZone?: string | null,
): string {
  const expert = formatInstant(instant, expertTimeZone);
  if (clientTimeZone && isValidTimeZone(clientTimeZone)) {
    const client = formatInstant(instant, clientTimeZone);
    return client === expert ? client : `${client} (${expert}, the expert's time)`;
  }
  const utc = formatInstant(instant, "UTC");
  return expert === utc ? utc : `${expert} (${utc})`;
}

/** "Today" when the date is today, else "Tue, Mar 10, 2026". */
export function formatDayLabel(date: string, today: string): string {
  return date === today ? "Today" : formatLongDate(date);
}

/** "yyyy-MM" of a local date. */
export const monthOf = (date: string) => date.slice(0, 7);

/** The local dates of a month's calendar grid: whole weeks, Sunday first, padded with neighbours. */
export function monthGrid(month: string): string[] {
  const first = `${month}-01`;
  if (!isValidDate(first)) throw new Error(`Not a yyyy-MM month: ${month}`);
  const start = addDays(first, -dayOfWeek(first));
  const nextMonth = addDays(addDays(first, 31), -(Number(addDays(first, 31).slice(8, 10)) - 1));
  const lastOfMonth = addDays(nextMonth, -1);
  const end = addDays(lastOfMonth, 6 - dayOfWeek(lastOfMonth));
  const days: string[] = [];
  for (let date = start; date <= end; date = addDays(date, 1)) days.push(date);
  return days;
}

/** The month before or after a yyyy-MM month. */
export function addMonths(month: string, count: number): string {
  const [year, monthNumber] = month.split("-").map(Number);
  const index = year * 12 + (monthNumber - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** "June 2026" for a yyyy-MM month. */
export function formatMonthTitle(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number);
  return formatUtcMonthYear(Date.UTC(year, monthNumber - 1, 1));
}
