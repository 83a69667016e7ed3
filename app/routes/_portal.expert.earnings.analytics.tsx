import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { BarChart } from "~/components/bar-chart";
import { EarningsCards } from "~/components/earnings-cards";
import { formatCents } from "~/lib/money";
import { formatMonth } from "~/lib/months";
import { getEarningsOverview } from "~/models/earnings.server";
import portalHref from "~/styles/expert-portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalHref }];

export const meta: MetaFunction = () => [
  { title: "Earnings Analytics | Expert Answers" },
  { name: "robots", content: "noindex" },
];

const MONTHS = 12;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  if (expertId === null) return { overview: null };
  const overview = await getEarningsOverview(context.db, {
    expertId,
    now: new Date(context.now()),
    months: MONTHS,
  });
  return { overview };
}

const average = (cents: number, count: number) =>
  count > 0 ? formatCents(Math.round(cents / count)) : "N/A";

export default function EarningsAnalytics() {
  const { overview } = useLoaderData<typeof loader>();
  if (!overview) {
    return (
      <div className="stack-lg">
        <header className="page-header">
          <h1>Earnings Analytics</h1>
        </header>
        <p className="card">You have no expert profile, so there are no earnings to analyse.</p>
      </div>
    );
  }
  const { summary, monthly } = overview;
  const thisMonth = monthly[monthly.length - 1];
  const lastMonth = monthly[monthly.length - 2];
  const change =
    lastMonth && lastMonth.totalCents > 0
      ? Math.round(((thisMonth.totalCents - lastMonth.totalCents) / lastMonth.totalCents) * 100)
      : null;
  const best = monthly.reduce((top, month) => (month.totalCents > top.totalCents ? month : top), monthly[0]);
  const yearTotal = monthly.reduce((sum, month) => sum + month.totalCents, 0);

  return (
    <div className="stack-lg">
      <header className="page-header">
        <h1>Earnings Analytics</h1>
        <p>
          The last {MONTHS} months, month by month (UTC). <Link to="/expert/earnings">Back to Earnings</Link>
        </p>
      </header>

      <EarningsCards summary={summary} />

      <ul className="stat-grid" aria-label="Key figures">
        <li className="stat-card">
          <span className="stat-card__label">This month</span>
          <span className="stat-card__value">{formatCents(thisMonth.totalCents)}</span>
          <span className="stat-card__note">
            {change === null
              ? "no earnings last month to compare"
              : `${change >= 0 ? "+" : ""}${change}% on last month`}
          </span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Last {MONTHS} months</span>
          <span className="stat-card__value">{formatCents(yearTotal)}</span>
          <span className="stat-card__note">
            {best.totalCents > 0 ? `best month: ${formatMonth(best.month)}` : "no earnings yet"}
          </span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Per question</span>
          <span className="stat-card__value">
            {average(summary.questions.cents, summary.questions.count)}
          </span>
          <span className="stat-card__note">average, lifetime</span>
        </li>
        <li className="stat-card">
          <span className="stat-card__label">Per session</span>
          <span className="stat-card__value">{average(summary.sessions.cents, summary.sessions.count)}</span>
          <span className="stat-card__note">average, lifetime</span>
        </li>
      </ul>

      <section className="card stack" aria-labelledby="earnings-chart-title">
        <h2 id="earnings-chart-title">Earnings by month</h2>
        <BarChart
          title={`Earnings by month, last ${MONTHS} months`}
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
      </section>

      <section className="card stack" aria-labelledby="activity-chart-title">
        <h2 id="activity-chart-title">Work done by month</h2>
        <BarChart
          title={`Questions answered and sessions held, last ${MONTHS} months`}
          series={[
            { key: "answered", label: "Questions answered", tone: "primary" },
            { key: "held", label: "Sessions held", tone: "warm" },
          ]}
          data={monthly.map((month) => ({
            label: formatMonth(month.month, { short: true }),
            longLabel: formatMonth(month.month),
            values: { answered: month.questionsAnswered, held: month.sessionsCompleted },
          }))}
          formatValue={(n) => String(n)}
          unit={1}
        />
      </section>

      {/* Not a region itself: the table's scroller below is the "Monthly figures" region (two were one too many). */}
      <div className="card stack">
        <h2 id="monthly-table-title">Monthly figures</h2>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it (WCAG 2.1.1) */}
        <section className="table-scroll" aria-labelledby="monthly-table-title" tabIndex={0}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className="num">
                  Questions answered
                </th>
                <th scope="col" className="num">
                  Sessions held
                </th>
                <th scope="col" className="num">
                  Questions
                </th>
                <th scope="col" className="num">
                  Sessions
                </th>
                <th scope="col" className="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {[...monthly].reverse().map((month) => (
                <tr key={month.month}>
                  <th scope="row">{formatMonth(month.month)}</th>
                  <td className="num">{month.questionsAnswered}</td>
                  <td className="num">{month.sessionsCompleted}</td>
                  <td className="num">{formatCents(month.questionsCents)}</td>
                  <td className="num">{formatCents(month.sessionsCents)}</td>
                  <td className="num">{formatCents(month.totalCents)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td className="num">{monthly.reduce((sum, month) => sum + month.questionsAnswered, 0)}</td>
                <td className="num">{monthly.reduce((sum, month) => sum + month.sessionsCompleted, 0)}</td>
                <td className="num">
                  {formatCents(monthly.reduce((sum, month) => sum + month.questionsCents, 0))}
                </td>
                <td className="num">
                  {formatCents(monthly.reduce((sum, month) => sum + month.sessionsCents, 0))}
                </td>
                <td className="num">{formatCents(yearTotal)}</td>
              </tr>
            </tfoot>
          </table>
        </section>
      </div>
    </div>
  );
}
