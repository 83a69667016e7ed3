import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { ClientBookingActions } from "~/components/bookings/client-booking-actions";
import { ClientBookings, type ClientBookingView } from "~/components/client-bookings";
import { ClientQuestions, type ClientQuestionView } from "~/components/client-questions";
import { FavoriteExperts } from "~/components/favorite-experts";
import { clientBookingsView } from "~/models/bookings.server";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import bookingsStylesHref from "~/styles/bookings.css";

export const links = () => [{ rel: "stylesheet", href: bookingsStylesHref }];

/** The whole dashboard: overview, favourite experts, questions and bookings, in one D1 round trip. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const dashboard = await getClientDashboard(context.db, user.id);
  const now = context.now();
  const bookings = clientBookingsView(dashboard.bookings, {
    clientName: user.name ?? user.username,
    origin: new URL(request.url).origin,
    now: new Date(now),
  });
  return data(
    { ...dashboard, bookings, now, username: user.username },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

export default function DashboardOverview() {
  const { favorites, questions, bookings, now } = useLoaderData<typeof loader>();
  const waiting = questions.filter(
    (question: ClientQuestionView) => question.status === "pending" || question.status === "in_progress",
  );
  const upcoming = bookings.filter(
    (booking: ClientBookingView) => booking.status === "confirmed" && booking.startsAt >= now,
  );
  return (
    <div className="stack-lg">
      {/* The overview: the subscription panel joins these cards later. */}
      <section className="dashboard-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading" className="visually-hidden">
          Overview
        </h2>
        <ul className="overview-stats plain-list">
          <li className="card overview-stat">
            <span className="overview-stat__value">{waiting.length}</span>
            <span className="overview-stat__label">
              {waiting.length === 1 ? "question awaiting an answer" : "questions awaiting an answer"}
            </span>
            <Link to="/dashboard/questions">View questions</Link>
          </li>
          <li className="card overview-stat">
            <span className="overview-stat__value">{upcoming.length}</span>
            <span className="overview-stat__label">
              {upcoming.length === 1 ? "upcoming session" : "upcoming sessions"}
            </span>
            <Link to="/dashboard/bookings">View bookings</Link>
          </li>
          <li className="card overview-stat">
            <span className="overview-stat__value">{favorites.length}</span>
            <span className="overview-stat__label">
              {favorites.length === 1 ? "favorite expert" : "favorite experts"}
            </span>
            <a href="#favorite-experts">See them</a>
          </li>
        </ul>
      </section>
      <FavoriteExperts experts={favorites} />
      <ClientQuestions questions={questions} />
      <ClientBookings
        bookings={bookings}
        now={now}
        renderActions={(booking) => <ClientBookingActions booking={booking} now={now} />}
      />
    </div>
  );
}
