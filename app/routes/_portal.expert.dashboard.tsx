import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { BarChart } from "~/components/bar-chart";
import { buttonClass } from "~/components/ui/button";
import { formatLocalDate, formatResponseTime, formatSpan } from "~/lib/format-date";
import { formatCents } from "~/lib/money";
import { formatMonth } from "~/lib/months";
import { dateInZone, formatTime12 } from "~/lib/slots";
import { getMonthlyEarnings, type MonthlyEarnings } from "~/models/earnings.server";
import { getExpertDashboard } from "~/models/experts.server";
import portalHref from "~/styles/expert-portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalHref }];

export const meta: MetaFunction = () => [
  { title: "Expert Dashboard | Expert Answers" },
  { name: "robots", content: "noindex" },
];

const PERFORMANCE_MONTHS = 6;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, expertId } = await requireExpert(context, request);
  const name = user.name ?? user.username;
  const now = new Date(context.now());
  if (expertId === null)
    return { name, now: now.getTime(), dashboard: null, monthly: [] as MonthlyEarnings[] };
  const [dashboard, monthly] = await Promise.all([
    getExpertDashboard(context.db, { expertId, now }),
    getMonthlyEarnings(context.db, { expertId, now, months: PERFORMANCE_MONTHS }),
  ]);
  return { name, now: now.getTime(), dashboard, monthly };
}

