import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { requireExpert } from "~/auth/guards.server";
import { AddToCalendar, CancelBookingButton } from "~/components/bookings/booking-actions";
import { MonthCalendar } from "~/components/bookings/month-calendar";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { usePaymentsTestMode } from "~/components/use-payments-test-mode";
import { expertCancelDescription } from "~/lib/booking-texts";
import { formatCents } from "~/lib/money";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import {
  dateInZone,
  formatDayLabel,
  formatLongDate,
  formatTime12,
  MEETING_LINK_LEAD_MINUTES,
  monthOf,
  timeZoneLabel,
  zoneName,
} from "~/lib/slots";
import { type ExpertBookingView, getExpertCalendar } from "~/models/bookings.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import bookingsStylesHref from "~/styles/bookings.css";
import dashboardStylesHref from "~/styles/dashboard.css";
import portalHref from "~/styles/expert-portal.css";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [
  { rel: "stylesheet", href: portalHref },
  { rel: "stylesheet", href: dashboardStylesHref },
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: bookingsStylesHref },
];

export const meta: MetaFunction = () => [
  { title: "Bookings | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export const headers = () => ({ "Cache-Control": PRIVATE_CACHE_CONTROL });

/** The expert's calendar: only their own sessions, in their own time zone. */
export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  if (expertId === null) return { hasProfile: false as const };
  const now = new Date(context.now());
  const calendar = await getExpertCalendar(context.db, {
    expertId,
    now,
    origin: new URL(request.url).origin,
  });
  return {
    hasProfile: true as const,
    now: now.getTime(),
    today: dateInZone(now, calendar.timeZone),
    ...calendar,
  };
}

const STATUS_LABELS: Record<ExpertBookingView["status"], string> = {
  pending: "Payment processing",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
};

function StatusBadge({ status }: { status: ExpertBookingView["status"] }) {
  return <span className={`status-badge status-badge--booking-${status}`}>{STATUS_LABELS[status]}</span>;
}

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { hasProfile: true }>;

export default function ExpertBookings() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.hasProfile) {
    return (
      <div className="stack-lg">
        <h1>Bookings</h1>
        <p className="card">
          You are signed in as an administrator without an expert profile of your own, so there are no
          sessions to show. <Link to="/become-expert">Create your expert profile</Link> to take bookings.
        </p>
      </div>
    );
  }
  return <BookingsScreen {...(loaded as Loaded)} />;
}

