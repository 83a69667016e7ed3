import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { BarChart } from "~/components/bar-chart";
import { EarningsCards } from "~/components/earnings-cards";
import { buttonClass } from "~/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { formatCents } from "~/lib/money";
import { formatMonth } from "~/lib/months";
import { DEFAULT_QUESTION_PRICE } from "~/lib/questions";
import { getEarningsOverview } from "~/models/earnings.server";
import { SUBSCRIPTION_PRICE_CENTS } from "~/schemas/subscription";
import portalHref from "~/styles/expert-portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalHref }];

export const meta: MetaFunction = () => [
  { title: "Earnings | Expert Answers" },
  { name: "robots", content: "noindex" },
];

const MONTHS = 6;

/** Why a subscriber's question can show as $0.00 (app/models/payments.server.ts, subscriptionCreditStatement). */
const SUBSCRIPTION_CREDIT_NOTE = `A subscriber's daily question earns ${formatCents(DEFAULT_QUESTION_PRICE)}, until that subscriber's questions have earned ${formatCents(SUBSCRIPTION_PRICE_CENTS)} (their monthly price) within 30 days; later ones in those days earn nothing.`;

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

const TIPS = [
  "Answer questions quickly: most clients expect an answer within 12 hours, and fast answers earn better reviews.",
  "Complete your profile with a photo, a header image and a clear bio so clients trust you at first sight.",
  "Share your profile link on social media and in your newsletter to bring your own audience.",
  "Offer audio answers when asked: a personal recording makes clients come back.",
  "Keep your availability up to date so clients can book the sessions they want.",
  "Review your prices every few months as your reviews and demand grow.",
];

export default function Earnings() {
  const { overview } = useLoaderData<typeof loader>();
  if (!overview) {
    return (
      <div className="stack-lg">
        <header className="page-header">
          <h1>Earnings</h1>
        </header>
        <p className="card">You have no expert profile, so there are no earnings to show.</p>
      </div>
    );
  }
  const { summary, monthly } = overview;
  return (
    <div className="stack-lg">
      <header className="page-header">
        <div>
          <h1>Earnings</h1>
          <p>What you have earned from answered questions and held sessions, refunds excluded.</p>
          <p className="muted">{SUBSCRIPTION_CREDIT_NOTE}</p>
        </div>
        <div className="row">
          <a href="/expert/earnings/export" className={buttonClass({ variant: "secondary" })} download>
            Export CSV
          </a>
        </div>
      </header>

      <EarningsCards summary={summary} />

      <Tabs defaultValue="performance">
        <TabsList aria-label="Earnings views">
          <TabsTrigger value="performance">Performance</TabsTrigger>
          <TabsTrigger value="breakdown">Revenue Breakdown</TabsTrigger>
        </TabsList>
        <TabsContent value="performance" forceMount className="card stack kept-tab-panel">
          <div className="section-heading">
            <h2>Monthly summary</h2>
            <Link to="/expert/earnings/analytics">Detailed analytics</Link>
          </div>
          <BarChart
            title={`Earnings by month (UTC), last ${MONTHS} months`}
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
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it (WCAG 2.1.1) */}
          <section className="table-scroll" aria-label="Earnings by month" tabIndex={0}>
            <table className="data-table">
              <caption className="visually-hidden">Earnings by month</caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
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
                {monthly.map((month) => (
                  <tr key={month.month}>
                    <th scope="row">{formatMonth(month.month)}</th>
                    <td className="num">{formatCents(month.questionsCents)}</td>
                    <td className="num">{formatCents(month.sessionsCents)}</td>
                    <td className="num">{formatCents(month.totalCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </TabsContent>
        <TabsContent value="breakdown" forceMount className="card stack kept-tab-panel">
          <h2>Revenue Breakdown</h2>
          {summary.sources.length === 0 ? (
            <p className="empty-state">No earnings data available yet</p>
          ) : (
            <ul className="source-tiles">
              {summary.sources.map((source) => (
                <li key={source.key} className={`source-tile source-tile--${source.key}`}>
                  <span className="source-tile__label">{source.label}</span>
                  <span className="source-tile__percent">{source.percent}%</span>
                  <span className="source-tile__amount">{formatCents(source.cents)}</span>
                  <span className="source-tile__count">
                    {`${source.count} ${source.key === "sessions" ? "session" : "question"}${source.count === 1 ? "" : "s"}`}
                  </span>
                  <span className="source-tile__bar" aria-hidden="true">
                    <span style={{ width: `${source.percent}%` }} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </TabsContent>
      </Tabs>

      <section className="card stack" aria-labelledby="tips-title">
        <h2 id="tips-title">Tips for increasing your revenue</h2>
        <ul className="check-list">
          {TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}
