/**
 * The pure parts of bookings: calendar files and links (RFC 5545, Google's template URL) and the
 * shared booking and schedule schemas with SPEC.md's messages.
 */
import { describe, expect, it } from "vitest";
import { CONFIRMATION_COPY, confirmationKind } from "~/components/confirmation-screen";
import { bookedPath, bookedToast, expertCancelDescription } from "~/lib/booking-texts";
import {
  escapeText,
  foldLine,
  googleCalendarUrl,
  icsFile,
  sessionEvent,
  utcStamp,
} from "~/lib/calendar-links";
import { BookingApiSchema, BookingFormSchema, ScheduleSchema } from "~/schemas/bookings";

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

const eventInput = {
  bookingId: 42,
  expertName: "Sarah Mitchell",
  clientName: "Jordan Lee",
  viewer: "client" as const,
  startsAt: Date.parse("2026-03-10T14:00:00Z"),
  endsAt: Date.parse("2026-03-10T15:00:00Z"),
  origin: "https://expertanswers.example",
  host: "expertanswers.example",
};

const event = () => ({
  ...sessionEvent(eventInput),
  stamp: Date.parse("2026-02-20T15:00:00Z"),
});

describe("the calendar file (.ics)", () => {
  it("carries the session's UTC start and end, a stable UID and CRLF line endings", () => {
    const file = icsFile(event());
    expect(file.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(file.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(file).toContain("\r\nDTSTART:20260310T140000Z\r\n");
    expect(file).toContain("\r\nDTEND:20260310T150000Z\r\n");
    expect(file).toContain("\r\nDTSTAMP:20260220T150000Z\r\n");
    expect(file).toContain("\r\nUID:booking-42@expertanswers.example\r\n");
    expect(file).toContain("\r\nSUMMARY:60-minute session with Sarah Mitchell\r\n");
    expect(file).toContain("STATUS:CONFIRMED");
    expect(file.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("escapes text and folds long lines at 75 octets without splitting a character", () => {
    expect(escapeText("a, b; c\\d\ne")).toBe("a\\, b\\; c\\\\d\\ne");
    const long = `DESCRIPTION:${"é".repeat(60)}`;
    const folded = foldLine(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((line) => line.startsWith(" "))).toBe(true);
    expect(lines.map((line, index) => (index === 0 ? line : line.slice(1))).join("")).toBe(long);
    for (const line of icsFile(event()).split("\r\n")) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    }
  });

  it("marks a session whose bank payment is processing tentative", () => {
    const held = sessionEvent({ ...eventInput, paymentProcessing: true });
    expect(icsFile({ ...held, stamp: 0 })).toContain("\r\nSTATUS:TENTATIVE\r\n");
  });

  it("marks a cancelled session cancelled, so calendars that imported it drop it", () => {
    const cancelled = icsFile({ ...event(), status: "CANCELLED" });
    expect(cancelled).toContain("METHOD:CANCEL");
    expect(cancelled).toContain("STATUS:CANCELLED");
    expect(cancelled).not.toContain("VALARM");
    expect(icsFile(event())).toContain("\r\nBEGIN:VALARM\r\n");
  });

  it("numbers each change of status higher, and names an organizer only when given one", () => {
    const sequence = (status: "TENTATIVE" | "CONFIRMED" | "CANCELLED") =>
      Number(/\r\nSEQUENCE:(\d+)\r\n/.exec(icsFile({ ...event(), status }))?.[1]);
    expect(sequence("TENTATIVE")).toBeLessThan(sequence("CONFIRMED"));
    expect(sequence("CONFIRMED")).toBeLessThan(sequence("CANCELLED"));
    expect(icsFile(event())).not.toContain("ORGANIZER");
    expect(icsFile({ ...event(), organizerEmail: "help@example.com\r\nX-EVIL:1" })).toContain(
      "\r\nORGANIZER;CN=Expert Answers:mailto:help@example.comX-EVIL:1\r\n",
    );
  });
});

describe("the Google Calendar link", () => {
  it("opens Google's new-event template with the UTC times", () => {
    const url = new URL(googleCalendarUrl(event()));
    expect(url.origin + url.pathname).toBe("https://calendar.google.com/calendar/render");
    expect(url.searchParams.get("action")).toBe("TEMPLATE");
    expect(url.searchParams.get("dates")).toBe("20260310T140000Z/20260310T150000Z");
    expect(url.searchParams.get("text")).toBe("60-minute session with Sarah Mitchell");
    expect(url.searchParams.get("details")).toContain("15 minutes before");
    expect(utcStamp(Date.parse("2026-11-01T05:00:00.123Z"))).toBe("20261101T050000Z");
  });
});

describe("the booking schema", () => {
  const valid = {
    name: "Jordan Lee",
    email: "jordan@example.com",
    date: "2026-03-10",
    time: "10:00",
    message: "Our pre-seed deck and the model behind it.",
  };

  it("says SPEC.md's message for each field", () => {
    expect(issues(BookingFormSchema.safeParse({ ...valid, name: "J" }))).toEqual([
      "Name must be at least 2 characters long",
    ]);
    expect(issues(BookingFormSchema.safeParse({ ...valid, email: "not-an-email" }))).toEqual([
      "Please enter a valid email address",
    ]);
    expect(issues(BookingFormSchema.safeParse({ ...valid, date: undefined }))).toEqual([
      "Please select a date for your session",
    ]);
    expect(issues(BookingFormSchema.safeParse({ ...valid, date: "2026-02-30" }))).toEqual([
      "Please select a date for your session",
    ]);
    expect(issues(BookingFormSchema.safeParse({ ...valid, time: undefined }))).toEqual([
      "Please select a time slot",
    ]);
    expect(issues(BookingFormSchema.safeParse({ ...valid, message: "  too short " }))).toEqual([
      "Please provide a brief description of what you'd like to discuss",
    ]);
    expect(BookingFormSchema.safeParse(valid).success).toBe(true);
  });

  it("takes the API's expert and zone, refuses an unknown zone, and drops any price or status", () => {
    const parsed = BookingApiSchema.parse({
      ...valid,
      expertId: 7,
      status: "confirmed",
      amount: 1,
      price: 1,
    });
    expect(parsed).not.toHaveProperty("amount");
    expect(parsed).not.toHaveProperty("price");
    expect(parsed.expertId).toBe(7);
    expect(issues(BookingApiSchema.safeParse({ ...valid, expertId: 7, timeZone: "Mars/Olympus" }))).toEqual([
      "Please choose a valid time zone.",
    ]);
    expect(BookingApiSchema.safeParse({ ...valid, expertId: 7, timeZone: "Europe/Berlin" }).success).toBe(
      true,
    );
  });

  it("takes the expert as a number or its digits, never as anything Number() would also read as one", () => {
    expect(BookingApiSchema.parse({ ...valid, expertId: "12" }).expertId).toBe(12);
    for (const expertId of [true, [1], "0x1", "1e1", " 1", 1.5, 0, -3, null]) {
      expect(issues(BookingApiSchema.safeParse({ ...valid, expertId })), JSON.stringify(expertId)).toEqual([
        "Please choose an expert.",
      ]);
    }
  });
});

describe("the weekly schedule schema", () => {
  const days = (change: Record<number, object> = {}) =>
    Array.from({ length: 7 }, (_, day) => ({
      enabled: day >= 1 && day <= 5,
      start: "09:00",
      end: "18:00",
      ...change[day],
    }));

  it("accepts a week with at least one day, each ending an hour or more after it starts", () => {
    expect(
      ScheduleSchema.safeParse({ intent: "schedule", timeZone: "Europe/London", days: days() }).success,
    ).toBe(true);
    expect(
      ScheduleSchema.safeParse({
        intent: "schedule",
        timeZone: "UTC",
        days: days({ 6: { enabled: true, start: "22:00", end: "24:00" } }),
      }).success,
    ).toBe(true);
  });

  it("refuses an unknown zone, an end before the start, times off the hour (no session fits them), and no days", () => {
    expect(
      issues(ScheduleSchema.safeParse({ intent: "schedule", timeZone: "Mars/Olympus", days: days() })),
    ).toEqual(["Please choose a valid time zone."]);
    expect(
      issues(
        ScheduleSchema.safeParse({
          intent: "schedule",
          timeZone: "UTC",
          days: days({ 1: { end: "08:00" } }),
        }),
      ),
    ).toEqual(["The end must be later than the start."]);
    expect(
      issues(
        ScheduleSchema.safeParse({
          intent: "schedule",
          timeZone: "UTC",
          days: days({ 1: { start: "09:30", end: "10:45" } }),
        }),
      ),
    ).toEqual(["Please choose a time.", "Please choose a time."]);
    // Not times at all, on a day that is on: the message, not an exception (a 500 on the server).
    for (const [start, end] of [
      ["09:00", "99:99"],
      ["09:00", "25:00"],
      ["9am", "18:00"],
    ]) {
      const day = { 1: { enabled: true, start, end } };
      expect(
        issues(ScheduleSchema.safeParse({ intent: "schedule", timeZone: "UTC", days: days(day) })),
        `${start}-${end}`,
      ).toEqual(["Please choose a time."]);
    }
    const none = Array.from({ length: 7 }, () => ({ enabled: false, start: "09:00", end: "18:00" }));
    expect(issues(ScheduleSchema.safeParse({ intent: "schedule", timeZone: "UTC", days: none }))).toEqual([
      "Choose at least one day. To stop taking new bookings, switch bookings off above.",
    ]);
  });
});

describe("the expert's Cancel Session confirmation", () => {
  it("says who is told and what is refunded", () => {
    expect(expertCancelDescription({ clientName: "Sam Lee", amountCents: 12000, testMode: false })).toBe(
      "Sam Lee is told, and the time opens up for other clients. Sam Lee gets a full refund of $120.00.",
    );
    expect(expertCancelDescription({ clientName: "Sam Lee", amountCents: 12000, testMode: true })).toBe(
      "Sam Lee is told, and the time opens up for other clients. Booked in test mode, so no payment was taken and there is nothing to refund.",
    );
  });

  it("promises nothing to a client who deleted their account, whose card is still refunded", () => {
    const text = expertCancelDescription({
      clientName: "Deleted account",
      amountCents: 5000,
      testMode: false,
    });
    expect(text).toBe(
      "The client has deleted their account; the time opens up for other clients. The client's card gets a full refund of $50.00.",
    );
    expect(text).not.toContain("Deleted account is told");
  });
});

describe("the confirmation of a booked session", () => {
  it("says a session whose bank payment is processing is held, not confirmed", () => {
    expect(bookedPath(7, "confirmed")).toBe("/thank-you?booking=7");
    expect(bookedPath(7, "pending")).toBe("/thank-you?booking=7&payment=processing");
    expect(confirmationKind("?booking=7")).toBe("booking");
    expect(confirmationKind("?booking=7&payment=processing")).toBe("bookingProcessing");
    expect(CONFIRMATION_COPY.bookingProcessing.description).not.toContain("confirmed.");
    expect(bookedToast("pending").title).toBe("Payment Processing");
    expect(bookedToast("confirmed")).toEqual({ title: "Success!", description: "Your session is booked." });
  });
});
