import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { formatCalendarDate, zoneAbbreviation } from "~/lib/dates";
import { expertProfilePath } from "~/lib/experts";
import { browserTimeZone, formatTime12, instantToLocal } from "~/lib/slots";

/** A client's booking as the dashboard shows it (see app/models/client-dashboard.server.ts). */
export type ClientBookingView = {
  id: number;
  /** The session's start and end, epoch milliseconds (UTC). */
  startsAt: number;
  endsAt: number;
  duration: number;
  status: "pending" | "confirmed" | "completed" | "cancelled";
  expertTimeZone: string;
  expert: { id: number; name: string; customUrl: string | null };
  /** Calendar links and the video room (once it is sent), when the page provides them. */
  icsPath?: string;
  googleCalendarUrl?: string;
  meetingLink?: string | null;
  /** Integer cents paid. */
  amount?: number;
  /** The client's own rating (1 to 5) once given. */
  myRating?: number | null;
};

export const BOOKING_STATUS_LABELS: Record<ClientBookingView["status"], string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** Upcoming sessions first (soonest first), then past ones (latest first). */
export function orderBookings(bookings: ClientBookingView[], now: number) {
  const upcoming = bookings
    .filter((booking) => booking.startsAt >= now && booking.status !== "cancelled")
    .sort((a, b) => a.startsAt - b.startsAt);
  const rest = bookings
    .filter((booking) => !upcoming.includes(booking))
    .sort((a, b) => b.startsAt - a.startsAt);
  return [...upcoming, ...rest];
}

/** A session's date, hours and zone name on the wall clock of `timeZone`. */
function sessionIn(booking: ClientBookingView, timeZone: string) {
  const start = instantToLocal(booking.startsAt, timeZone);
  const end = instantToLocal(booking.endsAt, timeZone);
  return {
    date: start.date,
    times: `${formatTime12(start.time)} – ${formatTime12(end.time)}`,
    zone: zoneAbbreviation(booking.startsAt, timeZone),
  };
}

/**
 * One booking row: date and time in the visitor's own zone once the page is live, with the
 * expert's wall clock beside it (before that, the expert's, which the server can render), expert and
 * status, and the page's actions (calendar links, cancel). Both come from the session's instants in
 * the expert's current zone, never from the wall clock stored at booking time, which is wrong once
 * the expert moves to another zone.
 */
function BookingRow({ booking, actions }: { booking: ClientBookingView; actions?: ReactNode }) {
  const hydrated = useHydrated();
  const viewerZone = hydrated ? browserTimeZone() : booking.expertTimeZone;
  const own = viewerZone !== booking.expertTimeZone;
  const expert = sessionIn(booking, booking.expertTimeZone);
  const viewer = own ? sessionIn(booking, viewerZone) : expert;
  return (
    <tr className="booking-row" data-status={booking.status}>
      <td data-label="Date">
        <div>{formatCalendarDate(viewer.date)}</div>
      </td>
      <td data-label="Time">
        <div>
          {`${viewer.times} `}
          <span className="muted">{viewer.zone}</span>
          {own ? (
            <span className="booking-row__local muted">
              {`Expert's time: ${viewer.date === expert.date ? "" : `${formatCalendarDate(expert.date)}, `}${expert.times} ${expert.zone}`}
            </span>
          ) : null}
        </div>
      </td>
      <td data-label="Expert">
        <div>
          <Link to={expertProfilePath(booking.expert)}>{booking.expert.name}</Link>
        </div>
      </td>
      <td data-label="Status">
        <div>
          <span className={`status-badge status-badge--booking-${booking.status}`}>
            {BOOKING_STATUS_LABELS[booking.status]}
          </span>
        </div>
      </td>
      {actions !== undefined ? (
        <td data-label="Actions">
          <div>{actions}</div>
        </td>
      ) : null}
    </tr>
  );
}

/**
 * My Bookings: date, time, expert and status; `renderActions` adds each row's calendar links and
 * cancellation (app/components/bookings/client-booking-actions.tsx).
 */
export function ClientBookings({
  bookings,
  now,
  headingLevel = 2,
  renderActions,
}: {
  bookings: ClientBookingView[];
  /** The server's clock (epoch ms) when the page was made, so server and browser agree on the order. */
  now: number;
  headingLevel?: 1 | 2;
  renderActions?: (booking: ClientBookingView) => ReactNode;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const ordered = orderBookings(bookings, now);
  return (
    <section
      className="dashboard-section card"
      aria-labelledby="my-bookings"
      data-focus-fallback="my-bookings"
    >
      <div className="dashboard-section__head">
        <Heading id="my-bookings" tabIndex={-1}>
          My Bookings
        </Heading>
      </div>
      {ordered.length === 0 ? (
        <p className="empty-text muted">
          You have no sessions booked. <Link to="/experts">Find an expert</Link> to book a 60-minute session.
        </p>
      ) : (
        <div className="table-frame">
          <table className="bookings-table">
            <caption className="visually-hidden">Your booked sessions</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Time</th>
                <th scope="col">Expert</th>
                <th scope="col">Status</th>
                {renderActions ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {ordered.map((booking) => (
                <BookingRow
                  key={booking.id}
                  booking={booking}
                  actions={renderActions ? renderActions(booking) : undefined}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
