import { formatCents } from "~/lib/money";

type Summary = {
  totalCents: number;
  questions: { cents: number; count: number };
  sessions: { cents: number; count: number };
  upcoming: { cents: number; count: number };
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The Earnings cards (SPEC.md): lifetime total, questions, held sessions, and what is still upcoming. */
export function EarningsCards({ summary }: { summary: Summary }) {
  return (
    <ul className="stat-grid" aria-label="Earnings summary">
      <li className="stat-card stat-card--highlight">
        <span className="stat-card__label">Total Earnings</span>
        <span className="stat-card__value">{formatCents(summary.totalCents)}</span>
        <span className="stat-card__note">lifetime, refunds excluded</span>
      </li>
      <li className="stat-card">
        <span className="stat-card__label">Questions Revenue</span>
        <span className="stat-card__value">{formatCents(summary.questions.cents)}</span>
        <span className="stat-card__note">
          from {plural(summary.questions.count, "answered question", "answered questions")}
        </span>
      </li>
      <li className="stat-card">
        <span className="stat-card__label">Bookings Revenue</span>
        <span className="stat-card__value">{formatCents(summary.sessions.cents)}</span>
        <span className="stat-card__note">
          from {plural(summary.sessions.count, "completed session", "completed sessions")}
        </span>
      </li>
      <li className="stat-card">
        <span className="stat-card__label">Upcoming</span>
        <span className="stat-card__value">{formatCents(summary.upcoming.cents)}</span>
        <span className="stat-card__note">
          {plural(summary.upcoming.count, "confirmed session", "confirmed sessions")} not yet held
        </span>
      </li>
    </ul>
  );
}