export default function ExpertDashboard() {
  const { name, now, dashboard, monthly } = useLoaderData<typeof loader>();
  if (!dashboard) {
    return (
      <div className="stack-lg">
        <header className="page-header">
          <h1>Expert Dashboard</h1>
          <p>Welcome, {name}.</p>
        </header>
        <section className="card stack">
          <h2>No expert profile yet</h2>
          <p>You are signed in as an administrator without an expert profile of your own.</p>
          <div>
            <Link to="/become-expert" className={buttonClass()}>
              Create your expert profile
            </Link>
          </div>
        </section>
      </div>
    );
  }
  const hasPerformance = monthly.some((month) => month.totalCents > 0 || month.questionsAnswered > 0);
  return (
    <div className="stack-lg">
      <header className="page-header">
        <h1>Expert Dashboard</h1>
        <p>Welcome back, {name}.</p>
      </header>
      {dashboard.isVerified ? null : (
        <p className="notice">
          Your profile is waiting for verification by our team. Clients can already find you; the Verified
          Expert mark appears once an administrator has checked your profile.
        </p>
      )}

      <ul className="stat-grid" aria-label="At a glance">
        <li className="stat-card">
          <span className="stat-card__label">Pending Questions</span>
          <span className="stat-card__value">{dashboard.pendingQuestions}</span>
          <span className="stat-card__note">waiting for your answer</span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Upcoming Bookings</span>
          <span className="stat-card__value">{dashboard.upcomingBookings}</span>
          <span className="stat-card__note">confirmed sessions</span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Avg. Response Time</span>
          <span className="stat-card__value">
            {dashboard.averageResponseHours === null
              ? "N/A"
              : formatResponseTime(dashboard.averageResponseHours)}
          </span>
          <span className="stat-card__note">
            {dashboard.answeredCount > 0
              ? `over ${dashboard.answeredCount} answered question${dashboard.answeredCount === 1 ? "" : "s"}`
              : "no answered questions yet"}
          </span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Average Rating</span>
          <span className="stat-card__value">
            {dashboard.averageRating === null ? "N/A" : dashboard.averageRating.toFixed(1)}
          </span>
          <span className="stat-card__note">
            {dashboard.reviewCount} review{dashboard.reviewCount === 1 ? "" : "s"}
          </span>
        </li>
      </ul>

      <section className="card stack" aria-labelledby="performance-title">
        <div className="section-heading">
          <h2 id="performance-title">Performance Overview</h2>
          <Link to="/expert/earnings/analytics">See analytics</Link>
        </div>
        {hasPerformance ? (
          <>
            <BarChart
              title={`Earnings in the last ${PERFORMANCE_MONTHS} months, by UTC month`}
              series={[
                { key: "questions", label: "Questions", tone: "primary" },
                { key: "sessions", label: "Sessions", tone: "accent" },
              ]}
              data={monthly.map((month) => ({
                label: formatMonth(month.month, { short: true }),
                longLabel: formatMonth(month.month),
                values: { questions: month.questionsCents, sessions: month.sessionsCents },
              }))}
              formatValue={formatCents}
              formatTick={(cents) => `$${Math.round(cents / 100)}`}
              unit={100}
            />
            <section
              className="table-scroll"
              aria-label="Questions answered and earnings by month"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it (WCAG 2.1.1)
              tabIndex={0}
            >
              <table className="data-table">
                <caption className="visually-hidden">Questions answered and earnings by month</caption>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col" className="num">
                      Questions answered
                    </th>
                    <th scope="col" className="num">
                      Earnings
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {monthly.map((month) => (
                    <tr key={month.month}>
                      <th scope="row">{formatMonth(month.month)}</th>
                      <td className="num">{month.questionsAnswered}</td>
                      <td className="num">{formatCents(month.totalCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </>
        ) : (
          <p className="empty-state">
            No activity in the last {PERFORMANCE_MONTHS} months yet. Answered questions and held sessions show
            here month by month.
          </p>
        )}
      </section>

      <div className="dashboard-columns">
        <section className="card stack" aria-labelledby="pending-title">
          <div className="section-heading">
            <h2 id="pending-title">Pending Questions</h2>
            <Link to="/expert/questions">
              View all<span className="visually-hidden"> questions</span>
            </Link>
          </div>
          {dashboard.pendingList.length === 0 ? (
            <p className="empty-state">No pending questions. New questions will appear here.</p>
          ) : (
            <ul className="item-list">
              {dashboard.pendingList.map((question) => (
                <li key={question.id} className="item-list__item">
                  <p className="item-list__title clamp-2">{question.question}</p>
                  <p className="item-list__meta">
                    {question.name ?? "Client"} · asked{" "}
                    {formatLocalDate(dateInZone(new Date(question.createdAt), dashboard.timeZone))}
                    {question.deadlineAt ? (
                      <>
                        {" · "}
                        {new Date(question.deadlineAt).getTime() > now ? (
                          <span>due in {formatSpan(new Date(question.deadlineAt).getTime() - now)}</span>
                        ) : (
                          <span className="badge badge--danger">overdue</span>
                        )}
                      </>
                    ) : null}
                    {question.requestAudioResponse ? (
                      <span className="badge badge--muted">audio requested</span>
                    ) : null}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card stack" aria-labelledby="upcoming-title">
          <div className="section-heading">
            <h2 id="upcoming-title">Upcoming Bookings</h2>
            <Link to="/expert/bookings">
              View all<span className="visually-hidden"> bookings</span>
            </Link>
          </div>
          {dashboard.upcomingList.length === 0 ? (
            <p className="empty-state">No upcoming sessions. Confirmed bookings will appear here.</p>
          ) : (
            <ul className="item-list">
              {dashboard.upcomingList.map((booking) => (
                <li key={booking.id} className="item-list__item">
                  <p className="item-list__title">
                    {`${formatLocalDate(booking.date)} · ${formatTime12(booking.startTime)} – ${formatTime12(booking.endTime)}`}
                  </p>
                  <p className="item-list__meta">
                    {booking.clientName} · {booking.duration} minutes
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="card stack" aria-labelledby="reviews-title">
        <h2 id="reviews-title">Recent Reviews</h2>
        {dashboard.recentReviews.length === 0 ? (
          <p className="empty-state">No reviews yet. Clients can rate each answer and session.</p>
        ) : (
          <ul className="item-list">
            {dashboard.recentReviews.map((review) => (
              <li key={review.id} className="item-list__item">
                <p className="item-list__title">
                  <span aria-hidden="true">{"★".repeat(review.rating)}</span>
                  <span className="visually-hidden">{`${review.rating} out of 5 stars`}</span>
                  {` · ${review.subject === "session" ? "a session" : "an answer"} · `}
                  {formatLocalDate(dateInZone(new Date(review.createdAt), dashboard.timeZone))}
                </p>
                <p className={review.comment ? "review-comment" : "item-list__meta"}>
                  {review.comment ?? "No comment"}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
