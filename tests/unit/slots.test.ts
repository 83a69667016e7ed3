/**
 * Slots, schedules and time zones (app/lib/slots.ts): what the booking screen offers and what the
 * server accepts, across zones on both sides of UTC, half-hour and 45-minute offsets, the date line,
 * and daylight-saving changes in both hemispheres. Instants are checked against literal UTC times.
 */
import { describe, expect, it } from "vitest";
import {
  addMonths,
  canonicalTimeZone,
  clientMayCancel,
  DEFAULT_SCHEDULE,
  dateInZone,
  formatInstantForClient,
  formatTime12,
  instantToLocal,
  isValidDate,
  listTimeZones,
  localToInstant,
  monthGrid,
  overlapsBusy,
  resolveSlot,
  type ScheduleWindow,
  slotsForDate,
  slotsOnViewerDate,
  startsForDay,
  timeZoneLabel,
  upcomingSlots,
  viewerDates,
  zonedTimeToInstant,
} from "~/lib/slots";

const utc = (iso: string) => Date.parse(iso);
const every = (dayOfWeek: number, startTime: string, endTime: string): ScheduleWindow => ({
  dayOfWeek,
  startTime,
  endTime,
});
const startsOf = (slots: { time: string }[]) => slots.map((slot) => slot.time);
const instantsOf = (slots: { startsAt: number }[]) =>
  slots.map((slot) => new Date(slot.startsAt).toISOString());

describe("the default schedule", () => {
  it("offers SPEC.md's nine hourly starts, 9:00 AM to 5:00 PM, Monday to Friday only", () => {
    const nine = ["09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00", "17:00"];
    for (const weekday of [1, 2, 3, 4, 5]) expect(startsForDay(DEFAULT_SCHEDULE, weekday)).toEqual(nine);
    expect(startsForDay(DEFAULT_SCHEDULE, 0)).toEqual([]);
    expect(startsForDay(DEFAULT_SCHEDULE, 6)).toEqual([]);
  });

  it("starts sessions on whole hours that fit inside a window, even one that starts on the half hour", () => {
    expect(startsForDay([every(2, "09:30", "12:00")], 2)).toEqual(["10:00", "11:00"]);
    expect(startsForDay([every(2, "09:00", "09:59")], 2)).toEqual([]);
    expect(startsForDay([every(2, "22:00", "24:00")], 2)).toEqual(["22:00", "23:00"]);
    // Two windows on one day (a lunch break), overlapping starts counted once.
    expect(startsForDay([every(3, "09:00", "12:00"), every(3, "11:00", "14:00")], 3)).toEqual([
      "09:00",
      "10:00",
      "11:00",
      "12:00",
      "13:00",
    ]);
  });
});

