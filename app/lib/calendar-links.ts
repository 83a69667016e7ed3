/**
 * "Add to calendar" for a booked session: an iCalendar (.ics, RFC 5545) file and a Google Calendar
 * link. Both carry the session's UTC instants, so every calendar shows it in its owner's own zone.
 * Pure: the dashboard builds the Google link in the page, the server serves the .ics file.
 */

export type CalendarEvent = {
  /** Stable across downloads, so importing the file twice updates one event instead of adding two. */
  uid: string;
  title: string;
  description: string;
  location: string;
  /** Epoch milliseconds (UTC). */
  startsAt: number;
  endsAt: number;
  /** When the file was made (DTSTAMP), epoch milliseconds. */
  stamp: number;
  /**
   * CANCELLED for a cancelled session, so a calendar that imported it drops it; TENTATIVE while its
   * bank payment is still processing.
   */
  status?: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  url?: string | null;
  /**
   * The site's contact address, named as the event's ORGANIZER: RFC 5546 wants one in a PUBLISH or
   * CANCEL, and some calendar apps ignore a cancellation without it.
   */
  organizerEmail?: string;
};

/**
 * A session only moves forward (held → confirmed → cancelled, or held → cancelled), so its status
 * gives a SEQUENCE that grows with every change: a calendar keeps the newest file it has imported.
 */
const SEQUENCE = { TENTATIVE: 0, CONFIRMED: 1, CANCELLED: 2 } as const;

/** 20260310T140000Z: the UTC form both formats use. */
export function utcStamp(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** RFC 5545 3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT values. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();

/**
 * RFC 5545 3.1: lines longer than 75 octets are folded (CRLF then a space). Folds never split a
 * UTF-8 character.
 */
export function foldLine(line: string): string {
  const pieces: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line may hold 75 octets; continuation lines 74 (their leading space is the 75th).
    const limit = pieces.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      pieces.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  pieces.push(current);
  return pieces.join("\r\n ");
}

/** The .ics file of one event (CRLF line endings, as RFC 5545 requires). */
export function icsFile(event: CalendarEvent): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Expert Answers//Sessions//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${event.status === "CANCELLED" ? "CANCEL" : "PUBLISH"}`,
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${SEQUENCE[event.status ?? "CONFIRMED"]}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    ...(event.organizerEmail
      ? [`ORGANIZER;CN=Expert Answers:mailto:${event.organizerEmail.replace(/[\r\n]/g, "")}`]
      : []),
    `DTSTART:${utcStamp(event.startsAt)}`,
    `DTEND:${utcStamp(event.endsAt)}`,
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `STATUS:${event.status ?? "CONFIRMED"}`,
    // A cancellation carries no reminder (RFC 5546 allows no VALARM in a CANCEL).
    ...(event.status === "CANCELLED"
      ? []
      : [
          "BEGIN:VALARM",
          "ACTION:DISPLAY",
          `DESCRIPTION:${escapeText(event.title)}`,
          "TRIGGER:-PT15M",
          "END:VALARM",
        ]),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}

/** A link that opens Google Calendar's "new event" page filled in with the session. */
export function googleCalendarUrl(
  event: Pick<CalendarEvent, "title" | "description" | "location" | "startsAt" | "endsAt">,
): string {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${utcStamp(event.startsAt)}/${utcStamp(event.endsAt)}`,
    details: event.description,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** What a session's calendar entry says, the same in the file and the link. */
export function sessionEvent(input: {
  bookingId: number;
  expertName: string;
  clientName: string;
  /** Whose calendar: the client sees the expert's name in the title, the expert the client's. */
  viewer: "client" | "expert";
  startsAt: number;
  endsAt: number;
  origin: string;
  host: string;
  cancelled?: boolean;
  /** Booked, but its bank payment has not arrived yet. */
  paymentProcessing?: boolean;
}): Omit<CalendarEvent, "stamp"> {
  const other = input.viewer === "client" ? input.expertName : input.clientName;
  const manage = input.viewer === "client" ? "/dashboard/bookings" : "/expert/bookings";
  return {
    uid: `booking-${input.bookingId}@${input.host}`,
    title: `60-minute session with ${other}`,
    description: [
      `Your 60-minute Expert Answers session with ${other}.`,
      "The video call link is sent to both of you 15 minutes before the session starts.",
      `Manage the booking: ${input.origin}${manage}`,
    ].join("\n"),
    location: "Online video call (link sent 15 minutes before)",
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    status: input.cancelled ? "CANCELLED" : input.paymentProcessing ? "TENTATIVE" : "CONFIRMED",
    url: `${input.origin}${manage}`,
  };
}