function BookingsScreen({ bookings, timeZone, today, now }: Loaded) {
  const [month, setMonth] = useState(monthOf(today));
  const [day, setDay] = useState(today);
  const [openId, setOpenId] = useState<number | null>(null);
  // The dialog keeps the session it opened with while the list refreshes (after a cancel).
  const snapshot = useRef<ExpertBookingView | null>(null);
  const open =
    openId === null ? null : (bookings.find((booking) => booking.id === openId) ?? snapshot.current);
  if (open) snapshot.current = open;

  const countsByDay = useMemo(() => {
    const counts = new Map<string, number>();
    for (const booking of bookings) {
      if (booking.status === "cancelled") continue;
      counts.set(booking.date, (counts.get(booking.date) ?? 0) + 1);
    }
    return counts;
  }, [bookings]);

  const byStartAsc = (a: ExpertBookingView, b: ExpertBookingView) => a.startsAt - b.startsAt;
  const upcoming = bookings.filter((b) => b.status === "confirmed" && b.endsAt > now).sort(byStartAsc);
  // Past: held sessions, and any other session that is over (not cancelled ones: they have a tab).
  const past = bookings.filter(
    (b) => b.status === "completed" || (b.status !== "cancelled" && b.endsAt <= now),
  );
  const cancelled = bookings.filter((b) => b.status === "cancelled");
  const onDay = bookings.filter((b) => b.date === day).sort(byStartAsc);

  const row = (booking: ExpertBookingView) => (
    <tr key={booking.id} className="booking-row" data-status={booking.status}>
      <td data-label="Date & Time">
        <div>
          <span>{formatDayLabel(booking.date, today)}</span>
          <span className="muted">{` ${formatTime12(booking.startTime)} – ${formatTime12(booking.endTime)}`}</span>
        </div>
      </td>
      <td data-label="Client">
        <div>{booking.clientName}</div>
      </td>
      <td data-label="Status">
        <div>
          <StatusBadge status={booking.status} />
        </div>
      </td>
      <td data-label="Duration">
        <div>{booking.duration} min</div>
      </td>
      <td data-label="Actions">
        <div>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setOpenId(booking.id)}
            aria-label={`View details of the session with ${booking.clientName} on ${formatLongDate(booking.date)}`}
          >
            View details
          </Button>
        </div>
      </td>
    </tr>
  );

  const table = (rows: ExpertBookingView[], caption: string, empty: string) =>
    rows.length === 0 ? (
      <p className="empty-state">{empty}</p>
    ) : (
      <div className="table-frame">
        <table className="bookings-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Date &amp; Time</th>
              <th scope="col">Client</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>{rows.map(row)}</tbody>
        </table>
      </div>
    );

  return (
    <div className="stack-lg expert-bookings">
      <header className="page-header">
        <h1>Bookings</h1>
        <p className="muted">
          {`Times are in your time zone, ${timeZoneLabel(timeZone)} (${zoneName(now, timeZone)}). `}
          <Link to="/expert/availability">Change your hours or time zone</Link>
        </p>
      </header>

      <div className="bookings-overview">
        <section className="card stack" aria-labelledby="calendar-title">
          <h2 id="calendar-title">Calendar</h2>
          <MonthCalendar
            label="Your sessions by day"
            month={month}
            onMonthChange={setMonth}
            selected={day}
            onSelect={setDay}
            today={today}
            describeDay={(date) => {
              const count = countsByDay.get(date) ?? 0;
              return count === 0 ? null : `${count} session${count === 1 ? "" : "s"}`;
            }}
            renderDay={(date) => {
              const count = countsByDay.get(date) ?? 0;
              return count > 0 ? (
                // The number is drawn by CSS from data-count: the day's accessible name already
                // says "N sessions", and a text node here would not match it (WCAG 2.5.3).
                <span className="calendar-day__count" data-count={count} aria-hidden="true" />
              ) : null;
            }}
          />
        </section>

        <section className="card stack" aria-labelledby="day-title" aria-live="polite">
          <h2 id="day-title">{day === today ? "Today's sessions" : `Sessions on ${formatLongDate(day)}`}</h2>
          {onDay.length === 0 ? (
            <p className="empty-state">No sessions on this day.</p>
          ) : (
            <ul className="day-sessions plain-list">
              {onDay.map((booking) => (
                <li key={booking.id} className="day-session" data-status={booking.status}>
                  <div>
                    <p className="day-session__time">
                      {`${formatTime12(booking.startTime)} – ${formatTime12(booking.endTime)}`}
                    </p>
                    <p className="muted day-session__client">{booking.clientName}</p>
                  </div>
                  <div className="day-session__side">
                    <StatusBadge status={booking.status} />
                    <Button size="sm" variant="ghost" onClick={() => setOpenId(booking.id)}>
                      Details
                      <span className="visually-hidden">{` of the session with ${booking.clientName}`}</span>
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      {/* A session cancelled from its details leaves the Upcoming tab, and its row's button with it. */}
      <section className="card stack" aria-labelledby="list-title" data-focus-fallback="list-title">
        <h2 id="list-title" tabIndex={-1}>
          All sessions
        </h2>
        <Tabs defaultValue="upcoming">
          <TabsList aria-label="Filter sessions">
            <TabsTrigger value="upcoming">{`Upcoming (${upcoming.length})`}</TabsTrigger>
            <TabsTrigger value="past">{`Past (${past.length})`}</TabsTrigger>
            <TabsTrigger value="cancelled">{`Cancelled (${cancelled.length})`}</TabsTrigger>
            <TabsTrigger value="all">{`All (${bookings.length})`}</TabsTrigger>
          </TabsList>
          <TabsContent value="upcoming">
            {table(upcoming, "Upcoming sessions", "No upcoming sessions. Confirmed bookings appear here.")}
          </TabsContent>
          <TabsContent value="past">{table(past, "Past sessions", "No past sessions yet.")}</TabsContent>
          <TabsContent value="cancelled">
            {table(cancelled, "Cancelled sessions", "No cancelled sessions.")}
          </TabsContent>
          <TabsContent value="all">{table(bookings, "All sessions", "No sessions booked yet.")}</TabsContent>
        </Tabs>
      </section>

      <Dialog open={open !== null} onOpenChange={(next) => !next && setOpenId(null)}>
        {open ? <BookingDetails booking={open} timeZone={timeZone} now={now} today={today} /> : null}
      </Dialog>
    </div>
  );
}

function BookingDetails({
  booking,
  timeZone,
  now,
  today,
}: {
  booking: ExpertBookingView;
  timeZone: string;
  now: number;
  today: string;
}) {
  const cancellable = booking.status === "confirmed" && booking.startsAt > now;
  // Cancelling removes the focused Cancel Session button: focus goes to the details' title, never
  // to the page behind the still open dialog, nor to its frame (where Radix's focus trap puts it
  // when the focused element leaves).
  useEffect(() => {
    if (cancellable) return;
    const title = document.querySelector<HTMLElement>(".booking-dialog .dialog-title");
    const dialog = title?.closest<HTMLElement>("[role='dialog']");
    const active = document.activeElement;
    if (title && dialog && (active === dialog || !dialog.contains(active))) title.focus();
  }, [cancellable]);
  // Test mode takes no payment, so there is nothing to refund and nothing is said to be.
  const testMode = usePaymentsTestMode();

  return (
    <DialogContent
      className="booking-dialog"
      aria-describedby={`booking-${booking.id}-when`}
      // Opened to read: focus starts on the title, not on the first control (Cancel Session's).
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        document.querySelector<HTMLElement>(".booking-dialog .dialog-title")?.focus();
      }}
    >
      <DialogTitle tabIndex={-1}>Session details</DialogTitle>
      <DialogDescription id={`booking-${booking.id}-when`}>
        {`${formatDayLabel(booking.date, today)}, ${formatTime12(booking.startTime)} – ${formatTime12(booking.endTime)} ${zoneName(booking.startsAt, timeZone)}`}
      </DialogDescription>
      <dl className="details booking-details">
        <dt>Time</dt>
        <dd>{`${formatLongDate(booking.date)}, ${formatTime12(booking.startTime)} ${zoneName(booking.startsAt, timeZone)}`}</dd>
        <dt>Duration</dt>
        <dd>{booking.duration} minutes</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={booking.status} />
          {booking.status === "cancelled" ? (
            <span className="muted">
              {` by ${booking.cancelledBy === "client" ? "the client" : "you"}${booking.refunded && booking.amount > 0 && !testMode ? `, ${formatCents(booking.amount)} refunded` : ""}`}
            </span>
          ) : null}
        </dd>
        <dt>Client</dt>
        <dd>{booking.clientName}</dd>
        <dt>Email</dt>
        <dd>{booking.email ? <a href={`mailto:${booking.email}`}>{booking.email}</a> : "—"}</dd>
        {booking.message ? (
          <>
            <dt>Message</dt>
            <dd className="booking-details__message">{booking.message}</dd>
          </>
        ) : null}
      </dl>
      {booking.status === "confirmed" || booking.status === "pending" ? (
        <>
          <AddToCalendar icsPath={booking.icsPath} googleCalendarUrl={booking.googleCalendarUrl} />
          <p className="notice">
            {`A video call link is sent to both of you ${MEETING_LINK_LEAD_MINUTES} minutes before the session starts.`}
          </p>
        </>
      ) : null}
      {booking.meetingLink ? (
        <p>
          <a
            href={booking.meetingLink}
            target="_blank"
            rel="noopener noreferrer"
            className="btn btn--primary"
          >
            Join video call<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
      {cancellable ? (
        <div className="dialog-footer dialog-footer--start">
          <CancelBookingButton
            bookingId={booking.id}
            description={expertCancelDescription({
              clientName: booking.clientName,
              amountCents: booking.amount,
              testMode,
            })}
          />
        </div>
      ) : null}
    </DialogContent>
  );
}