describe("slots across time zones", () => {
  it("puts the expert's 9:00 at the right UTC instant in each zone, winter and summer", () => {
    const cases: [zone: string, date: string, expected: string][] = [
      ["America/New_York", "2026-01-13", "2026-01-13T14:00:00.000Z"],
      ["America/New_York", "2026-07-14", "2026-07-14T13:00:00.000Z"],
      ["Europe/London", "2026-01-13", "2026-01-13T09:00:00.000Z"],
      ["Europe/London", "2026-07-14", "2026-07-14T08:00:00.000Z"],
      ["Asia/Kolkata", "2026-01-13", "2026-01-13T03:30:00.000Z"],
      ["Asia/Kathmandu", "2026-01-13", "2026-01-13T03:15:00.000Z"],
      ["Australia/Sydney", "2026-01-13", "2026-01-12T22:00:00.000Z"],
      ["Australia/Sydney", "2026-07-14", "2026-07-13T23:00:00.000Z"],
      ["Pacific/Chatham", "2026-01-13", "2026-01-12T19:15:00.000Z"],
      ["Pacific/Pago_Pago", "2026-01-13", "2026-01-13T20:00:00.000Z"],
      ["UTC", "2026-01-13", "2026-01-13T09:00:00.000Z"],
    ];
    for (const [zone, date, expected] of cases) {
      const [first] = slotsForDate(DEFAULT_SCHEDULE, zone, date);
      expect(new Date(first.startsAt).toISOString(), `${zone} ${date}`).toBe(expected);
      expect(first.endsAt - first.startsAt).toBe(60 * 60 * 1000);
    }
  });

  it("keeps the expert's Monday across the date line (Kiritimati is UTC+14)", () => {
    // Monday 2026-01-12 09:00 in Kiritimati is still Sunday in UTC.
    const [first] = slotsForDate(DEFAULT_SCHEDULE, "Pacific/Kiritimati", "2026-01-12");
    expect(new Date(first.startsAt).toISOString()).toBe("2026-01-11T19:00:00.000Z");
    expect(slotsForDate(DEFAULT_SCHEDULE, "Pacific/Kiritimati", "2026-01-11")).toEqual([]);
  });

  it("shows a client each slot on their own calendar day", () => {
    // New York's Monday 17:00 (EST) is Tuesday 07:00 in Tokyo.
    const slots = slotsForDate(DEFAULT_SCHEDULE, "America/New_York", "2026-01-12");
    const tokyoDays = viewerDates(slots, "Asia/Tokyo");
    expect([...tokyoDays].sort()).toEqual(["2026-01-12", "2026-01-13"]);
    const onTuesday = slotsOnViewerDate(slots, "2026-01-13", "Asia/Tokyo");
    expect(onTuesday.map((slot) => instantToLocal(slot.startsAt, "Asia/Tokyo").time)).toEqual([
      "00:00",
      "01:00",
      "02:00",
      "03:00",
      "04:00",
      "05:00",
      "06:00",
      "07:00",
    ]);
    expect(onTuesday.every((slot) => slot.date === "2026-01-12")).toBe(true);
  });
});

describe("slots across daylight-saving changes", () => {
  it("skips the hour a spring-forward change removes (New York, 8 March 2026)", () => {
    const slots = slotsForDate([every(0, "00:00", "06:00")], "America/New_York", "2026-03-08");
    expect(startsOf(slots)).toEqual(["00:00", "01:00", "03:00", "04:00", "05:00"]);
    expect(instantsOf(slots)).toEqual([
      "2026-03-08T05:00:00.000Z",
      "2026-03-08T06:00:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-08T08:00:00.000Z",
      "2026-03-08T09:00:00.000Z",
    ]);
    expect(localToInstant("2026-03-08", "02:30", "America/New_York")).toBeNull();
  });

  it("offers a repeated hour once, at its first occurrence (New York, 1 November 2026)", () => {
    const slots = slotsForDate([every(0, "00:00", "04:00")], "America/New_York", "2026-11-01");
    expect(startsOf(slots)).toEqual(["00:00", "01:00", "02:00", "03:00"]);
    expect(instantsOf(slots)).toEqual([
      "2026-11-01T04:00:00.000Z",
      "2026-11-01T05:00:00.000Z", // 01:00 EDT, the first of the two
      "2026-11-01T07:00:00.000Z", // 02:00 EST
      "2026-11-01T08:00:00.000Z",
    ]);
  });

  it("handles Europe's change (London, 29 March 2026) and the southern hemisphere's (Sydney)", () => {
    expect(startsOf(slotsForDate([every(0, "00:00", "04:00")], "Europe/London", "2026-03-29"))).toEqual([
      "00:00",
      "02:00",
      "03:00",
    ]);
    // Sydney falls back on 5 April 2026 (03:00 AEDT -> 02:00 AEST) and springs forward on 4 October.
    const autumn = slotsForDate([every(0, "01:00", "05:00")], "Australia/Sydney", "2026-04-05");
    expect(instantsOf(autumn)).toEqual([
      "2026-04-04T14:00:00.000Z",
      "2026-04-04T15:00:00.000Z",
      "2026-04-04T17:00:00.000Z",
      "2026-04-04T18:00:00.000Z",
    ]);
    const spring = slotsForDate([every(0, "01:00", "05:00")], "Australia/Sydney", "2026-10-04");
    expect(startsOf(spring)).toEqual(["01:00", "03:00", "04:00"]);
  });

  it("books a session after a change at the session's offset, not the one in force when booking", () => {
    // Booked in February (EST, UTC-5) for 10 March (EDT, UTC-4): 10:00 in New York is 14:00 UTC.
    const now = utc("2026-02-20T15:00:00Z");
    const resolved = resolveSlot({
      schedule: DEFAULT_SCHEDULE,
      expertTimeZone: "America/New_York",
      date: "2026-03-10",
      time: "10:00",
      now,
    });
    expect(resolved).toMatchObject({ ok: true, slot: { date: "2026-03-10", time: "10:00" } });
    if (!resolved.ok) throw new Error("refused");
    expect(new Date(resolved.slot.startsAt).toISOString()).toBe("2026-03-10T14:00:00.000Z");
    // And the wall clock reads back the same, whatever the offset was on the day it was booked.
    expect(instantToLocal(resolved.slot.startsAt, "America/New_York")).toEqual({
      date: "2026-03-10",
      time: "10:00",
      dayOfWeek: 2,
    });
  });

  it("moves a wall clock in a gap forward for the seed's helper, and keeps the same instants otherwise", () => {
    expect(zonedTimeToInstant("2026-03-08", "02:30", "America/New_York").toISOString()).toBe(
      "2026-03-08T07:30:00.000Z",
    );
    expect(zonedTimeToInstant("2026-07-14", "09:00", "America/New_York").toISOString()).toBe(
      "2026-07-14T13:00:00.000Z",
    );
  });
});

