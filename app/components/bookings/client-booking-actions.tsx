import { Link } from "@remix-run/react";
import type { ClientBookingView } from "~/components/client-bookings";
import { ReviewForm } from "~/components/review-form";
import { usePaymentsTestMode } from "~/components/use-payments-test-mode";
import { formatCents } from "~/lib/money";
import { CLIENT_CANCEL_CUTOFF_HOURS, clientMayCancel } from "~/lib/slots";
import { AddToCalendar, CancelBookingButton } from "./booking-actions";

/**
 * A client's actions on one of their bookings: join the call once the link is out, add an upcoming
 * session to a calendar, and cancel it up to 24 hours before the start (later, say why not).
 */
export function ClientBookingActions({ booking, now }: { booking: ClientBookingView; now: number }) {
  const testMode = usePaymentsTestMode();
  const upcoming = booking.status === "confirmed" && booking.startsAt + booking.duration * 60_000 > now;
  if (booking.status === "pending") return <span className="muted">Payment processing</span>;
  if (booking.status === "cancelled") {
    // The status badge already says "Cancelled": this says what became of the money.
    return (
      <span className="muted">{testMode ? "No payment was taken" : "Cancelled with a full refund"}</span>
    );
  }
  if (booking.status === "completed") {
    return <ReviewForm subject="booking" id={booking.id} myRating={booking.myRating ?? null} />;
  }
  if (!upcoming) return <span className="muted">—</span>;
  const refund = testMode
    ? "Booked in test mode, so no payment was taken and there is nothing to refund."
    : `You'll get ${booking.amount ? `a full refund of ${formatCents(booking.amount)}` : "a full refund"}.`;
  return (
    <div className="booking-actions">
      {booking.meetingLink ? (
        <a
          href={booking.meetingLink}
          target="_blank"
          rel="noopener noreferrer"
          className="btn btn--primary btn--sm"
        >
          Join video call<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : null}
      {booking.icsPath && booking.googleCalendarUrl ? (
        <AddToCalendar icsPath={booking.icsPath} googleCalendarUrl={booking.googleCalendarUrl} compact />
      ) : null}
      {clientMayCancel(booking.startsAt, now) ? (
        <CancelBookingButton
          bookingId={booking.id}
          description={`${refund} ${booking.expert.name} is told and the time opens up for other clients.`}
        />
      ) : booking.startsAt > now ? (
        <p className="hint booking-actions__note">
          {`Sessions can be cancelled up to ${CLIENT_CANCEL_CUTOFF_HOURS} hours before they start, so this one can no longer be cancelled here. `}
          <Link to="/contact">Contact us</Link> if something came up.
        </p>
      ) : null}
    </div>
  );
}