describe("what the server accepts (resolveSlot)", () => {
  const now = utc("2026-01-12T15:00:00Z"); // Monday 10:00 in New York
  const ask = (date: string, time: string, timeZone?: string) =>
    resolveSlot({
      schedule: DEFAULT_SCHEDULE,
      expertTimeZone: "America/New_York",
      date,
      time,
      timeZone,
      now,
    });

  it("accepts a start on the schedule, in the expert's zone or the client's", () => {
    expect(ask("2026-01-13", "10:00")).toMatchObject({
      ok: true,
      slot: { date: "2026-01-13", time: "10:00" },
    });
    // 16:00 in Berlin on a winter Tuesday is 10:00 in New York.
    expect(ask("2026-01-13", "16:00", "Europe/Berlin")).toMatchObject({
      ok: true,
      slot: { date: "2026-01-13", time: "10:00" },
    });
    // 17:00 in New York is the last start; 00:00 in Tokyo the next day.
    expect(ask("2026-01-14", "07:00", "Asia/Tokyo")).toMatchObject({
      ok: true,
      slot: { date: "2026-01-13", time: "17:00" },
    });
  });

  it("refuses each kind of bad start with its own reason", () => {
    const reason = (result: ReturnType<typeof ask>) => (result.ok ? "ok" : result.reason);
    expect(reason(ask("2026-02-30", "10:00"))).toBe("invalid_date");
    expect(reason(ask("2026-13-01", "10:00"))).toBe("invalid_date");
    expect(reason(ask("tomorrow", "10:00"))).toBe("invalid_date");
    expect(reason(ask("2026-01-13", "25:00"))).toBe("invalid_time");
    expect(reason(ask("2026-01-13", "9:00"))).toBe("invalid_time");
    expect(reason(ask("2026-01-13", "10:00", "Mars/Olympus"))).toBe("invalid_time_zone");
    expect(reason(ask("2026-01-12", "09:00"))).toBe("past"); // earlier today
    expect(reason(ask("2026-01-12", "10:00"))).toBe("past"); // starting now
    expect(reason(ask("2026-01-05", "10:00"))).toBe("past");
    expect(reason(ask("2026-04-13", "10:00"))).toBe("too_far");
    expect(reason(ask("2026-01-17", "10:00"))).toBe("day_off"); // Saturday
    expect(reason(ask("2026-01-18", "10:00"))).toBe("day_off"); // Sunday
    expect(reason(ask("2026-01-13", "10:30"))).toBe("not_on_the_hour");
    expect(reason(ask("2026-01-13", "08:00"))).toBe("outside_hours");
    expect(reason(ask("2026-01-13", "18:00"))).toBe("outside_hours");
    // 10:30 in Kolkata is 00:00 in New York: on the hour, but outside the hours.
    expect(reason(ask("2026-01-13", "10:30", "Asia/Kolkata"))).toBe("outside_hours");
    // 10:00 in Kolkata is 23:30 in New York: not on the hour.
    expect(reason(ask("2026-01-13", "10:00", "Asia/Kolkata"))).toBe("not_on_the_hour");
  });

  it("refuses a wall clock that a spring-forward change skips", () => {
    const result = resolveSlot({
      schedule: [every(0, "00:00", "06:00")],
      expertTimeZone: "America/New_York",
      date: "2026-03-08",
      time: "02:00",
      now: utc("2026-03-01T00:00:00Z"),
    });
    expect(result).toEqual({ ok: false, reason: "outside_hours" });
  });
});

describe("the slots a client is offered (upcomingSlots)", () => {
  it("is the schedule minus the past minus the busy starts, up to the horizon", () => {
    const now = utc("2026-01-12T15:30:00Z"); // Monday 10:30 in New York
    const all = upcomingSlots({
      schedule: DEFAULT_SCHEDULE,
      timeZone: "America/New_York",
      now,
      horizonDays: 7,
    });
    expect(all[0]).toMatchObject({ date: "2026-01-12", time: "11:00" });
    const busy = [all[0].startsAt, all[2].startsAt];
    const free = upcomingSlots({
      schedule: DEFAULT_SCHEDULE,
      timeZone: "America/New_York",
      now,
      busy,
      horizonDays: 7,
    });
    expect(free).toHaveLength(all.length - 2);
    expect(free.map((slot) => slot.startsAt)).not.toContain(busy[0]);
    expect(free[0]).toMatchObject({ date: "2026-01-12", time: "12:00" });
    // Seven days from Monday 10:30: the rest of Monday, Tuesday to Friday, and the next Monday to 10:00.
    expect(all.filter((slot) => slot.date === "2026-01-19").map((slot) => slot.time)).toEqual([
      "09:00",
      "10:00",
    ]);
    expect(all.every((slot) => slot.startsAt > now && slot.startsAt <= now + 7 * 86_400_000)).toBe(true);
  });
});

describe("overlapping sessions (overlapsBusy)", () => {
  it("takes every start less than an hour from a busy one, and nothing an hour or more away", () => {
    const busy = [utc("2026-01-13T15:30:00Z")];
    expect(overlapsBusy(utc("2026-01-13T15:00:00Z"), busy)).toBe(true);
    expect(overlapsBusy(utc("2026-01-13T15:30:00Z"), busy)).toBe(true);
    expect(overlapsBusy(utc("2026-01-13T16:00:00Z"), busy)).toBe(true);
    expect(overlapsBusy(utc("2026-01-13T14:30:00Z"), busy)).toBe(false);
    expect(overlapsBusy(utc("2026-01-13T16:30:00Z"), busy)).toBe(false);
    expect(overlapsBusy(utc("2026-01-13T15:00:00Z"), [])).toBe(false);
  });
});

describe("cancellation cut-off and zone names", () => {
  it("lets a client cancel until exactly 24 hours before the start", () => {
    const start = utc("2026-01-13T15:00:00Z");
    expect(clientMayCancel(start, start - 24 * 3_600_000)).toBe(true);
    expect(clientMayCancel(start, start - 24 * 3_600_000 + 1)).toBe(false);
  });

  it("knows real IANA zones and nothing else", () => {
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    expect(canonicalTimeZone("utc")).toBe("UTC");
    for (const bad of ["Mars/Olympus", "", "+05:00", "America/New_York; drop table", "x".repeat(80)]) {
      expect(canonicalTimeZone(bad), bad).toBeNull();
    }
  });
});

describe("times for a client whose zone is unknown", () => {
  it("gives the expert's time with UTC beside it, once when they are the same", () => {
    const instant = utc("2026-12-02T00:00:00Z");
    expect(formatInstantForClient(instant, "America/Los_Angeles")).toBe(
      "Tue, Dec 1, 2026, 4:00 PM PST (Wed, Dec 2, 2026, 12:00 AM UTC)",
    );
    expect(formatInstantForClient(instant, "UTC")).toBe("Wed, Dec 2, 2026, 12:00 AM UTC");
  });

  it("gives the client's own time first when their zone is known, the expert's beside it", () => {
    const instant = utc("2026-12-02T00:00:00Z");
    expect(formatInstantForClient(instant, "America/Los_Angeles", "Europe/London")).toBe(
      "Wed, Dec 2, 2026, 12:00 AM GMT (Tue, Dec 1, 2026, 4:00 PM PST, the expert's time)",
    );
    expect(formatInstantForClient(instant, "America/Los_Angeles", "America/Los_Angeles")).toBe(
      "Tue, Dec 1, 2026, 4:00 PM PST",
    );
    // A zone that is not one (an old row, a tampered value) falls back to the expert's and UTC.
    expect(formatInstantForClient(instant, "America/Los_Angeles", "Mars/Olympus")).toBe(
      "Tue, Dec 1, 2026, 4:00 PM PST (Wed, Dec 2, 2026, 12:00 AM UTC)",
    );
  });
});

describe("the time-zone list", () => {
  it("labels zones by their current names, each the same zone as the name Intl answers", () => {
    const labels = listTimeZones().map(timeZoneLabel);
    for (const current of [
      "Asia/Kolkata",
      "Europe/Kyiv",
      "Asia/Ho Chi Minh",
      "Asia/Kathmandu",
      "America/Nuuk",
    ]) {
      expect(labels, current).toContain(current);
    }
    expect(labels).not.toContain("Asia/Calcutta");
    expect(canonicalTimeZone("Asia/Kolkata")).toBe(canonicalTimeZone("Asia/Calcutta"));
    expect(timeZoneLabel("America/New_York")).toBe("America/New York");
    // Sorted as they read, so Kolkata sits between Kathmandu and Krasnoyarsk.
    expect(labels).toEqual([...labels].sort());
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("maps only zones this runtime knows to names it reads as the same zone", () => {
    for (const zone of listTimeZones()) {
      const label = timeZoneLabel(zone).replace(/ /g, "_");
      expect(canonicalTimeZone(label), zone).toBe(canonicalTimeZone(zone));
    }
  });
});

describe("calendar helpers", () => {
  it("lays a month out in whole weeks, Sunday first", () => {
    const february = monthGrid("2026-02"); // 1 February 2026 is a Sunday
    expect(february).toHaveLength(28);
    expect(february[0]).toBe("2026-02-01");
    const march = monthGrid("2026-03");
    expect(march[0]).toBe("2026-03-01");
    expect(march.at(-1)).toBe("2026-04-04");
    expect(monthGrid("2026-11")[0]).toBe("2026-11-01");
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
  });

  it("formats times and reads dates", () => {
    expect(formatTime12("00:00")).toBe("12:00 AM");
    expect(formatTime12("09:00")).toBe("9:00 AM");
    expect(formatTime12("12:00")).toBe("12:00 PM");
    expect(formatTime12("17:00")).toBe("5:00 PM");
    expect(formatTime12("24:00")).toBe("12:00 AM");
    expect(isValidDate("2028-02-29")).toBe(true);
    expect(isValidDate("2026-02-29")).toBe(false);
    expect(dateInZone(utc("2026-01-13T03:00:00Z"), "America/Los_Angeles")).toBe("2026-01-12");
  });
});
